package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/polynfi/polynfi/nfi/driver"
)

// stampedVersion is the version buildStamped links into polynfi.
const stampedVersion = "v9.8.7-test"

var stamped struct {
	once     sync.Once
	dir, bin string
	err      error
	out      []byte
}

// buildStamped builds polynfi once per test process with its version set
// at link time to stampedVersion, as `make build` and the GitHub Action
// do, and returns the binary's path.
func buildStamped(t *testing.T) string {
	t.Helper()
	stamped.once.Do(func() {
		repoRoot, err := filepath.Abs("../..")
		if err != nil {
			stamped.err = err
			return
		}
		// Under TestMain's directory, removed when the tests end.
		if stamped.dir, stamped.err = os.MkdirTemp(sampleDir, "stamped-"); stamped.err != nil {
			return
		}
		stamped.bin = filepath.Join(stamped.dir, "polynfi")
		build := exec.Command("go", "build", "-ldflags", "-X github.com/polynfi/polynfi/internal/cli.version="+stampedVersion, "-o", stamped.bin, "./cmd/polynfi")
		build.Dir = repoRoot
		stamped.out, stamped.err = build.CombinedOutput()
	})
	if stamped.err != nil {
		t.Fatalf("go build: %v\n%s", stamped.err, stamped.out)
	}
	return stamped.bin
}

// runBin runs the polynfi binary bin in dir and returns stdout, stderr and
// the exit code.
func runBin(t *testing.T, bin, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), 0
}

