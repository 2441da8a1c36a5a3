package harness

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// benchScript is a non-source file (a build script) added to a gold patch
// so that the clean room re-runs it.
const benchScript = "diff --git a/scripts/release.sh b/scripts/release.sh\nnew file mode 100644\n--- /dev/null\n+++ b/scripts/release.sh\n@@ -0,0 +1 @@\n+echo release\n"

// BenchmarkCanaryCost evaluates the gold patch of one sample instance per
// language (pytest, Maven + JUnit 5, Mocha, Jest) with the local runtime
// three ways, one after the other in each iteration: the baseline without
// the canaries and the runner-internals check (Harness.noGuards), the
// default (both), and --clean-room with a build script added to the
// patch (scripts/release.sh: non-source, so the tests run a second time).
// Metrics: added-% is the default's wall time over the baseline's, minus
// 100 (what canaries and check add to a sample run: written, run and read,
// in percent); write-% the share of the default's wall time spent writing
// the canaries and running the check (Timing.CanaryS + RunnerCheckS);
// cleanroom-x the clean-room evaluation's wall time over the default's;
// and the seconds of each per iteration. Wall times are of Evaluate
// calls, so machine load moves all three alike.
// Run: go test -run '^$' -bench CanaryCost -benchtime 3x ./harness/
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
	var base, guarded, clean, written float64
	eval := func(in dataset.Instance, patch string, noGuards, cleanRoom bool) (*runrecord.Record, float64) {
		h.noGuards, h.CleanRoom = noGuards, cleanRoom
		defer func() { h.noGuards, h.CleanRoom = false, false }()
		t := time.Now()
		rec, _, err := h.Evaluate(context.Background(), in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "gold", ModelPatch: patch})
		if err != nil {
			b.Fatal(err)
		}
		if rec.Status != grading.StatusResolved {
			b.Fatalf("%s: %s (%s)", in.InstanceID, rec.Status, rec.Verdicts.Strict.Reason)
		}
		return rec, time.Since(t).Seconds()
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, in := range ds.Instances {
			if !want[in.InstanceID] {
				continue
			}
			rec, s := eval(in, in.Patch, true, false)
			if rec.Test == nil || len(rec.Test.Canaries) != 0 {
				b.Fatalf("%s: baseline with canaries %v", in.InstanceID, rec.Test)
			}
			base += s
			rec, s = eval(in, in.Patch, false, false)
			if len(rec.Test.Canaries) == 0 {
				b.Fatalf("%s: no canaries", in.InstanceID)
			}
			guarded += s
			written += rec.Timing.CanaryS + rec.Timing.RunnerCheckS
			rec, s = eval(in, strings.TrimRight(in.Patch, "\n")+"\n"+benchScript, false, true)
			if rec.CleanRoom == nil || !rec.CleanRoom.Ran || rec.CleanRoom.Tampered {
				b.Fatalf("%s: clean room %+v", in.InstanceID, rec.CleanRoom)
			}
			clean += s
		}
	}
	b.ReportMetric(100*(guarded-base)/base, "added-%")
	b.ReportMetric(100*written/guarded, "write-%")
	b.ReportMetric(clean/guarded, "cleanroom-x")
	b.ReportMetric(base/float64(b.N), "base-s/op")
	b.ReportMetric(guarded/float64(b.N), "guarded-s/op")
	b.ReportMetric(clean/float64(b.N), "cleanroom-s/op")
}
