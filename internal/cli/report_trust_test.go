package cli

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfirecord"
	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/runrecord"
)

// Tests of the defects a fresh-eyes trial of issue #16 found (commit
// 9b5a8ca), each written from the defect's description.

// complexityFixture writes a dataset (JSONL, PolyBench field names) of six
// Python instances over one repository, whose reference changes are, by
// their modified_nodes, single_func (0, 3), func_only (1, 4) and mixed
// (2, 5); languages alternate Python (even) and Java (odd, a label only).
// Every test command passes when the gold patch applied.
func complexityFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repos", "acme__tri")
	os.MkdirAll(repo, 0o755)
	sh(t, repo, "git", "init", "--quiet", "--initial-branch=main")
	src := "def f():\n    return 1\n\n\ndef g():\n    return 2\n\n\nclass C:\n    def h(self):\n        return 3\n"
	os.WriteFile(filepath.Join(repo, "m.py"), []byte(src), 0o644)
	sh(t, repo, "git", "add", "m.py")
	sh(t, repo, "git", "commit", "--quiet", "-m", "base")
	base := sh(t, repo, "git", "rev-parse", "HEAD")
	patch := "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 10\n"
	nodes := []string{
		`["m.py->module->function_definition:f"]`,
		`["m.py->module->function_definition:f", "m.py->module->function_definition:g"]`,
		`["m.py->module->function_definition:f", "m.py->module->class_definition:C"]`,
	}
	var lines []string
	for i := 0; i < 6; i++ {
		row := map[string]any{
			"instance_id": fmt.Sprintf("acme__tri-%d", i), "repo": "acme/tri", "base_commit": base, "patch": patch, "test_patch": "",
			"language": []string{"Python", "Java"}[i%2], "task_category": "Bug Fix",
			"test_command": `if grep -q "return 10" m.py; then s=PASSED; else s=FAILED; fi; echo "==== test session starts ===="; echo "t.py::test_f $s"`,
			"F2P":          "['t.py:None:test_f']", "P2P": "[]",
			"modified_nodes": nodes[i%3],
		}
		b, _ := json.Marshal(row)
		lines = append(lines, string(b))
	}
	ds := filepath.Join(dir, "dataset.jsonl")
	os.WriteFile(ds, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	return ds
}

// leaveAsInterrupted turns a finished harness run into what an interrupt
// after the first unit leaves: the record of every instance but keep is
// removed (records are written one by one, atomically) and the manifest
// says the last call did not finish (complete false). A real SIGINT
// (TestReportInterruptedRun) leaves a number of records that depends on
// the machine's load; this gives the same state with a known count.
func leaveAsInterrupted(t *testing.T, out, keep string) {
	t.Helper()
	removed := 0
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != runrecord.ResultFile {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			InstanceID string `json:"instance_id"`
		}
		json.Unmarshal(b, &r)
		if r.InstanceID != keep {
			os.Remove(p)
			removed++
		}
		return nil
	})
	if removed == 0 {
		t.Fatalf("no record removed from %s", out)
	}
	markIncomplete(t, out)
}

