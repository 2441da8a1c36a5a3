package heartbeat

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is the tracker's clock, moved by the test.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestRunEmitsOnTicksWhileUnitsRun(t *testing.T) {
	clk := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	tr := New("evaluating", 3, clk.now)
	ticks := make(chan time.Time)
	lines := make(chan string)
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan struct{})
	go func() { defer close(ended); Run(ctx, tr, ticks, func(l string) { lines <- l }) }()

	// Nothing running: a tick writes nothing. The next tick, sent after a
	// unit started, is the one that writes.
	ticks <- clk.now()
	tr.Start("acme__echo-0")
	clk.add(5 * time.Second)
	tr.Phase("acme__echo-0", "image build")
	clk.add(25 * time.Second)
	tr.Start("acme__echo-1")
	clk.add(2 * time.Second)
	ticks <- clk.now()
	got := <-lines
	want := "evaluating: 0/3 done, 32s elapsed; running acme__echo-0 (image build, 32s), acme__echo-1 (2s)"
	if got != want {
		t.Errorf("line\n got %q\nwant %q", got, want)
	}

	tr.Phase("acme__echo-0", "tests")
	tr.Finish("acme__echo-1")
	tr.Progress(1, -1)
	clk.add(30 * time.Second)
	ticks <- clk.now()
	got = <-lines
	want = "evaluating: 1/3 done, 1m2s elapsed; running acme__echo-0 (tests, 1m2s)"
	if got != want {
		t.Errorf("line\n got %q\nwant %q", got, want)
	}
	cancel()
	<-ended
}

func TestLineCapsTheNamedUnits(t *testing.T) {
	clk := &fakeClock{t: time.Unix(0, 0)}
	tr := New("validating", 0, clk.now)
	for _, id := range []string{"a", "b", "c", "d", "e", "f"} {
		tr.Start(id)
		clk.add(time.Second)
	}
	tr.Progress(2, 10)
	got := tr.Line()
	if !strings.HasPrefix(got, "validating: 2/10 done, 6s elapsed; running a (6s), b (5s), c (4s), d (3s), and 2 more") {
		t.Errorf("line %q", got)
	}
}

// Every on a short real ticker: the test waits for the first line (an
// event), not for a time.
func TestEveryWritesAndStops(t *testing.T) {
	tr := New("running agent", 1, nil)
	tr.Start("x-1")
	got := make(chan string, 1)
	stop := Every(tr, time.Millisecond, func(l string) {
		select {
		case got <- l:
		default:
		}
	})
	line := <-got
	stop()
	stop() // a second stop is harmless
	if !strings.HasPrefix(line, "running agent: 0/1 done, ") || !strings.Contains(line, "; running x-1 (") {
		t.Errorf("line %q", line)
	}
}
