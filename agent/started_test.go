package agent

import (
	"slices"
	"sync"
	"testing"
)

// TestStartedFinishedNames: each run is named to Started as it begins and
// to Finished as it ends (the cli's heartbeat lists the runs in flight
// from them), "#N" added when a task runs more than once; the agent sees
// its run's name begun and not yet finished while it runs.
func TestStartedFinishedNames(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cmd := f.script(t, "quiet.sh", "exit 0\n")
	var mu sync.Mutex
	var log []string
	inFlight := map[string]bool{}
	sum := f.run(t, Options{Agent: "claude", Command: cmd + " {workdir}", Name: "named", Runs: 2, Workers: 1,
		Started: func(n string) { mu.Lock(); log = append(log, "start "+n); inFlight[n] = true; mu.Unlock() },
		Finished: func(n string) {
			mu.Lock()
			defer mu.Unlock()
			if !inFlight[n] {
				t.Errorf("%s finished without starting", n)
			}
			delete(inFlight, n)
			log = append(log, "end "+n)
		}})
	if sum.Total != 2 {
		t.Fatalf("summary %+v", sum)
	}
	want := []string{"start acme__mod-1#1", "end acme__mod-1#1", "start acme__mod-1#2", "end acme__mod-1#2"}
	if !slices.Equal(log, want) {
		t.Errorf("calls %q, want %q", log, want)
	}
}
