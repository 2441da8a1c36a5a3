package harness

import (
	"context"
	"path/filepath"
	"sort"
	"testing"

	"github.com/polynfi/polynfi/dataset"
)

// TestBundledSample runs the harness on examples/polybench with the real
// toolchains (pytest, Maven + JUnit 5, Mocha, Jest): gold resolves every
// instance, empty predictions resolve none, and the set with one wrong patch
// per language resolves exactly the others. Needs
// examples/polybench/env/setup.sh to have run; -short skips it.
func TestBundledSample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sample's real test suites")
	}
	dir, err := filepath.Abs("../examples/polybench")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Load(filepath.Join(dir, "dataset.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Errors) > 0 || len(ds.Instances) < 8 {
		t.Fatalf("sample dataset: %d instances, errors %v", len(ds.Instances), ds.Errors)
	}
	byID := map[string]dataset.Instance{}
	for _, in := range ds.Instances {
		byID[in.InstanceID] = in
	}
	load := func(name string) []dataset.Prediction {
		ps, err := dataset.LoadPredictions(filepath.Join(dir, name))
		if err != nil || len(ps.Errors) > 0 {
			t.Fatalf("%s: %v %v", name, err, ps.Errors)
		}
		return ps.Predictions
	}
	wrong := load("predictions-wrong.jsonl")
	wrongLangs := map[string]int{}
	for _, p := range wrong {
		if p.ModelPatch != byID[p.InstanceID].Patch {
			wrongLangs[byID[p.InstanceID].Language]++
		}
	}
	for _, lang := range []string{dataset.Python, dataset.Java, dataset.JavaScript, dataset.TypeScript} {
		if wrongLangs[lang] != 1 {
			t.Fatalf("predictions-wrong.jsonl has %d wrong patches for %s, want 1", wrongLangs[lang], lang)
		}
	}

	for _, tc := range []struct {
		name  string
		preds []dataset.Prediction
	}{
		{"gold", dataset.Gold(ds.Instances)},
		{"empty", load("predictions-empty.jsonl")},
		{"one wrong per language", wrong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, store := newHarness(t, filepath.Join(dir, "repos"), Mode(ds.NativeMode()))
			h.Env = []string{"POLYNFI_DATASET_DIR=" + dir}
			h.ReadOnly = []string{filepath.Join(dir, "env")}
			var jobs []Job
			var want []string
			for _, p := range tc.preds {
				in := byID[p.InstanceID]
				jobs = append(jobs, Job{Instance: in, Prediction: p})
				if !p.Empty() && p.ModelPatch == in.Patch {
					want = append(want, in.InstanceID)
				}
			}
			res, err := h.Run(context.Background(), jobs, store, RunOptions{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range res.Records {
				for _, m := range Modes {
					if v := r.Verdicts.Get(m); v.Resolved != r.Resolved {
						t.Errorf("%s: %s verdict %s differs from native %s", r.InstanceID, m, v.Status, r.Status)
					}
				}
				if r.Resolved {
					got = append(got, r.InstanceID)
				} else if tc.name == "gold" {
					t.Errorf("%s unresolved: %s %s", r.InstanceID, r.Status, r.Verdicts.Get(h.NativeMode).Reason)
				}
			}
			sort.Strings(got)
			sort.Strings(want)
			if len(got) != len(want) {
				t.Fatalf("resolved %v, want %v", got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("resolved %v, want %v", got, want)
				}
			}
			if tc.name == "gold" && len(got) != len(ds.Instances) {
				t.Errorf("gold resolved %d of %d", len(got), len(ds.Instances))
			}
		})
	}
}
