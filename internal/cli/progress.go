package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/polynfi/polynfi/internal/heartbeat"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// heartbeatEvery is the period of the heartbeat line on a non-terminal
// (tests shorten it); on a terminal the bar's description is renewed every
// heartbeatTTY.
var heartbeatEvery, heartbeatTTY = 30 * time.Second, time.Second

// bar reports progress on stderr: a progress bar (schollz/progressbar) when
// stderr is a terminal, otherwise a plain line at most every 10 seconds and
// one at the end. Once a unit is started (begin), a heartbeat
// (internal/heartbeat) names the units running, done/total and elapsed:
// a line every heartbeatEvery on a non-terminal, the bar's description on
// a terminal. Safe for concurrent use.
type bar struct {
	hb     *heartbeat.Tracker
	hbStop func()
	mu     sync.Mutex
	w      io.Writer
	label  string
	tty    bool
	pb     *progressbar.ProgressBar
	total  int
	done   int
	start  time.Time
	last   time.Time
}

func newBar(w io.Writer, total int, label string) *bar {
	b := &bar{w: w, label: label, total: total, start: time.Now(), last: time.Now(), hb: heartbeat.New(label, total, nil)}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		b.tty = true
	}
	return b
}

func (b *bar) setTotal(total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if total == b.total {
		return
	}
	b.total = total
	b.hb.Progress(b.done, total)
	if b.pb != nil {
		b.pb.ChangeMax(total)
	}
}

func (b *bar) add(k int) {
	b.mu.Lock()
	n := b.done + k
	b.mu.Unlock()
	b.set(n)
}

func (b *bar) set(done int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done = done
	b.hb.Progress(done, -1)
	if b.tty {
		b.ensurePB()
		_ = b.pb.Set(done)
		return
	}
	if time.Since(b.last) >= 10*time.Second {
		b.last = time.Now()
		fmt.Fprintf(b.w, "%s: %d/%d (%.0fs)\n", b.label, done, b.total, time.Since(b.start).Seconds())
	}
}

// ensurePB makes the terminal's bar; b.mu is held.
func (b *bar) ensurePB() {
	if b.pb == nil {
		b.pb = progressbar.NewOptions(b.total, progressbar.OptionSetWriter(b.w), progressbar.OptionSetDescription(b.label),
			progressbar.OptionShowCount(), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
	}
}

// begin notes that unit id started; the first call starts the heartbeat.
func (b *bar) begin(id string) {
	b.hb.Start(id)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.hbStop != nil {
		return
	}
	if b.tty {
		b.hbStop = heartbeat.Every(b.hb, heartbeatTTY, func(line string) {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.ensurePB() // before the first unit ends
			b.pb.Describe(line)
		})
		return
	}
	b.hbStop = heartbeat.Every(b.hb, heartbeatEvery, func(line string) {
		b.mu.Lock()
		defer b.mu.Unlock()
		fmt.Fprintln(b.w, line)
	})
}

// end notes that unit id ended.
func (b *bar) end(id string) { b.hb.Finish(id) }

func (b *bar) finish() {
	b.mu.Lock()
	stop := b.hbStop
	b.mu.Unlock()
	if stop != nil {
		stop() // outside b.mu: the last line may be waiting for it
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pb != nil {
		_ = b.pb.Finish()
	}
}
