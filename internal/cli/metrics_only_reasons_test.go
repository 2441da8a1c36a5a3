package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/grading"
)

// Trial of #16: `polynfi report --instances` of a --metrics-only run said
// "files: empty or not applied" for every unit scoring 0, where the full
// run's drill-down says why: no prediction, which prediction row was
// rejected and why, an empty patch, a patch no attempt of the apply
// cascade applied. The metrics-only drill-down gives those same reasons
// (one definition).
func TestMetricsOnlyDrillDownReasons(t *testing.T) {
	t.Parallel()
	repos, _ := filepath.Abs("../../examples/polybench/repos")
	preds := filepath.Join(t.TempDir(), "preds.jsonl")
	rows := []string{
		`{"instance_id": "semverish__tinysemver-21", "model_name_or_path": "m", "model_patch": ""}`,
		`{"instance_id": "semverish__tinysemver-24", "model_name_or_path": "m", "model_patch": "diff --git a/nope.txt b/nope.txt\n--- a/nope.txt\n+++ b/nope.txt\n@@ -1 +1 @@\n-not there\n+x\n"}`,
		`{"instance_id": "urlkit__qs-lite-31", "model_name_or_path": "m", "model_patch": 7}`,
	}
	if err := os.WriteFile(preds, []byte(strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run")
	if _, stderr, code := runCLI(t, "eval", "--metrics-only", "--dataset", "../../examples/polybench/dataset.csv", "--predictions", preds,
		"--repos-dir", repos, "--out", out); code != ExitOK {
		t.Fatalf("eval --metrics-only: exit %d\n%s", code, stderr)
	}
	page, stderr, code := runCLI(t, "report", "--instances", out)
	if code != ExitOK {
		t.Fatalf("report --instances: exit %d\n%s", code, stderr)
	}
	want := map[string]string{
		"semverish__tinysemver-21": grading.ReasonEmptyPatch,
		"semverish__tinysemver-24": grading.ReasonNotApplied,
		"urlkit__qs-lite-31":       "prediction row 3 of " + preds + " rejected (field model_patch: ",
		"fieldnotes__csvkit4j-7":   "no prediction for this instance",
	}
	for _, p := range []string{page} {
		for id, w := range want {
			line := ""
			for _, l := range strings.Split(p, "\n") {
				if strings.HasPrefix(l, id+" ") {
					line = l
				}
			}
			if !strings.Contains(line, w) {
				t.Errorf("drill-down row of %s does not say %q:\n%s", id, w, line)
			}
		}
		if strings.Contains(p, "empty or not applied") {
			t.Errorf("drill-down still says 'empty or not applied':\n%s", p)
		}
	}
	// A metrics-only run of an older polynfi (no "missing" in its
	// manifest's units) cannot tell a missing prediction from an empty
	// one: the drill-down says so rather than "not run: empty patch".
	mp := filepath.Join(out, "polynfi-run.json")
	b, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	var man map[string]any
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	for _, u := range man["units"].([]any) {
		delete(u.(map[string]any), "missing")
	}
	old, _ := json.Marshal(man)
	if err := os.WriteFile(mp, old, 0o644); err != nil {
		t.Fatal(err)
	}
	page, stderr, code = runCLI(t, "report", "--instances", out)
	if code != ExitOK {
		t.Fatalf("report --instances of the older run: exit %d\n%s", code, stderr)
	}
	for _, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(l, "fieldnotes__csvkit4j-7 ") && !strings.Contains(l, "does not tell them apart") {
			t.Errorf("older run: the missing unit's row does not say it cannot tell missing from empty:\n%s", l)
		}
	}
}
