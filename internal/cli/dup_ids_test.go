package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Trial of #16: an id given twice in --instance-ids (a,a or the flag
// twice) was evaluated twice: metrics-only scored 2 units and listed the
// instance twice; a full run did the work twice, and with --workers > 1
// both copies could write one record directory. Each id is one instance,
// evaluated once, in the order of its first mention; stderr says so.
func TestDuplicateInstanceIDsEvaluatedOnce(t *testing.T) {
	t.Parallel()
	repos, _ := filepath.Abs("../../examples/polybench/repos")
	id := "tidyledger__ledgerkit-12"
	stdout, stderr, code := runCLI(t, "eval", "--metrics-only", "--format", "json", "--dataset", "../../examples/polybench/dataset.csv",
		"--predictions", "gold", "--repos-dir", repos, "--instance-ids", id+","+id, "--instance-ids", id)
	if code != ExitOK {
		t.Fatalf("eval --metrics-only: exit %d\n%s", code, stderr)
	}
	var mo struct {
		Instances []map[string]any `json:"instances"`
	}
	if err := json.Unmarshal([]byte(stdout), &mo); err != nil {
		t.Fatal(err)
	}
	if len(mo.Instances) != 1 {
		t.Errorf("metrics-only: %d instances scored, want 1 (%s given three times)", len(mo.Instances), id)
	}
	if strings.Count(stderr, "given more than once") != 1 {
		t.Errorf("stderr does not say once that the id was given more than once:\n%s", stderr)
	}

	ds := evalFixture(t, 2, "0")
	out := t.TempDir()
	_, stderr, code = runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out, "--workers", "2",
		"--instance-ids", "acme__echo-1,acme__echo-0", "--instance-ids", "acme__echo-1")
	if code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "polynfi: 2 instances (2 evaluated, 0 already recorded)") {
		t.Errorf("eval's summary line does not count 2 instances:\n%s", stderr)
	}
	rep := readHarnessReport(t, out)
	if n := rep.Polynfi.Modes[rep.Polynfi.NativeMode].Total; n != 2 || len(rep.Polynfi.UnitResults) != 2 {
		t.Errorf("full run: total %d, %d unit results, want 2 each (acme__echo-1 given twice)\n%s", n, len(rep.Polynfi.UnitResults), stderr)
	}
}

// Trial of #16: `polynfi report /nonexistent` exited 2 (usage), where
// the README's contract says unreadable input is exit 3; a path that
// exists and is no run directory stays a usage error (exit 2).
func TestReportMissingRunDirIsInputError(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "nope")
	if _, stderr, code := runCLI(t, "report", missing); code != ExitError || !strings.Contains(stderr, missing) {
		t.Errorf("report of a missing path: exit %d, want %d naming it\n%s", code, ExitError, stderr)
	}
	if _, stderr, code := runCLI(t, "report", t.TempDir()); code != ExitUsage {
		t.Errorf("report of a directory that is not a run: exit %d, want %d\n%s", code, ExitUsage, stderr)
	}
}

// Trial of #16: "1 instances", "1 units scored": the counts' nouns agree
// with them.
func TestCountsSingular(t *testing.T) {
	t.Parallel()
	repos, _ := filepath.Abs("../../examples/polybench/repos")
	stdout, stderr, code := runCLI(t, "eval", "--metrics-only", "--dataset", "../../examples/polybench/dataset.csv",
		"--predictions", "gold", "--repos-dir", repos, "--instance-ids", "tidyledger__ledgerkit-12")
	if code != ExitOK || !strings.Contains(stdout, "; 1 unit scored") {
		t.Errorf("metrics-only of one instance: exit %d, want '1 unit scored'\n%s%s", code, stdout, stderr)
	}
	ds := evalFixture(t, 2, "0")
	_, stderr, code = runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", t.TempDir(), "--instance-ids", "acme__echo-1")
	if code != ExitOK || !strings.Contains(stderr, "polynfi: 1 instance (1 evaluated, 0 already recorded)") {
		t.Errorf("eval of one instance: exit %d, want '1 instance (1 evaluated'\n%s", code, stderr)
	}
}
