package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// bar reports progress on stderr: a progress bar (schollz/progressbar) when
// stderr is a terminal, otherwise a plain line at most every 10 seconds and
// one at the end. Safe for concurrent use.
type bar struct {
	mu    sync.Mutex
	w     io.Writer
	label string
	tty   bool
	pb    *progressbar.ProgressBar
	total int
	done  int
	start time.Time
	last  time.Time
}

func newBar(w io.Writer, total int, label string) *bar {
	b := &bar{w: w, label: label, total: total, start: time.Now(), last: time.Now()}
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
	if b.tty {
		if b.pb == nil {
			b.pb = progressbar.NewOptions(b.total, progressbar.OptionSetWriter(b.w), progressbar.OptionSetDescription(b.label),
				progressbar.OptionShowCount(), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
		}
		_ = b.pb.Set(done)
		return
	}
	if time.Since(b.last) >= 10*time.Second {
		b.last = time.Now()
		fmt.Fprintf(b.w, "%s: %d/%d (%.0fs)\n", b.label, done, b.total, time.Since(b.start).Seconds())
	}
}

func (b *bar) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pb != nil {
		_ = b.pb.Finish()
	}
}
