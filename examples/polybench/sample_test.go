// Package polybench_test proves the bundled SWE-PolyBench sample sound with
// the real toolchains, independently of the harness: for every instance of
// dataset.csv, at base_commit with the test patch the FAIL_TO_PASS tests do
// not pass and the PASS_TO_PASS tests pass; with the test patch and the gold
// patch every listed test passes and every test the run reports is listed;
// the wrong patch of predictions-wrong.jsonl leaves its instance unresolved.
// It also checks that the committed bundles and dataset are built from src/.
//
// Needs git, python3 (+pytest), node, mvn and JDK 17, and
// examples/polybench/env/setup.sh to have run. -short skips the test runs.
package polybench_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/polynfi/polynfi/testlog"
)

type row struct {
	ID, Repo, BaseCommit, Patch, TestPatch, Language, TestCommand, Category string
	F2P, P2P                                                                []string
}

// readDataset reads dataset.csv with encoding/csv and the F2P/P2P cells as
// Python-repr lists.
func readDataset(t *testing.T) []row {
	t.Helper()
	f, err := os.Open("dataset.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("dataset.csv: %v", err)
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	var rows []row
	for n, r := range recs[1:] {
		get := func(name string) string {
			i, ok := col[name]
			if !ok {
				t.Fatalf("dataset.csv: no column %q", name)
			}
			return r[i]
		}
		f2p, err := parsePyList(get("F2P"))
		if err != nil {
			t.Fatalf("dataset.csv row %d field F2P: %v", n+2, err)
		}
		p2p, err := parsePyList(get("P2P"))
		if err != nil {
			t.Fatalf("dataset.csv row %d field P2P: %v", n+2, err)
		}
		rows = append(rows, row{
			ID: get("instance_id"), Repo: get("repo"), BaseCommit: get("base_commit"),
			Patch: get("patch"), TestPatch: get("test_patch"), Language: get("language"),
			TestCommand: get("test_command"), Category: get("task_category"), F2P: f2p, P2P: p2p,
		})
	}
	return rows
}

// parsePyList parses a Python list literal of str ("['a', \"b'c\"]").
func parsePyList(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, fmt.Errorf("not a list literal: %.40q", s)
	}
	var out []string
	in := s[1 : len(s)-1]
	for i := 0; i < len(in); {
		switch c := in[i]; {
		case c == ' ' || c == ',':
			i++
		case c == '\'' || c == '"':
			var b strings.Builder
			j := i + 1
			for ; j < len(in) && in[j] != c; j++ {
				if in[j] == '\\' && j+1 < len(in) {
					j++
					switch in[j] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(in[j])
					}
					continue
				}
				b.WriteByte(in[j])
			}
			if j >= len(in) {
				return nil, fmt.Errorf("unterminated string in %.40q", s)
			}
			out = append(out, b.String())
			i = j + 1
		default:
			return nil, fmt.Errorf("unexpected %q in %.40q", c, s)
		}
	}
	return out, nil
}

type prediction struct {
	InstanceID string `json:"instance_id"`
	Model      string `json:"model_name_or_path"`
	ModelPatch string `json:"model_patch"`
}

func readPredictions(t *testing.T, path string) map[string]prediction {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]prediction{}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var p prediction
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		out[p.InstanceID] = p
	}
	return out
}

func TestDatasetUpToDate(t *testing.T) {
	for _, tool := range []string{"git", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found: the sample check needs it", tool)
		}
	}
	out, err := exec.Command("bash", "build.sh", "--check").CombinedOutput()
	if err != nil {
		t.Fatalf("build.sh --check: %v\n%s", err, out)
	}
}

func TestDatasetShape(t *testing.T) {
	rows := readDataset(t)
	perLang := map[string]int{}
	for _, r := range rows {
		perLang[r.Language]++
		if len(r.F2P) == 0 || len(r.P2P) == 0 {
			t.Errorf("%s: F2P has %d tests and P2P %d; want both non-empty", r.ID, len(r.F2P), len(r.P2P))
		}
		if !strings.HasPrefix(r.ID, strings.ReplaceAll(r.Repo, "/", "__")+"-") {
			t.Errorf("%s: instance_id does not start with repo %s", r.ID, r.Repo)
		}
	}
	for _, lang := range []string{"Python", "Java", "JavaScript", "TypeScript"} {
		if perLang[lang] < 2 {
			t.Errorf("%d %s instances, want at least 2", perLang[lang], lang)
		}
	}
	wrong := readPredictions(t, "predictions-wrong.jsonl")
	empty := readPredictions(t, "predictions-empty.jsonl")
	wrongLang := map[string]int{}
	for _, r := range rows {
		if p, ok := empty[r.ID]; !ok || p.ModelPatch != "" {
			t.Errorf("predictions-empty.jsonl: %s missing or not empty", r.ID)
		}
		p, ok := wrong[r.ID]
		if !ok {
			t.Errorf("predictions-wrong.jsonl: %s missing", r.ID)
			continue
		}
		if p.ModelPatch != r.Patch {
			wrongLang[r.Language]++
		}
	}
	for _, lang := range []string{"Python", "Java", "JavaScript", "TypeScript"} {
		if wrongLang[lang] != 1 {
			t.Errorf("predictions-wrong.jsonl: %d wrong %s patches, want 1", wrongLang[lang], lang)
		}
	}
}

