package harness

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
)

// BenchmarkCanaryCost evaluates the gold patch of one sample instance per
// language (pytest, Maven + JUnit 5, Mocha, Jest) with the local runtime
// and reports the share of the evaluations' wall time that went to
// writing the canaries (Timing.CanaryS) and to the runner-internals check
// (Timing.RunnerCheckS), in percent (added-%), beside the seconds of
// each. The canaries' own test bodies run within TestS (a few integer
// operations each). Run: go test -run '^$' -bench CanaryCost -benchtime 3x ./harness/
func BenchmarkCanaryCost(b *testing.B) {
	dir, err := filepath.Abs("../examples/polybench")
	if err != nil {
		b.Fatal(err)
	}
	ds, err := dataset.Load(filepath.Join(dir, "dataset.csv"))
	if err != nil {
		b.Fatal(err)
	}
	want := map[string]bool{"tidyledger__ledgerkit-12": true, "fieldnotes__csvkit4j-7": true, "semverish__tinysemver-21": true, "urlkit__qs-lite-31": true}
	h, _ := newHarness(b, filepath.Join(dir, "repos"), grading.Mode(ds.NativeMode()))
	h.Env = []string{"POLYNFI_DATASET_DIR=" + dir}
	h.ReadOnly = []string{filepath.Join(dir, "env")}
	var total, canary, check, test float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, in := range ds.Instances {
			if !want[in.InstanceID] {
				continue
			}
			rec, _, err := h.Evaluate(context.Background(), in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "gold", ModelPatch: in.Patch})
			if err != nil {
				b.Fatal(err)
			}
			if rec.Status != grading.StatusResolved || rec.Test == nil || len(rec.Test.Canaries) == 0 {
				b.Fatalf("%s: %s (%s), canaries %v", in.InstanceID, rec.Status, rec.Verdicts.Strict.Reason, rec.Test)
			}
			total += rec.Timing.TotalS
			canary += rec.Timing.CanaryS
			check += rec.Timing.RunnerCheckS
			test += rec.Timing.TestS
		}
	}
	b.ReportMetric(100*(canary+check)/total, "added-%")
	b.ReportMetric(canary/float64(b.N), "canary-s/op")
	b.ReportMetric(check/float64(b.N), "check-s/op")
	b.ReportMetric(test/float64(b.N), "test-s/op")
	b.ReportMetric(total/float64(b.N), "total-s/op")
}
