package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// TestRegradeFromStoredLogs: verdicts stored by an older grading (here
// written over the records: "no test results in the log") are re-derived
// from the stored logs by the current parsers, shown old beside new, kept
// in regrade.json, and with --apply the report shows the re-graded run.
func TestRegradeFromStoredLogs(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatal(stderr)
	}
	recs, err := runrecord.LoadRecords(out)
	if err != nil || len(recs) != 2 {
		t.Fatalf("records %d %v", len(recs), err)
	}
	// An older grading: the first record unresolved everywhere.
	old := recs[0]
	old.Verdicts = grading.AllModes(grading.StatusUnresolved, "no test results in the log")
	old.Resolved, old.Status = false, grading.StatusUnresolved
	b, _ := json.MarshalIndent(old, "", "  ")
	p := filepath.Join(out, filepath.FromSlash(runrecord.RecordRelDir(old.Key)), runrecord.ResultFile)
	os.WriteFile(p, b, 0o644)
	if stdout, _, _ := runCLI(t, "report", out); !strings.Contains(stdout, "resolved 1/2") {
		t.Fatalf("tampered report:\n%s", stdout)
	}

	stdout, stderr, code := runCLI(t, "regrade", out)
	if code != ExitOK || !strings.Contains(stdout, "1 changed") || !strings.Contains(stdout, old.InstanceID) ||
		!strings.Contains(stdout, "unresolved → resolved") {
		t.Fatalf("regrade: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var doc struct {
		Changed int `json:"changed"`
		Units   []struct {
			Unit    string           `json:"unit"`
			Old     grading.Verdicts `json:"old_verdicts"`
			New     grading.Verdicts `json:"new_verdicts"`
			Changed bool             `json:"changed"`
		} `json:"units"`
	}
	rb, err := os.ReadFile(filepath.Join(out, "regrade.json"))
	if err != nil || json.Unmarshal(rb, &doc) != nil || doc.Changed != 1 {
		t.Fatalf("regrade.json: %v %s", err, rb)
	}
	for _, u := range doc.Units {
		if u.Changed && (u.Old.PolyBench.Resolved || !u.New.PolyBench.Resolved) {
			t.Errorf("%s: old %+v new %+v", u.Unit, u.Old.PolyBench, u.New.PolyBench)
		}
	}
	// Without --apply the records are untouched; with it the report follows.
	if stdout, _, _ := runCLI(t, "report", out); !strings.Contains(stdout, "resolved 1/2") {
		t.Errorf("records changed without --apply:\n%s", stdout)
	}
	if _, stderr, code := runCLI(t, "regrade", "--apply", out); code != ExitOK {
		t.Fatal(stderr)
	}
	if stdout, _, _ := runCLI(t, "report", out); !strings.Contains(stdout, "resolved 2/2") {
		t.Errorf("report after --apply:\n%s", stdout)
	}
}

// TestRegradeBundledSample: re-grading the stored logs of the bundled
// SWE-PolyBench sample (Jest, Mocha, pytest; Maven's JUnit XML is not
// stored and is kept) changes no verdict. It failed when Jest's absolute
// test paths under the scratch work tree were not made relative again.
func TestRegradeBundledSample(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("evaluates the bundled sample")
	}
	poly := sampleEval(t, "polybench-gold", "--dataset", "../../examples/polybench/dataset.csv", "--predictions", "gold", "--workers", "2")
	stdout, stderr, code := runCLI(t, "regrade", "--format", "json", poly)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var doc struct {
		Changed int `json:"changed"`
		Units   []struct {
			Unit       string `json:"unit"`
			NotRegrade string `json:"not_regraded"`
		} `json:"units"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	regraded := 0
	for _, u := range doc.Units {
		if u.NotRegrade == "" {
			regraded++
		}
	}
	if doc.Changed != 0 || regraded < 6 {
		t.Errorf("changed %d, re-graded %d of %d:\n%s", doc.Changed, regraded, len(doc.Units), stdout)
	}
}
