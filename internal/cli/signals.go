package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// InterruptContext returns a context cancelled by the first SIGINT or
// SIGTERM: commands stop starting work, finish or abandon what is in
// flight, clean up and exit 130. A second signal quits at once (exit 130)
// without waiting for that clean-up: a command blocked where it cannot see
// the cancellation (a read that never returns) must not hold the terminal.
// stop releases the signals.
func InterruptContext(stderr io.Writer) (ctx context.Context, stop func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	ctx, stopWatch := watchInterrupts(context.Background(), ch, stderr, os.Exit)
	return ctx, func() { signal.Stop(ch); stopWatch() }
}

// watchInterrupts cancels ctx at the first value of sigs and calls
// exit(ExitInterrupted) at the second.
func watchInterrupts(parent context.Context, sigs <-chan os.Signal, stderr io.Writer, exit func(int)) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		fmt.Fprintln(stderr, "polynfi: interrupting (cleaning up; interrupt again to quit at once)")
		cancel()
		select {
		case <-sigs:
		case <-done:
			return
		}
		fmt.Fprintln(stderr, "polynfi: interrupted again: quitting without cleaning up")
		exit(ExitInterrupted)
	}()
	return ctx, func() { close(done); cancel() }
}
