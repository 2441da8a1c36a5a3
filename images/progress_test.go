package images_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/images"
)

// TestProgressEvents: a build reports its attempts and each step as the
// engine runs it, and a failed attempt at once (before the retry starts)
// with its log and the last lines of its output (issue #25: eval printed
// nothing for 14.5 minutes while a build was failing).
func TestProgressEvents(t *testing.T) {
	cli := engine(t)
	var mu sync.Mutex
	var evs []images.Event
	r := images.New(cli, images.Options{LogDir: t.TempDir(), CacheLevel: images.CacheNone, Retries: 1,
		Progress: func(ev images.Event) { mu.Lock(); evs = append(evs, ev); mu.Unlock() }})
	t.Cleanup(func() { r.Cleanup(context.Background()) })
	task := t.TempDir()
	os.WriteFile(filepath.Join(task, "a.txt"), []byte("a\n"), 0o644)
	good := dataset.Instance{InstanceID: "polynfi__progress-1", Repo: "polynfi/progress", BuildContext: task,
		Dockerfile: "FROM " + fixtureBase + "\nCOPY a.txt /a.txt\nRUN cat /a.txt\n"}
	if _, err := r.Resolve(context.Background(), good); err != nil {
		t.Fatal(err)
	}
	var steps []string
	var done *images.Event
	for i, ev := range evs {
		if ev.Step != "" {
			steps = append(steps, ev.Step)
		}
		if ev.Done {
			done = &evs[i]
		}
	}
	if len(evs) == 0 || evs[0].Done || evs[0].Step != "" || evs[0].Kind != "build" || evs[0].Attempt != 1 || evs[0].Of != 2 {
		t.Fatalf("first event %+v, want the start of attempt 1 of 2", evs)
	}
	if len(steps) != 4 || !strings.HasPrefix(steps[0], "Step 1/4 : FROM") || !strings.HasPrefix(steps[2], "Step 3/4 : RUN cat /a.txt") {
		t.Errorf("steps %q", steps)
	}
	if done == nil || done.Err != nil || done.Steps != 4 || done.Log == "" {
		t.Errorf("end event %+v", done)
	}

	evs = nil
	bad := good
	bad.InstanceID, bad.Dockerfile = "polynfi__progress-2", "FROM "+fixtureBase+"\nRUN echo the failing step said this && false\n"
	if _, err := r.Resolve(context.Background(), bad); err == nil {
		t.Fatal("the failing build succeeded")
	}
	// start 1, steps, failed 1, start 2, steps, failed 2 (the engine adds a LABEL step)
	var order []string
	for _, ev := range evs {
		switch {
		case ev.Done && ev.Err != nil:
			order = append(order, "failed")
			if !strings.Contains(strings.Join(ev.Tail, "\n"), "the failing step said this") || ev.Log == "" {
				t.Errorf("failed attempt %d: tail %q, log %q", ev.Attempt, ev.Tail, ev.Log)
			}
		case !ev.Done && ev.Step == "":
			order = append(order, "start")
		}
	}
	if strings.Join(order, ",") != "start,failed,start,failed" {
		t.Errorf("events %v: a failed attempt is not reported before the retry", order)
	}
}