// markIncomplete sets the run manifest's complete flag to false.
func markIncomplete(t *testing.T, out string) {
	t.Helper()
	p := filepath.Join(out, runrecord.ManifestFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["complete"] = false
	b, _ = json.Marshal(m)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// "polynfi compare out/demo/polybench runs/intr-keep (B interrupted after
// 1/8): B 'resolved 1/8', 7 not-evaluated units counted as 'A only' flips
// and in McNemar (p=0.01563), JSON only_a; 'interrupted' nowhere."
func TestCompareLeavesNotEvaluatedUnitsOut(t *testing.T) {
	t.Parallel()
	ds := complexityFixture(t)
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	for _, out := range []string{a, b} {
		if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
			t.Fatalf("eval: exit %d\n%s", code, stderr)
		}
	}
	leaveAsInterrupted(t, b, "acme__tri-0")
	stdout, stderr, code := runCLI(t, "compare", "--format", "json", a, b)
	if code != ExitOK {
		t.Fatalf("compare: exit %d\n%s", code, stderr)
	}
	var c report.Comparison
	if err := json.Unmarshal([]byte(stdout), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.OnlyA) != 0 || c.Paired != 1 || c.Both != 1 || c.McNemarP != 1 {
		t.Errorf("only_a %v, paired %d, both %d, McNemar p %g: want no flip, 1 pair, p 1", c.OnlyA, c.Paired, c.Both, c.McNemarP)
	}
	// The sides as written (fields a report on main did not have decode
	// as absent, not as a zero that would pass).
	var sides map[string]map[string]any
	json.Unmarshal([]byte(stdout), &sides)
	sa, sb := sides["a"], sides["b"]
	if sb["units"] != float64(1) || sb["resolved"] != float64(1) || sb["not_evaluated"] != float64(5) || sb["interrupted"] != true ||
		sa["units"] != float64(6) || sa["not_evaluated"] != float64(0) {
		t.Errorf("sides: A %v\nB %v\nwant B 1/1 evaluated, 5 not evaluated, interrupted; A 6 units", sa, sb)
	}
	line := "B interrupted: 5 not evaluated, left out of the pairs"
	if len(c.Notices) != 1 || !strings.Contains(c.Notices[0], line) {
		t.Errorf("JSON notices %q, want %q", c.Notices, line)
	}
	for _, format := range []string{"text", "markdown", "html"} {
		stdout, stderr, code := runCLI(t, "compare", "--format", format, a, b)
		if code != ExitOK || !strings.Contains(stdout, line) || strings.Contains(stdout, "A only 5") {
			t.Errorf("compare --format %s: exit %d, want %q\n%s\n%s", format, code, line, stdout, stderr)
		}
	}
}

// "Interrupted run's complexity table: polynfi report runs/intr-keep shows
// single_func/func_only 'not evaluated 0' and no mixed row; JSON
// by_complexity not_evaluated 0. Retrieval tables omit languages with
// nothing evaluated without a not-evaluated count."
func TestInterruptedReportKeepsEveryGroup(t *testing.T) {
	t.Parallel()
	ds := complexityFixture(t)
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	leaveAsInterrupted(t, out, "acme__tri-0") // a Python single_func instance
	stdout, stderr, code := runCLI(t, "report", "--format", "json", out)
	if code != ExitOK {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	var rep report.Harness
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	// single_func: 0 evaluated, 3 not; func_only counts single_func too:
	// 0 and 1, 4, 3 not; mixed: 2, 5 not evaluated.
	want := map[string][2]int{"single_func": {1, 1}, "func_only": {1, 3}, "mixed": {0, 2}}
	got := map[string][2]int{}
	for _, g := range rep.Polynfi.ByComplexity {
		got[g.Name] = [2]int{g.Total, g.NotEvaluated}
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("by_complexity %s: total, not evaluated = %v, want %v (all: %v)", name, got[name], w, got)
		}
	}
	s := rep.Polynfi.Retrieval
	if s == nil {
		t.Fatal("no retrieval summary")
	}
	var langs []string
	for _, g := range s.ByLanguage {
		langs = append(langs, fmt.Sprintf("%s n=%d", g.Name, g.File.N))
	}
	if strings.Join(langs, ", ") != "Java n=0, Python n=1" {
		t.Errorf("retrieval by language: %v, want Java n=0, Python n=1", langs)
	}
	var cx []string
	for _, g := range s.ByComplexity {
		cx = append(cx, g.Name)
	}
	if strings.Join(cx, ",") != "single_func,func_only,mixed" {
		t.Errorf("retrieval by complexity: %v", cx)
	}
	text, _, _ := runCLI(t, "report", out)
	sec := text[strings.Index(text, "Retrieval by language"):]
	sec = sec[:strings.Index(sec, "\n\n")]
	if !strings.Contains(sec, "not evaluated") || !regexpLine(sec, `^Java +0 +– .* 3$`) || !regexpLine(sec, `^all +1 .* 5$`) {
		t.Errorf("retrieval by language, text:\n%s", sec)
	}
	sec = text[strings.Index(text, "Pass rate by complexity class"):]
	sec = sec[:strings.Index(sec, "\n\n")]
	if !regexpLine(sec, `^mixed +0 +0 +– .* 2$`) {
		t.Errorf("pass rate by complexity, text:\n%s", sec)
	}
}

// regexpLine reports whether some line of s matches the pattern.
func regexpLine(s, pattern string) bool {
	re := mustRegexp(pattern)
	for _, l := range strings.Split(s, "\n") {
		if re.MatchString(strings.TrimRight(l, " ")) {
			return true
		}
	}
	return false
}

// "polynfi compare out/demo/polybench runs/mo-wrong (B is a --metrics-only
// run) says 'no polynfi-run.json of an eval run' though the file exists."
func TestCompareNamesMetricsOnlyRun(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	full, mo := filepath.Join(t.TempDir(), "full"), filepath.Join(t.TempDir(), "mo")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", full); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "eval", "--metrics-only", "--dataset", ds, "--predictions", "gold", "--out", mo); code != ExitOK {
		t.Fatalf("eval --metrics-only: exit %d\n%s", code, stderr)
	}
	_, stderr, code := runCLI(t, "compare", full, mo)
	if code != ExitUsage || !strings.Contains(stderr, "metrics-only run") || !strings.Contains(stderr, "compare needs two full eval runs") ||
		strings.Contains(stderr, "no "+runrecord.ManifestFile) {
		t.Errorf("exit %d, want 2 naming the metrics-only run:\n%s", code, stderr)
	}
}

