package report

import (
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/runrecord"
)

// TestBuildHarnessTampered: a tampered unit (its report failed the
// canaries) is unresolved in every mode, counted apart (Polynfi.Tampered,
// the tampered status of every mode) and never an infrastructure
// failure; a unit whose patch the runner-internals check flags is listed
// with its first finding. The headline shows both.
func TestBuildHarnessTampered(t *testing.T) {
	t.Parallel()
	patch := "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"
	ran := &runrecord.TestRun{Isolation: "none"}
	resolved := grading.AllModes(grading.StatusResolved, "")
	resolved.PolyBench.Resolved, resolved.SWEBench.Resolved = true, true
	resolved.Strict.Status, resolved.Strict.Reason = grading.StatusUnresolved, "strict: the model patch's code reaches into the test runner"
	recs := map[string]*runrecord.Record{
		"o__r-1": {Generation: true, PatchApplied: true, Test: ran, Verdicts: grading.AllModes(grading.StatusTampered, "tampered: canary c1 in t.py must fail and is reported PASSED")},
		"o__r-2": {Generation: true, PatchApplied: true, Test: ran, Verdicts: resolved,
			RunnerInternals: []runrecord.RunnerFinding{{File: "a.py", Line: 3, Rule: "os-exit", Text: "os._exit(0)"}, {File: "a.py", Line: 9, Rule: "pytest-hook", Text: "def pytest_x():"}}},
	}
	m := &runrecord.Manifest{Kind: runrecord.KindHarness, NativeMode: grading.ModePolyBench, Complete: true}
	var stored []*runrecord.Record
	for _, id := range []string{"o__r-1", "o__r-2"} {
		in := dataset.Instance{InstanceID: id, Repo: "o/r", Language: "Python", TaskCategory: "Bug Fix", Patch: patch}
		m.Instances = append(m.Instances, runrecord.ManifestInstance{InstanceID: id, Language: in.Language, TaskCategory: in.TaskCategory})
		k := harness.Job{Instance: in, Prediction: dataset.Prediction{InstanceID: id, ModelPatch: patch}}.Key()
		m.Units = append(m.Units, runrecord.ManifestUnit{Key: k})
		recs[id].Key = k
		stored = append(stored, recs[id])
	}
	rep := BuildHarness(HarnessInput{Manifest: m, Records: stored})
	x := rep.Polynfi
	if len(x.Tampered) != 1 || !strings.HasPrefix(x.Tampered[0], "o__r-1: tampered: canary c1") {
		t.Errorf("tampered %q", x.Tampered)
	}
	if len(rep.InfraFailureIDs) != 0 || strings.Join(rep.UnresolvedIDs, " ") != "o__r-1" || strings.Join(rep.ResolvedIDs, " ") != "o__r-2" {
		t.Errorf("infra %v unresolved %v resolved %v", rep.InfraFailureIDs, rep.UnresolvedIDs, rep.ResolvedIDs)
	}
	for _, md := range grading.Modes {
		if n := x.Modes[md].Statuses[grading.StatusTampered]; n != 1 {
			t.Errorf("%s: %d tampered, want 1", md, n)
		}
	}
	if len(x.RunnerInternals) != 1 || x.RunnerInternals[0] != "o__r-2: a.py:3: os-exit: os._exit(0) (and 1 more)" {
		t.Errorf("runner internals %q", x.RunnerInternals)
	}
	head := strings.Join(HarnessHeadline(rep), "\n")
	if !strings.Contains(head, "tampered (the harness's canaries or the clean-room re-run caught a moved verdict; unresolved in every mode): 1: o__r-1") ||
		!strings.Contains(head, "model patches reaching into the test runner (unresolved in strict mode): 1: o__r-2: a.py:3") {
		t.Errorf("headline:\n%s", head)
	}
}