// checkout makes a fresh work tree of r at its base commit from the bundle
// and applies patches in order.
func checkout(t *testing.T, r row, patches ...string) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "ws")
	bundle := filepath.Join("repos", strings.ReplaceAll(r.Repo, "/", "__")+".bundle")
	run := func(stdin string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: git %s: %v\n%s", r.ID, strings.Join(args, " "), err, out)
		}
	}
	run("", "clone", "-q", "--no-checkout", bundle, ws)
	run("", "-C", ws, "checkout", "-q", "--detach", r.BaseCommit)
	for _, p := range patches {
		run(p, "-C", ws, "apply", "--check", "-")
		run(p, "-C", ws, "apply", "-")
	}
	return ws
}

// runTests runs the instance's test command in ws the way the harness does
// and parses the results with testlog (JUnit XML reports first).
func runTests(t *testing.T, r row, ws string) (map[string]testlog.Status, string) {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", r.TestCommand)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "POLYNFI_DATASET_DIR="+dir, "TZ=UTC", "PYTHONHASHSEED=0",
		"LC_ALL=C.UTF-8", "PYTHONDONTWRITEBYTECODE=1", "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: run %q: %v", r.ID, r.TestCommand, err)
	}
	log := stderr.String() + stdout.String() + fmt.Sprintf("Container exited with status code %d\n", code)
	var fromLog []testlog.Result
	if fw, ok := testlog.Detect([]byte(log)); ok {
		fromLog, err = testlog.Parse(fw, []byte(log))
		if err != nil {
			t.Fatalf("%s: parse %s log: %v", r.ID, fw, err)
		}
	}
	results := fromLog
	if reports := testlog.FindJUnitReports(ws); len(reports) > 0 {
		results = nil
		for _, p := range reports {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := testlog.ParseJUnitXML(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %s: %v", r.ID, p, err)
			}
			results = append(results, rs...)
		}
		// The reports are printed into the log too: both routes must agree.
		if d := cmp.Diff(testlog.ToMap(results), testlog.ToMap(fromLog)); d != "" {
			t.Errorf("%s: results from the JUnit reports and from the log differ (-reports +log):\n%s", r.ID, d)
		}
	}
	results = testlog.TrimWorkspace(results, ws)
	if real, err := filepath.EvalSymlinks(ws); err == nil && real != ws {
		results = testlog.TrimWorkspace(results, real)
	}
	return testlog.ToMap(results), log
}

func sortedKeys(m map[string]testlog.Status, keep func(testlog.Status) bool) []string {
	var out []string
	for k, v := range m {
		if keep(v) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func isPassed(s testlog.Status) bool { return s == testlog.Passed }

// TestSampleWithRealToolchains runs every instance at base+test patch,
// base+test+gold and base+test+wrong patch.
func TestSampleWithRealToolchains(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pytest, mvn, mocha and jest on every instance")
	}
	if _, err := os.Stat(filepath.Join("env", "node", "node_modules", ".bin", "jest")); err != nil {
		t.Fatalf("the sample's environment is not installed: run examples/polybench/env/setup.sh (%v)", err)
	}
	wrong := readPredictions(t, "predictions-wrong.jsonl")
	for _, r := range readDataset(t) {
		t.Run(r.ID, func(t *testing.T) {
			t.Parallel()
			// Base with the test patch: F2P must not pass, P2P must pass.
			before, log := runTests(t, r, checkout(t, r, r.TestPatch))
			for _, id := range r.F2P {
				if before[id] == testlog.Passed {
					t.Errorf("before the gold patch F2P test %q passes; want it failing or absent", id)
				}
			}
			for _, id := range r.P2P {
				if before[id] != testlog.Passed {
					t.Errorf("before the gold patch P2P test %q is %q; want PASSED", id, before[id])
				}
			}
			// With the gold patch: every listed test passes and every test is listed.
			after, alog := runTests(t, r, checkout(t, r, r.TestPatch, r.Patch))
			listed := map[string]bool{}
			for _, id := range append(append([]string{}, r.F2P...), r.P2P...) {
				listed[id] = true
				if after[id] != testlog.Passed {
					t.Errorf("with the gold patch %q is %q; want PASSED", id, after[id])
				}
			}
			for id := range after {
				if !listed[id] {
					t.Errorf("with the gold patch the run reports %q (%s), which is in neither F2P nor P2P", id, after[id])
				}
			}
			if t.Failed() {
				passedBoth := []string{}
				for _, id := range sortedKeys(after, isPassed) {
					if before[id] == testlog.Passed {
						passedBoth = append(passedBoth, id)
					}
				}
				t.Logf("observed: passing with gold %q\npassing before too %q", sortedKeys(after, isPassed), passedBoth)
				t.Logf("log before:\n%s\nlog after:\n%s", tail(log, 3000), tail(alog, 3000))
			}
			// The wrong prediction, when this instance has one, must stay unresolved.
			p, ok := wrong[r.ID]
			if !ok || p.ModelPatch == r.Patch {
				return
			}
			got, _ := runTests(t, r, checkout(t, r, r.TestPatch, p.ModelPatch))
			resolved := true
			for _, id := range r.F2P {
				resolved = resolved && got[id] == testlog.Passed
			}
			for _, id := range r.P2P {
				resolved = resolved && got[id] != testlog.Failed && got[id] != testlog.Error
			}
			if resolved {
				t.Errorf("the wrong patch of predictions-wrong.jsonl resolves the instance; want it unresolved")
			}
		})
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

func TestParsePyList(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"[]", nil},
		{"['a', 'b']", []string{"a", "b"}},
		{`["it's", 'say \'x\'', 'back\\slash']`, []string{"it's", "say 'x'", `back\slash`}},
	}
	for _, c := range cases {
		got, err := parsePyList(c.in)
		if err != nil {
			t.Errorf("parsePyList(%q): %v", c.in, err)
			continue
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("parsePyList(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if _, err := parsePyList("['open"); err == nil {
		t.Error("parsePyList(unterminated) = nil error")
	}
}
