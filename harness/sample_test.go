package harness

import (
	"context"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
)

// sampleSet is one prediction set of the bundled sample and the instances
// it must resolve.
type sampleSet struct {
	name string
	jobs []Job
	want []string // sorted
}

// loadSample reads examples/polybench: its dataset and the gold, empty and
// one-wrong-per-language prediction sets.
func loadSample(t *testing.T) (string, *dataset.Dataset, []sampleSet) {
	t.Helper()
	return loadSampleAt(t, "../examples/polybench", 8, []string{dataset.Python, dataset.Java, dataset.JavaScript, dataset.TypeScript})
}

// loadSampleAt reads a bundled sample laid out like examples/polybench
// (rel, relative to this package): at least minInstances instances, and
// one wrong patch for each of langs in predictions-wrong.jsonl.
func loadSampleAt(t *testing.T, rel string, minInstances int, langs []string) (string, *dataset.Dataset, []sampleSet) {
	t.Helper()
	dir, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Load(filepath.Join(dir, "dataset.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Errors) > 0 || len(ds.Instances) < minInstances {
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
	for _, lang := range langs {
		if wrongLangs[lang] != 1 {
			t.Fatalf("predictions-wrong.jsonl has %d wrong patches for %s, want 1", wrongLangs[lang], lang)
		}
	}
	var sets []sampleSet
	for _, tc := range []struct {
		name  string
		preds []dataset.Prediction
	}{
		{"gold", dataset.Gold(ds.Instances)},
		{"empty", load("predictions-empty.jsonl")},
		{"one wrong per language", wrong},
	} {
		set := sampleSet{name: tc.name}
		for _, p := range tc.preds {
			in := byID[p.InstanceID]
			set.jobs = append(set.jobs, Job{Instance: in, Prediction: p})
			if !p.Empty() && p.ModelPatch == in.Patch {
				set.want = append(set.want, in.InstanceID)
			}
		}
		sort.Strings(set.want)
		sets = append(sets, set)
	}
	if n := len(sets[0].want); n != len(ds.Instances) {
		t.Fatalf("gold predictions cover %d of %d instances", n, len(ds.Instances))
	}
	return dir, ds, sets
}

// checkSample checks a run of set: the resolved instances are set.want,
// and every mode agrees with the native one.
func checkSample(t *testing.T, set sampleSet, res *RunResult, native grading.Mode) {
	t.Helper()
	var got []string
	for _, r := range res.Records {
		if r == nil {
			t.Fatal("an instance has no record")
		}
		for _, m := range grading.Modes {
			if v := r.Verdicts.Get(m); v.Resolved != r.Resolved {
				t.Errorf("%s: %s verdict %s differs from native %s", r.InstanceID, m, v.Status, r.Status)
			}
		}
		if len(r.RunnerInternals) > 0 {
			t.Errorf("%s: the runner-internals check flags %+v", r.InstanceID, r.RunnerInternals)
		}
		if r.Status == grading.StatusTampered {
			t.Errorf("%s tampered: %s", r.InstanceID, r.Verdicts.Get(native).Reason)
		}
		// Canaries are written for the four languages of SWE-PolyBench's
		// frameworks, Go, Rust, PHP, Ruby and C++ (canary.go); the others'
		// runs (C) say they have none.
		switch canaried := slices.Contains([]string{dataset.Python, dataset.JavaScript, dataset.TypeScript, dataset.Java, dataset.Go, dataset.Rust, dataset.PHP, dataset.Ruby, dataset.CPP}, r.Language); {
		case r.Test == nil:
		case canaried && (len(r.Test.Canaries) < 2 || !r.Test.Canaries[1].Fail):
			t.Errorf("%s: canaries %+v (%s), want a must-pass and a must-fail one in every instance's run", r.InstanceID, r.Test.Canaries, r.Test.CanaryNote)
		case !canaried && (len(r.Test.Canaries) > 0 || !strings.Contains(r.Test.CanaryNote, "canaries not placed")):
			t.Errorf("%s (%s): canaries %+v (%q), want none and a note saying so", r.InstanceID, r.Language, r.Test.Canaries, r.Test.CanaryNote)
		}
		if r.Resolved {
			got = append(got, r.InstanceID)
		} else if set.name == "gold" {
			t.Errorf("%s unresolved: %s %s", r.InstanceID, r.Status, r.Verdicts.Get(native).Reason)
		}
	}
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(set.want, " ") {
		t.Fatalf("resolved %v, want %v", got, set.want)
	}
}

// TestBundledSample runs the harness on examples/polybench with the real
// toolchains (pytest, Maven + JUnit 5, Mocha, Jest): gold resolves every
// instance, empty predictions resolve none, and the set with one wrong patch
// per language resolves exactly the others. Then the same in containers
// (each instance in an image built from its Dockerfile column; skipped
// without a Docker engine, failing in CI): the same resolved sets, the same
// status in every mode as with the local runtime, and no container left.
// Needs examples/polybench/env/setup.sh to have run; -short skips it.
func TestBundledSample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sample's real test suites")
	}
	dir, ds, sets := loadSample(t)
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			h, store := newHarness(t, filepath.Join(dir, "repos"), grading.Mode(ds.NativeMode()))
			h.Env = []string{"POLYNFI_DATASET_DIR=" + dir}
			h.ReadOnly = []string{filepath.Join(dir, "env")}
			res, err := h.Run(context.Background(), set.jobs, store, RunOptions{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			checkSample(t, set, res, h.NativeMode)
			t.Run("docker", func(t *testing.T) { checkSampleDocker(t, dir, ds, set, res) })
		})
	}
}
