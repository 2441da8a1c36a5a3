// Package heartbeat keeps track of the units of a long run that are in
// flight (their ids, phase and start) and of how far the run is, and writes
// one status line on every tick of a clock, so that a run whose units take
// many minutes is never silent between two finished units.
//
// A line reads
//
//	LABEL: DONE/TOTAL done, ELAPSED elapsed; running ID (PHASE, ELAPSED), ...
//
// with durations rounded to the second; at most MaxListed ids are named,
// the oldest first, then "and N more". The clock is injectable (Tracker.Now
// and the ticks given to Run), so tests drive it by events, not by time.
package heartbeat

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// MaxListed is how many running units a line names.
const MaxListed = 4

// Tracker holds a run's progress. Its methods are safe for concurrent use.
type Tracker struct {
	// Now is the clock (time.Now when nil).
	Now func() time.Time

	mu      sync.Mutex
	label   string
	start   time.Time
	done    int
	total   int
	running map[string]unit
}

type unit struct {
	phase string
	since time.Time
}

// New returns a tracker of total units labelled label, started now (by
// now, or time.Now when now is nil).
func New(label string, total int, now func() time.Time) *Tracker {
	t := &Tracker{Now: now, label: label, total: total, running: map[string]unit{}}
	t.start = t.now()
	return t
}

func (t *Tracker) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

// Start notes that unit id began (phase "" until Phase names one).
func (t *Tracker) Start(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.running[id] = unit{since: t.now()}
}

// Phase names what running unit id does now ("image build", "tests",
// "grading"); an id not running is started.
func (t *Tracker) Phase(id, phase string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	u, ok := t.running[id]
	if !ok {
		u.since = t.now()
	}
	u.phase = phase
	t.running[id] = u
}

// Finish notes that unit id ended (it is no longer named).
func (t *Tracker) Finish(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.running, id)
}

// Progress sets the units done and their total (total < 0 keeps it).
func (t *Tracker) Progress(done, total int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.done = done
	if total >= 0 {
		t.total = total
	}
}

// Running is the number of units in flight.
func (t *Tracker) Running() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.running)
}

// Line is the status line at this moment (see the package comment).
func (t *Tracker) Line() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d/%d done, %s elapsed", t.label, t.done, t.total, secs(now.Sub(t.start)))
	if len(t.running) == 0 {
		return b.String()
	}
	ids := make([]string, 0, len(t.running))
	for id := range t.running {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, c := t.running[ids[i]], t.running[ids[j]]
		if !a.since.Equal(c.since) {
			return a.since.Before(c.since)
		}
		return ids[i] < ids[j]
	})
	b.WriteString("; running ")
	for i, id := range ids {
		if i == MaxListed {
			fmt.Fprintf(&b, ", and %d more", len(ids)-MaxListed)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		u := t.running[id]
		b.WriteString(id)
		if u.phase != "" {
			fmt.Fprintf(&b, " (%s, %s)", u.phase, secs(now.Sub(u.since)))
		} else {
			fmt.Fprintf(&b, " (%s)", secs(now.Sub(u.since)))
		}
	}
	return b.String()
}

func secs(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return d.Round(time.Second).String()
}

// Run calls emit with t.Line() on every value received from ticks while
// at least one unit is running, until ctx is done or ticks is closed.
func Run(ctx context.Context, t *Tracker, ticks <-chan time.Time, emit func(line string)) {
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-ticks:
			if !ok {
				return
			}
			if t.Running() > 0 {
				emit(t.Line())
			}
		}
	}
}

// Every runs Run on a time.Ticker of period d (d > 0) in a goroutine; the
// function it returns stops it and waits until emit is no longer called.
func Every(t *Tracker, d time.Duration, emit func(line string)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	tk := time.NewTicker(d)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		Run(ctx, t, tk.C, emit)
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			tk.Stop()
			<-ended
		})
	}
}