// TestVersionInEveryFormat: a binary stamped with a version prints it in
// --version and in every output of score and diff, the plain text table
// and GitLab's Code Quality report included (the gap the issue's review
// found), and SARIF's driver version starts with a number.
func TestVersionInEveryFormat(t *testing.T) {
	const v = stampedVersion
	bin := buildStamped(t)
	dir := commitTree(t, map[string]string{"pkg/num.py": undocumented})
	branch(t, dir, "feat", map[string]string{"pkg/num.py": bareExcept})

	if out, _, code := runBin(t, bin, dir, "--version"); code != 0 || strings.TrimSpace(out) != "polynfi "+v {
		t.Errorf("--version: exit %d %q", code, out)
	}
	last := func(s string) string {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return lines[len(lines)-1]
	}
	prov := "polynfi " + v + " · catalog polynfi-92 · suppressions honoured"
	for _, args := range [][]string{
		{"score", "--isolated", "pkg"},
		{"score", "--isolated", "-q", "pkg"},
		{"score", "--isolated", "--statistics", "pkg"},
		{"score", "--isolated", "--diff-base", "main"},
		{"diff", "--isolated", "--base", "main"},
		{"diff", "--isolated", "--base", "main", "--statistics"},
	} {
		out, errOut, _ := runBin(t, bin, dir, args...)
		if last(out) != prov {
			t.Errorf("%v: last line %q, want %q\n%s%s", args, last(out), prov, out, errOut)
		}
	}
	if out, _, _ := runBin(t, bin, dir, "score", "--isolated", "--ignore-noqa", "pkg"); !strings.HasSuffix(out, "suppressions ignored\n") {
		t.Errorf("--ignore-noqa: %q", last(out))
	}
	// score --diff-base says what it compared with: I_p and the new findings.
	out, _, code := runBin(t, bin, dir, "score", "--isolated", "--diff-base", "main", "--fail-on", "regression")
	if code != 1 || !regexp.MustCompile(`(?m)^compared with main at [0-9a-f]{12}: I_p \(pp\): DOC [+-]\d+\.\d, ERR -\d+\.\d, .*; findings: \d+ new, \d+ fixed$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^gate failed: regression: ERR I_p -`).MatchString(out) {
		t.Errorf("score --diff-base text: exit %d\n%s", code, out)
	}

	for _, cmd := range [][]string{{"score", "--isolated", "pkg"}, {"diff", "--isolated", "--base", "main"}} {
		out, _, _ := runBin(t, bin, dir, append(cmd, "--format", "gitlab")...)
		var issues []driver.GitLabIssue
		if err := json.Unmarshal([]byte(out), &issues); err != nil || len(issues) == 0 {
			t.Fatalf("%v gitlab: %v\n%s", cmd, err, out)
		}
		for _, is := range issues {
			if is.EngineName != "polynfi" || is.EngineVersion != v || is.Type != "issue" || len(is.Categories) != 1 {
				t.Errorf("%v gitlab issue %+v", cmd, is)
			}
		}
		cats := map[string]string{}
		for _, is := range issues {
			cats[is.CheckName] = is.Categories[0]
		}
		if cats["ERR-P01"] != "Bug Risk" || (cats["DOC-R04"] != "" && cats["DOC-R04"] != "Clarity") {
			t.Errorf("%v gitlab categories %v", cmd, cats)
		}

		out, _, _ = runBin(t, bin, dir, append(cmd, "--format", "sarif")...)
		var log struct {
			Runs []struct {
				Tool struct {
					Driver struct {
						Version         string `json:"version"`
						SemanticVersion string `json:"semanticVersion"`
					} `json:"driver"`
				} `json:"tool"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 ||
			log.Runs[0].Tool.Driver.Version != "9.8.7-test" || log.Runs[0].Tool.Driver.SemanticVersion != "9.8.7-test" {
			t.Errorf("%v sarif driver: %v %+v", cmd, err, log.Runs)
		}
		for _, f := range []string{"json", "markdown", "github", "junit"} {
			if out, _, _ := runBin(t, bin, dir, append(cmd, "--format", f)...); !strings.Contains(out, v) {
				t.Errorf("%v --format %s lacks the version:\n%s", cmd, f, out)
			}
		}
	}
}

// TestMakefileVersion: `make build`'s version is a v-prefixed version
// (a tag, else a pseudo-version of the last commit), so that SARIF's
// version starts with a number and every report names the commit.
func TestMakefileVersion(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("make is required: %v", err)
	}
	repoRoot, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", "-s", "--no-print-directory", "version")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("make version: %v", err)
	}
	head, err := exec.Command("git", "-C", repoRoot, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse: %v", err)
	}
	v := strings.TrimSpace(string(out))
	tag := regexp.MustCompile(`^v\d+\.\d+\.\d+`).MatchString(v)
	pseudo := regexp.MustCompile(`^v0\.0\.0-\d{14}-[0-9a-f]{12}$`).MatchString(v) && strings.HasSuffix(v, strings.TrimSpace(string(head)))
	if !tag && !pseudo {
		t.Errorf("make version = %q (HEAD %s)", v, head)
	}
}

// sarifMultitool returns the SARIF Multitool binary installed by
// .ci/sarif.sh; it fails under CI=true and skips elsewhere when missing.
func sarifMultitool(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("POLYNFI_SARIF_MULTITOOL_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "polynfi", "sarif-multitool-5.7.0")
	}
	bin := filepath.Join(dir, "package", "Sarif.Multitool")
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the SARIF Multitool is required (bash .ci/sarif.sh): %v", err)
		}
		t.Skipf("no SARIF Multitool (bash .ci/sarif.sh installs it): %v", err)
	}
	return bin
}

// TestSARIFValidates: every SARIF log polynfi writes (score with a
// suppressed finding and an invalid file; diff with new, unchanged and
// absent findings; diff of a broken change) passes Microsoft's SARIF
// Multitool `validate` with the SARIF rules and GitHub code scanning's
// ingestion rules (rule kinds Sarif;Gh) without an error or a warning.
// The Multitool checks the SARIF 2.1.0 JSON schema first.
func TestSARIFValidates(t *testing.T) {
	mt := sarifMultitool(t)
	bin := buildStamped(t)
	dir := commitTree(t, map[string]string{"pkg/num.py": undocumented, "pkg/other.py": otherModule})
	branch(t, dir, "feat", map[string]string{"pkg/num.py": bareExcept + "\n\ndef more(y):  # noqa: DOC-R04\n    return y\n",
		"pkg/broken.py": "def broken(x:\n"})
	logs := map[string][]string{
		"score.sarif":        {"score", "--isolated", "--format", "sarif", "pkg"},
		"diff.sarif":         {"diff", "--isolated", "--base", "main", "--format", "sarif"},
		"diff-new.sarif":     {"diff", "--isolated", "--base", "main", "--new-code", "--format", "sarif"},
		"score-ignore.sarif": {"score", "--isolated", "--ignore-noqa", "--format", "sarif", "pkg/num.py"},
	}
	outDir := t.TempDir()
	for name, args := range logs {
		out, errOut, code := runBin(t, bin, dir, args...)
		if code > 1 || !strings.Contains(out, `"version": "2.1.0"`) {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
		if err := os.WriteFile(filepath.Join(outDir, name), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The logs hold what they must: a suppression, an invalid file, baselineState.
	b, _ := os.ReadFile(filepath.Join(outDir, "diff.sarif"))
	for _, want := range []string{`"baselineState": "new"`, `"baselineState": "unchanged"`, `"ruleId": "polynfi/invalid-file"`, `"suppressions"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("diff.sarif lacks %s", want)
		}
	}
	for name := range logs {
		res := filepath.Join(t.TempDir(), "validation.sarif")
		cmd := exec.Command(mt, "validate", "--rule-kind", "Sarif;Gh", "--level", "Error;Warning", "--output", res, filepath.Join(outDir, name))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s: validate: %v\n%s", name, err, out)
			continue
		}
		bad := regexp.MustCompile(`(?m)^.*: (error|warning) [A-Z]+\d+: .*$`).FindAllString(string(out), -1)
		if len(bad) > 0 || !strings.Contains(string(out), "Analysis completed successfully") {
			t.Errorf("%s: the SARIF Multitool reports:\n%s\n%s", name, strings.Join(bad, "\n"), out)
		}
		// The validator's own log confirms: no result at level error or warning.
		vb, err := os.ReadFile(res)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var vl struct {
			Runs []struct {
				Results []struct {
					RuleID string `json:"ruleId"`
					Level  string `json:"level"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(vb, &vl); err != nil || len(vl.Runs) == 0 {
			t.Fatalf("%s: validation log: %v", name, err)
		}
		for _, r := range vl.Runs[0].Results {
			if r.Level == "error" || r.Level == "warning" || r.Level == "" {
				t.Errorf("%s: %s at level %q", name, r.RuleID, r.Level)
			}
		}
	}
}

// TestReportProvenance: the run manifest records the polynfi version that
// evaluated into it, and every format of `polynfi report` (harness and
// NFI suite runs), of `compare` and of the submission bundle names the
// version that rendered it; a run evaluated by another version says so.
func TestReportProvenance(t *testing.T) {
	v := polynfiVersion()
	poly := sampleEval(t, "polybench-gold", "--dataset", "../../examples/polybench/dataset.csv", "--predictions", "gold", "--workers", "2")
	nfiRun := nfiSampleRun(t)
	for _, dir := range []string{poly, nfiRun} {
		b, err := os.ReadFile(filepath.Join(dir, "polynfi-run.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Versions []string `json:"polynfi_versions"`
		}
		if err := json.Unmarshal(b, &m); err != nil || len(m.Versions) != 1 || m.Versions[0] != v {
			t.Errorf("%s manifest polynfi_versions %v (%v), want [%s]", dir, m.Versions, err, v)
		}
		for _, f := range []string{"text", "markdown", "html", "json"} {
			out, errOut, code := runCLI(t, "report", "--format", f, dir)
			if code != ExitOK || !strings.Contains(out, "polynfi "+v) && !strings.Contains(out, `"polynfi_version": "`+v+`"`) {
				t.Errorf("report --format %s %s: exit %d, no version %q\n%s", f, dir, code, v, errOut)
			}
		}
	}
	out, _, code := runCLI(t, "compare", "--model-a", "agent-alpha", "--model-b", "agent-beta", nfiRun, nfiRun)
	if code != ExitOK || !strings.HasSuffix(out, "\npolynfi "+v+"\n") {
		t.Errorf("compare: exit %d, last lines %q", code, out[max(0, len(out)-200):])
	}
	bundle := filepath.Join(t.TempDir(), "bundle")
	if _, errOut, code := runCLI(t, "report", "--bundle", bundle, poly); code != ExitOK {
		t.Fatalf("bundle: exit %d %s", code, errOut)
	}
	b, _ := os.ReadFile(filepath.Join(bundle, "polynfi", "metadata.json"))
	if r, _ := os.ReadFile(filepath.Join(bundle, "README.md")); !strings.Contains(string(b), `"polynfi_version": "`+v+`"`) || !strings.Contains(string(r), "polynfi "+v) {
		t.Errorf("bundle metadata lacks the version:\n%s", b)
	}

	// A run another version evaluated: the footer names both.
	other := filepath.Join(t.TempDir(), "run")
	if err := os.CopyFS(other, os.DirFS(poly)); err != nil {
		t.Fatal(err)
	}
	mp := filepath.Join(other, "polynfi-run.json")
	b, _ = os.ReadFile(mp)
	b = bytes.Replace(b, []byte(`"polynfi_versions": [`), []byte(`"polynfi_versions": ["v0.9.0", `), 1)
	if err := os.WriteFile(mp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runCLI(t, "report", other)
	if want := "polynfi " + v + " (evaluated with polynfi v0.9.0, " + v + ")"; !strings.HasSuffix(out, "\n"+want+"\n") {
		t.Errorf("report of a run another version evaluated: want last line %q\n%s", want, out[max(0, len(out)-300):])
	}
}
