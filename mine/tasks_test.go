package mine

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/nfi"
)

func cand(id, commit, file string, pr int, before, after map[nfi.Aspect]float64) Candidate {
	b, a := nfi.NewScores(before), nfi.NewScores(after)
	return Candidate{ID: id, Repo: "o/r", Commit: commit, Parent: commit + "^", PRNumber: pr, File: file, Subject: "s " + id,
		Date: "2024-01-02T00:00:00+00:00", Before: "x = 1\n", After: "x = 2\n",
		ScoresBefore: b, ScoresAfter: a, Improvement: nfi.Improve(b, a), Class: Positive}
}

func TestBuildTasks(t *testing.T) {
	t.Parallel()
	D, E := nfi.Documentation, nfi.ErrorHandling
	cands := []Candidate{
		cand("c1", "aaaaaaaaaaaaaaaa", "a.py", 5, map[nfi.Aspect]float64{D: 0.5, E: 1}, map[nfi.Aspect]float64{D: 1, E: 1}),
		cand("c2", "aaaaaaaaaaaaaaaa", "b.py", 5, map[nfi.Aspect]float64{D: 0, E: 1}, map[nfi.Aspect]float64{D: 0.25, E: 1}),
		cand("c3", "bbbbbbbbbbbbbbbb", "a.py", 0, map[nfi.Aspect]float64{D: 0, E: 0}, map[nfi.Aspect]float64{D: 0.1, E: 0.5}),
		cand("c4", "cccccccccccccccc", "a.py", 7, map[nfi.Aspect]float64{D: 0}, map[nfi.Aspect]float64{D: 1}),
		cand("c5", "dddddddddddddddd", "a.py", 8, map[nfi.Aspect]float64{D: 0}, map[nfi.Aspect]float64{D: 1}),
	}
	dec := map[string]Decision{
		"c1": {Accept: true}, "c2": {Accept: true}, // multi-file DOC task (most improved)
		"c3": {Accept: true, Aspect: "ERR"}, // single-file ERR task, named by the reviewer
		"c4": {Accept: false},
	}
	tasks, rep, err := BuildTasks(cands, dec, BuildOptions{TestCommand: "python -m pytest -q"})
	if err != nil {
		t.Fatal(err)
	}
	wantRep := BuildReport{Candidates: 5, Accepted: 3, Rejected: 1, Unlabelled: 1, Tasks: 2, Single: 1, Multi: 1, PerAspect: map[string]int{"DOC": 1, "ERR": 1}}
	if d := cmp.Diff(wantRep, rep); d != "" {
		t.Errorf("report (-want +got):\n%s", d)
	}
	if len(tasks) != 2 {
		t.Fatalf("got %d tasks", len(tasks))
	}
	m := tasks[0]
	if m.InstanceID != "o__r-5-doc" || m.Scope != "multi" || m.Aspect != D || len(m.Files) != 2 || m.BaseCommit != "aaaaaaaaaaaaaaaa^" ||
		m.DescriptionStatus != dataset.DescriptionDraft || m.Description != dataset.DescriptionPlaceholder || m.PRNumber != 5 {
		t.Errorf("multi task: got %+v", m)
	}
	// Multi-file I_DOC: mean before (0.5+0)/2 = 0.25, after (1+0.25)/2 = 0.625.
	if v := m.Improvement["DOC"]; math.Abs(v-0.375) > 1e-12 {
		t.Errorf("multi task I_DOC = %v, want 0.375", v)
	}
	if s := tasks[1]; s.InstanceID != "o__r-bbbbbbbbbbbb-err" || s.Scope != "single" || s.Aspect != E {
		t.Errorf("single task: got %s %s %v", s.InstanceID, s.Scope, s.Aspect)
	}
	// Written tasks load back with no error.
	var buf bytes.Buffer
	if err := dataset.WriteNFITasks(&buf, tasks); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "tasks.jsonl")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := dataset.LoadNFITasks(p)
	if err != nil || len(loaded.Errors) > 0 || len(loaded.Tasks) != 2 {
		t.Fatalf("reload: %v %v", err, loaded.Errors)
	}
	if loaded.Tasks[0].Files[1].After != "x = 2\n" || loaded.Tasks[0].DescriptionStatus != "draft" || loaded.Tasks[0].Commit != "aaaaaaaaaaaaaaaa" {
		t.Errorf("reloaded task differs: %+v", loaded.Tasks[0])
	}

	// Errors: a label for an unknown id; an accepted pair with nothing improved.
	if _, _, err := BuildTasks(cands, map[string]Decision{"zz": {Accept: true}}, BuildOptions{}); err == nil || !strings.Contains(err.Error(), "zz") {
		t.Errorf("unknown id: got %v", err)
	}
	flat := cand("f", "eeee", "a.py", 1, map[nfi.Aspect]float64{D: 1}, map[nfi.Aspect]float64{D: 1})
	if _, _, err := BuildTasks([]Candidate{flat}, map[string]Decision{"f": {Accept: true}}, BuildOptions{}); err == nil || !strings.Contains(err.Error(), "no aspect improved") {
		t.Errorf("flat pair: got %v", err)
	}
	// A task without a test command does not validate on write.
	if err := dataset.WriteNFITasks(&bytes.Buffer{}, []dataset.NFITask{{InstanceID: "x", Scope: "single", Files: []dataset.NFIFile{{Path: "a.py"}}}}); err == nil ||
		!strings.Contains(err.Error(), `task 1 (x): field "test_command"`) {
		t.Errorf("invalid task: got %v", err)
	}
}