// "report runs/wrong runs/wrong prints the same section twice."
func TestReportSameRunTwiceOnce(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "report", out, out+"/", link, filepath.Join(dir, ".", "out"))
	if code != ExitOK || strings.Count(stdout, "resolved 2/2") != 1 || strings.Contains(stdout, "runs:") || !strings.Contains(stderr, "reported once") {
		t.Errorf("exit %d: want one report and a note on stderr\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// copyRun copies a run directory (the shared sample runs stay intact).
func copyRun(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	return dst
}

// nfiTable3 decodes report.json's Table 3 rows by agent, with the JSON
// values as written (null stays nil).
func nfiTable3(t *testing.T, stdout string) (map[string]map[string]any, map[string]any) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[string]any{}
	rep, _ := doc["report"].(map[string]any)
	t3, _ := rep["table3"].([]any)
	for _, r := range t3 {
		m := r.(map[string]any)
		rows[m["agent"].(string)] = m
	}
	return rows, doc
}

// "Interrupted NFI run hides an agent: polynfi report runs/nfi-intr says
// '5 tasks, 1 agents, 13 runs'; agent-beta (36 runs, none evaluated)
// absent." And: "NFI report.json writes 0 (func_pass_pct,
// functionally_correct) where text shows '–' when gold was not run."
func TestNFIInterruptedReportListsEveryAgent(t *testing.T) {
	t.Parallel()
	run := copyRun(t, nfiSampleRun(t))
	// What an interrupt after agent-alpha's first runs leaves: no record
	// of agent-beta, a few of agent-alpha's, the manifest incomplete.
	recs, _, err := nfirecord.ReadRecords(run)
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for _, r := range recs {
		if r.Model == "agent-alpha" && r.InstanceID == recs[0].InstanceID && kept < 3 {
			kept++
			continue
		}
		if err := os.Remove(filepath.Join(run, filepath.FromSlash(nfirecord.RecordRelPath(r.Model, r.InstanceID, r.Run)))); err != nil {
			t.Fatal(err)
		}
	}
	markIncomplete(t, run)
	stdout, stderr, code := runCLI(t, "report", "--format", "json", run)
	if code != ExitOK {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	rows, doc := nfiTable3(t, stdout)
	rep := doc["report"].(map[string]any)
	if rep["tasks"] != float64(12) || doc["not_evaluated"] != float64(72-kept) {
		t.Errorf("tasks %v, not evaluated %v: want 12 tasks (the manifest's), %d not evaluated", rep["tasks"], doc["not_evaluated"], 72-kept)
	}
	beta, ok := rows["agent-beta"]
	if !ok {
		t.Fatalf("no agent-beta row in Table 3: %v", rows)
	}
	if beta["runs"] != float64(0) || beta["not_evaluated"] != float64(36) || beta["valid_pct"] != nil || beta["func_pass_pct"] != nil || beta["functionally_correct"] != nil {
		t.Errorf("agent-beta row: %v; want 0 runs, 36 not evaluated, null rates", beta)
	}
	if a := rows["agent-alpha"]; a["runs"] != float64(kept) || a["not_evaluated"] != float64(36-kept) {
		t.Errorf("agent-alpha row: %v", a)
	}
	// The gold model was not run: the Human Reference's Func. Pass is
	// unknown, null in JSON as "–" in the text.
	if h := rows[report.HumanReference]; h["func_pass_pct"] != nil || h["functionally_correct"] != nil {
		t.Errorf("Human Reference without gold runs: func_pass_pct %v functionally_correct %v, want null", h["func_pass_pct"], h["functionally_correct"])
	}
	text, _, _ := runCLI(t, "report", run)
	if !strings.Contains(text, "12 tasks, 2 agents") || !regexpLine(text, `^agent-beta +0 +– +– +– +– +– +– +– +36$`) {
		t.Errorf("text report:\n%s", text)
	}
}

// "Human Reference I_p row includes the task where the reference failed its
// tests, under a title 'over functionally correct runs'", and "the
// gold-failure warning" does not name the task.
func TestNFIHumanReferenceOverPassingReference(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../examples/nfi/tasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// Three tasks; the third gets a test no code passes (a broken task:
	// its reference fails).
	var lines []string
	var broken string
	for i, l := range strings.Split(strings.TrimSpace(string(src)), "\n")[:3] {
		if i == 2 {
			var task map[string]any
			if err := json.Unmarshal([]byte(l), &task); err != nil {
				t.Fatal(err)
			}
			broken = task["instance_id"].(string)
			tests := task["tests"].([]any)
			tf := tests[len(tests)-1].(map[string]any)
			tf["content"] = tf["content"].(string) + "\n\ndef test_broken_task():\n    assert False\n"
			b, _ := json.Marshal(task)
			l = string(b)
		}
		lines = append(lines, l)
	}
	ds := filepath.Join(t.TempDir(), "tasks.jsonl")
	os.WriteFile(ds, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatalf("eval gold: exit %d\n%s", code, stderr)
	}
	stdout, stderr, code := runCLI(t, "report", "--format", "json", out)
	if code != ExitOK {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	rows, doc := nfiTable3(t, stdout)
	if fails, _ := doc["gold_failures"].([]any); len(fails) != 1 || fails[0] != broken {
		t.Errorf("gold_failures %v, want [%s]", doc["gold_failures"], broken)
	}
	// The Human Reference's means are over the two tasks its reference
	// passed: the gold model's own correct runs (its output is the
	// reference), not over all three.
	recs, _, err := nfirecord.ReadRecords(out)
	if err != nil || len(recs) != 3 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	h, g := rows[report.HumanReference], rows["gold"]
	hm, gm := h["mean_improvement"].([]any), g["mean_improvement"].([]any)
	differs := false
	for i := range hm {
		hc, gc := hm[i].(map[string]any), gm[i].(map[string]any)
		if hc["n"] != float64(2) || math.Abs(hc["value"].(float64)-gc["value"].(float64)) > 1e-12 {
			t.Errorf("aspect %d: Human Reference %v, gold's correct runs %v: want the same mean over n=2", i, hc, gc)
		}
		all := 0.0
		for _, r := range recs {
			v, _ := r.Human.Get(aspectAt(i))
			all += v / 3
		}
		if math.Abs(all-gc["value"].(float64)) > 1e-9 {
			differs = true
		}
	}
	if !differs {
		t.Errorf("the mean I_p(h) over all three tasks equals the mean over the two passing ones: the fixture cannot tell them apart")
	}
	text, _, _ := runCLI(t, "report", out)
	if !strings.Contains(text, "failed its tests in 1 run, on "+broken) {
		t.Errorf("gold warning does not name %s:\n%s", broken, text)
	}
}

func mustRegexp(p string) *regexp.Regexp { return regexp.MustCompile(p) }

func aspectAt(i int) nfi.Aspect { return nfi.Aspects[i] }
