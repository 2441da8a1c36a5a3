package report

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
)

// TestBuildHarness checks the report's partition, lists and aggregates on
// hand-made records, one unit per case.
func TestBuildHarness(t *testing.T) {
	t.Parallel()
	patch := "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"
	inst := func(id, lang, cat string) dataset.Instance {
		return dataset.Instance{InstanceID: id, Repo: "o/r", Language: lang, TaskCategory: cat, Patch: patch,
			ModifiedNodes: []string{"a.py->module->function_definition:f"}}
	}
	insts := []dataset.Instance{
		inst("o__r-5", "Python", "Bug Fix"),     // resolved everywhere
		inst("o__r-1", "Python", "Feature"),     // unresolved
		inst("o__r-4", "Java", "Bug Fix"),       // no prediction
		inst("o__r-3", "Java", "Feature"),       // submitted, not recorded
		inst("o__r-2", "Python", "Bug Fix"),     // log parsed to no test
		inst("o__r-6", "Java", "Refactoring"),   // timed out
		inst("o__r-7", "Python", "Refactoring"), // empty prediction
	}
	metrics := func(f, n float64, status retrieval.NodeStatus, cx retrieval.Complexity) *retrieval.InstanceMetrics {
		m := &retrieval.InstanceMetrics{File: retrieval.Scores{Precision: f, Recall: f, F1: f}, NodeStatus: status, Complexity: cx}
		if status == retrieval.NodeOK || status == retrieval.NodeFailedPrediction {
			m.Node = &retrieval.Scores{Precision: n, Recall: n, F1: n}
		}
		return m
	}
	verdicts := func(st grading.Status) grading.Verdicts {
		v := grading.AllModes(st, "why")
		if st == grading.StatusResolved {
			v.PolyBench.Resolved, v.SWEBench.Resolved, v.Strict.Resolved = true, true, true
			v.PolyBench.Reason, v.SWEBench.Reason, v.Strict.Reason = "", "", ""
		}
		return v
	}
	delta := func(doc float64) *runrecord.NFIDelta {
		var before, after nfi.Scores
		if err := json.Unmarshal([]byte(`{"DOC":0.5,"STY":0.5}`), &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(`{"DOC":`+jsonFloat(0.5+doc)+`,"STY":0.5}`), &after); err != nil {
			t.Fatal(err)
		}
		return &runrecord.NFIDelta{Catalog: "polynfi-92", Delta: nfi.Delta{Before: before, After: after, Improvement: nfi.Improve(before, after), Valid: true}}
	}
	ran := &runrecord.TestRun{Isolation: "none"}
	recs := map[string]*runrecord.Record{
		"o__r-5": {Generation: true, PatchApplied: true, Test: ran, Verdicts: verdicts(grading.StatusResolved),
			Retrieval: metrics(1, 1, retrieval.NodeOK, retrieval.SingleFunc), NFI: delta(0.25)},
		"o__r-1": {Generation: true, PatchApplied: true, Test: ran, Verdicts: verdicts(grading.StatusUnresolved),
			Retrieval: metrics(0.5, 0, retrieval.NodeNoReference, retrieval.ComplexityNone), NFI: delta(-0.25)},
		"o__r-2": {Generation: true, PatchApplied: true, Test: ran, Verdicts: func() grading.Verdicts {
			v := grading.AllModes(grading.StatusUnresolved, "no test results in the log")
			v.Strict.Status = grading.StatusInfraFailure
			return v
		}(), Retrieval: metrics(1, 0.5, retrieval.NodeOK, retrieval.SingleFunc)},
		"o__r-6": {Generation: true, PatchApplied: true, Test: ran, Verdicts: verdicts(grading.StatusTimedOut),
			Retrieval: metrics(1, 1, retrieval.NodeFailedReference, "")},
		"o__r-7": {Generation: false, Verdicts: verdicts(grading.StatusEmptyPatch), Retrieval: metrics(0, 0, retrieval.NodeFailedPrediction, retrieval.SingleFunc)},
	}
	// o__r-8: the harness could not evaluate it (error status, no test run).
	insts = append(insts, inst("o__r-8", "Python", "Feature"))
	recs["o__r-8"] = &runrecord.Record{Generation: true, Verdicts: verdicts(grading.StatusError), Error: "repository missing"}
	// o__r-9: the sandbox failed (an infrastructure failure, no test run):
	// an error, tagged as an infrastructure failure.
	insts = append(insts, inst("o__r-9", "Python", "Feature"))
	recs["o__r-9"] = &runrecord.Record{Generation: true, Verdicts: grading.AllModes(grading.StatusInfraFailure, "container vanished"), InfraReason: "container_gone"}
	m := &runrecord.Manifest{Kind: runrecord.KindHarness, NativeMode: grading.ModePolyBench, Complete: true}
	var stored []*runrecord.Record
	for _, in := range insts {
		mi := runrecord.ManifestInstance{InstanceID: in.InstanceID, Language: in.Language, TaskCategory: in.TaskCategory}
		if in.InstanceID == "o__r-4" {
			mi.EmptyRetrieval = metrics(0, 0, retrieval.NodeFailedPrediction, retrieval.SingleFunc)
		}
		if in.InstanceID == "o__r-3" {
			// Not evaluated: its class is the manifest's.
			mi.ComplexityClass = retrieval.ComplexityMixed
		}
		m.Instances = append(m.Instances, mi)
		if in.InstanceID == "o__r-4" {
			continue
		}
		p := dataset.Prediction{InstanceID: in.InstanceID, ModelPatch: patch}
		if in.InstanceID == "o__r-7" {
			p.ModelPatch = ""
		}
		k := harness.Job{Instance: in, Prediction: p}.Key()
		m.Units = append(m.Units, runrecord.ManifestUnit{Key: k, Empty: p.Empty()})
		if r := recs[in.InstanceID]; r != nil {
			r.Key = k
			stored = append(stored, r)
		}
	}
	rep := BuildHarness(HarnessInput{Manifest: m, Records: stored})

	lists := map[string][]string{
		"completed":  rep.CompletedIDs,
		"incomplete": rep.IncompleteIDs,
		"empty":      rep.EmptyPatchIDs,
		"submitted":  rep.SubmittedIDs,
		"resolved":   rep.ResolvedIDs,
		"unresolved": rep.UnresolvedIDs,
		"infra":      rep.InfraFailureIDs,
		"ambiguous":  rep.AmbiguousFailureIDs,
		"error":      rep.ErrorIDs,
		"unrecorded": rep.Polynfi.NotRecordedIDs,
		"pb_nogen":   rep.PolyBench.NoGeneration,
		"pb_notres":  rep.PolyBench.NotResolved,
	}
	want := map[string][]string{
		"completed":  {"o__r-1", "o__r-2", "o__r-5", "o__r-6"},
		"incomplete": {"o__r-3", "o__r-4"},
		"empty":      {"o__r-7"},
		"submitted":  {"o__r-1", "o__r-2", "o__r-3", "o__r-5", "o__r-6", "o__r-7", "o__r-8", "o__r-9"},
		"resolved":   {"o__r-5"},
		"unresolved": {"o__r-1", "o__r-2", "o__r-6"},
		"infra":      {"o__r-2", "o__r-9"},
		"ambiguous":  {"o__r-6"},
		"error":      {"o__r-8", "o__r-9"},
		"unrecorded": {"o__r-3"},
		"pb_nogen":   {"o__r-4", "o__r-7"},
		"pb_notres":  {"o__r-1", "o__r-4", "o__r-3", "o__r-2", "o__r-6", "o__r-7", "o__r-8", "o__r-9"},
	}
	if d := cmp.Diff(want, lists); d != "" {
		t.Errorf("id lists (-want +got):\n%s", d)
	}
	// An error unit is an error only, not also an infrastructure failure.
	if rep.TotalInstances != 9 || rep.SubmittedInstances != 8 || rep.ErrorInstances != 2 || rep.InfraFailureInstances != 2 ||
		rep.PolyBench.TotalInstances != 9 || rep.PolyBench.TotalEmptyPatchInstances != 2 {
		t.Errorf("counts: total %d submitted %d error %d infra %d; polybench total %d empty %d", rep.TotalInstances, rep.SubmittedInstances,
			rep.ErrorInstances, rep.InfraFailureInstances, rep.PolyBench.TotalInstances, rep.PolyBench.TotalEmptyPatchInstances)
	}

	// node_retrieval: null for no reference nodes, -1 for a failed
	// reference, 0 for the missing prediction.
	nodes := map[string]any{}
	for _, e := range rep.PolyBench.NodeRetrieval {
		nodes[e["instance_id"].(string)] = e["node_f1"]
	}
	wantNodes := map[string]any{"o__r-5": 1.0, "o__r-1": nil, "o__r-2": 0.5, "o__r-6": -1.0, "o__r-7": 0.0, "o__r-4": 0.0}
	if d := cmp.Diff(wantNodes, nodes); d != "" {
		t.Errorf("node_retrieval f1 (-want +got):\n%s", d)
	}

	// Retrieval means: the missing prediction counts 0 in file means; node
	// means leave out o__r-1 (no reference node) and o__r-6 (failed reference).
	s := rep.Polynfi.Retrieval
	if s == nil || s.Overall.Instances != 6 || s.Overall.File.N != 6 || s.Overall.Node.N != 4 ||
		!near(s.Overall.File.F1, (1+0.5+1+1+0+0)/6.0) || !near(s.Overall.Node.F1, (1+0.5+0+0)/4.0) {
		t.Errorf("retrieval overall %+v", s)
	}

	// Pass rate by complexity: single_func holds o__r-5, o__r-2, o__r-7 and
	// the missing o__r-4; func_only the same.
	cx := map[string][2]int{}
	for _, g := range rep.Polynfi.ByComplexity {
		cx[g.Name] = [2]int{g.Resolved[grading.ModePolyBench], g.Total}
	}
	if d := cmp.Diff(map[string][2]int{"none": {0, 1}, "single_func": {1, 4}, "func_only": {1, 4}, "mixed": {0, 0}}, cx); d != "" {
		t.Errorf("by complexity (-want +got):\n%s", d)
	}
	// The not-evaluated o__r-3 counts in its class's group, apart.
	for _, g := range rep.Polynfi.ByComplexity {
		if want := map[string]int{"mixed": 1}[g.Name]; g.NotEvaluated != want {
			t.Errorf("by complexity %s: not evaluated %d, want %d", g.Name, g.NotEvaluated, want)
		}
	}
	// o__r-3 (Java) was not evaluated: in no denominator, counted apart.
	if g := rep.Polynfi.ByLanguage; len(g) != 2 || g[0].Name != "Java" || g[0].Total != 2 || g[0].NotEvaluated != 1 || g[1].Total != 6 || g[1].Resolved[grading.ModePolyBench] != 1 {
		t.Errorf("by language %+v %+v", g[0], g[1])
	}

	// NFI means: DOC over both deltas, and over the resolved one.
	n := rep.Polynfi.NFI
	if n == nil || n.Units != 2 || n.Valid != 2 || n.Mean[0].Aspect != "DOC" || n.Mean[0].N != 2 || !near(n.Mean[0].Mean, 0) ||
		n.MeanResolved[0].N != 1 || !near(n.MeanResolved[0].Mean, 0.25) || n.Mean[1].N != 0 {
		t.Errorf("nfi summary %+v", n)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func jsonFloat(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// TestRetrievalIntervalsIgnoreUnitOrder: a full run and a --metrics-only
// run hand retrievalIntervals the same per-instance metrics in different
// orders; the trial's 8 F1 values (two 1s, six 0s) gave [0.00, 0.50] in
// one and [0.00, 0.62] in the other. One definition, one number.
func TestRetrievalIntervalsIgnoreUnitOrder(t *testing.T) {
	var ms []retrieval.InstanceMetrics
	langs := []string{"Java", "Java", "JavaScript", "JavaScript", "Python", "Python", "TypeScript", "TypeScript"}
	for i, l := range langs {
		f1 := 0.0
		if l == "Python" {
			f1 = 1
		}
		ms = append(ms, retrieval.InstanceMetrics{
			InstanceID: "inst-" + string(rune('a'+i)), Language: l,
			File: retrieval.Scores{F1: f1}, Node: &retrieval.Scores{F1: f1}, NodeStatus: retrieval.NodeOK,
		})
	}
	a := retrievalIntervals(ms)
	for _, perm := range [][]int{{4, 0, 1, 2, 3, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1, 0}, {0, 2, 4, 6, 1, 3, 5, 7}} {
		var p []retrieval.InstanceMetrics
		for _, j := range perm {
			p = append(p, ms[j])
		}
		if b := retrievalIntervals(p); !cmp.Equal(a, b) {
			t.Errorf("order %v: intervals %+v, want %+v", perm, b["all"], a["all"])
		}
	}
}
