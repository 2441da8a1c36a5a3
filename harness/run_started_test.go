package harness

import (
	"context"
	"sync"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
)

// TestRunStartedBeforeProgress: RunOptions.Started names each job a worker
// begins, once, before its Progress event (the heartbeat lists the jobs in
// flight from them); a job found recorded by an earlier run is not started.
func TestRunStartedBeforeProgress(t *testing.T) {
	t.Parallel()
	reposDir, insts := echoFixture(t, 3)
	h, store := newHarness(t, reposDir, grading.ModePolyBench)
	var jobs []Job
	for _, in := range insts {
		jobs = append(jobs, Job{Instance: in, Prediction: dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "m", ModelPatch: in.Patch}})
	}
	var mu sync.Mutex
	started := map[string]int{}
	opts := RunOptions{Workers: 2,
		Started: func(j Job) { mu.Lock(); started[j.Instance.InstanceID]++; mu.Unlock() },
		Progress: func(ev Event) {
			mu.Lock()
			defer mu.Unlock()
			if n := started[ev.Job.Instance.InstanceID]; n != 1 && !ev.Skipped {
				t.Errorf("%s finished after %d Started calls, want 1", ev.Job.Instance.InstanceID, n)
			}
		}}
	if _, err := h.Run(context.Background(), jobs, store, opts); err != nil {
		t.Fatal(err)
	}
	if len(started) != 3 {
		t.Errorf("started %v, want the 3 jobs", started)
	}
	clear(started)
	res, err := h.Run(context.Background(), jobs, store, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped != 3 || len(started) != 0 {
		t.Errorf("second run: skipped %d, started %v; want 3 skipped, none started", res.Skipped, started)
	}
}
