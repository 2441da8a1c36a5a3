package harness

import (
	"context"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
)

// TestBundledSWEBenchPro grades examples/multilang/swe-bench-pro.jsonl (the
// sample's two Go instances as SWE-bench Pro rows, with their
// run_scripts/<id>/run_script.sh and parser.py) in its native mode,
// swe-bench-pro, with the real go toolchain: gold resolves both, empty
// neither, predictions-wrong.swe-bench-pro.jsonl (durfmt-4 wrong,
// durfmt-7 gold) only durfmt-7; in the local runtime, then in containers
// built from the rows' Dockerfile, with the same swe-bench-pro status.
// Each graded run's verdict comes from the dataset's parser.py, run in a
// local sandbox. -short skips it.
func TestBundledSWEBenchPro(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sample's Go test suites")
	}
	needProSandbox(t)
	dir, err := filepath.Abs("../examples/multilang")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Load(filepath.Join(dir, "swe-bench-pro.jsonl"))
	if err != nil || len(ds.Errors) > 0 || len(ds.Instances) != 2 {
		t.Fatalf("swe-bench-pro.jsonl: %v %v", err, ds)
	}
	if grading.Mode(ds.NativeMode()) != grading.ModeSWEBenchPro {
		t.Fatalf("native mode %s", ds.NativeMode())
	}
	byID := map[string]dataset.Instance{}
	var gold, empty []Job
	for _, in := range ds.Instances {
		if in.SWEBenchPro == nil || !strings.Contains(in.SWEBenchPro.Parser, "def parse_test_output") {
			t.Fatalf("%s: no parser.py read", in.InstanceID)
		}
		byID[in.InstanceID] = in
		gold = append(gold, Job{Instance: in, Prediction: dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "gold", ModelPatch: in.Patch}})
		empty = append(empty, Job{Instance: in, Prediction: dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "empty"}})
	}
	ps, err := dataset.LoadPredictions(filepath.Join(dir, "predictions-wrong.swe-bench-pro.jsonl"))
	if err != nil || len(ps.Errors) > 0 || len(ps.Predictions) != 2 {
		t.Fatalf("predictions: %v %v", err, ps)
	}
	var wrong []Job
	for _, p := range ps.Predictions {
		wrong = append(wrong, Job{Instance: byID[p.InstanceID], Prediction: p})
	}
	sets := []struct {
		name string
		jobs []Job
		want string
	}{
		{"gold", gold, "gridworks__durfmt-4 gridworks__durfmt-7"},
		{"empty", empty, ""},
		{"wrong", wrong, "gridworks__durfmt-7"},
	}
	check := func(t *testing.T, res *RunResult) map[string]grading.Status {
		got, st := []string{}, map[string]grading.Status{}
		for _, r := range res.Records {
			st[r.InstanceID] = r.Status
			if r.NativeMode != grading.ModeSWEBenchPro {
				t.Errorf("%s: native mode %q", r.InstanceID, r.NativeMode)
			}
			if r.Test != nil && r.Verdicts.SWEBenchPro == nil {
				t.Errorf("%s: tests ran, no swe-bench-pro verdict", r.InstanceID)
			}
			if r.Resolved {
				got = append(got, r.InstanceID)
			} else if r.Test != nil && !strings.Contains(r.Verdicts.SWEBenchPro.Reason, "not PASSED") {
				t.Errorf("%s: %s %q, want a test not PASSED", r.InstanceID, r.Status, r.Verdicts.SWEBenchPro.Reason)
			}
		}
		sort.Strings(got)
		return st
	}
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			h, store := newHarness(t, filepath.Join(dir, "repos"), grading.ModeSWEBenchPro)
			res, err := h.Run(context.Background(), set.jobs, store, RunOptions{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			local := check(t, res)
			if g := resolvedIDs(res); g != set.want {
				t.Fatalf("local: resolved %q, want %q", g, set.want)
			}
			if set.name == "empty" {
				return
			}
			t.Run("docker", func(t *testing.T) {
				h, store, _ := dockerHarness(t, filepath.Join(dir, "repos"), grading.ModeSWEBenchPro)
				res, err := h.Run(context.Background(), set.jobs, store, RunOptions{Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				for id, s := range check(t, res) {
					if local[id] != s {
						t.Errorf("%s: docker %s, local %s", id, s, local[id])
					}
				}
				if g := resolvedIDs(res); g != set.want {
					t.Fatalf("docker: resolved %q, want %q", g, set.want)
				}
			})
		})
	}
}

func resolvedIDs(res *RunResult) string {
	var got []string
	for _, r := range res.Records {
		if r.Resolved {
			got = append(got, r.InstanceID)
		}
	}
	sort.Strings(got)
	return strings.Join(got, " ")
}
