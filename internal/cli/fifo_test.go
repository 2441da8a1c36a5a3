package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipeInputsRefused: a named pipe given as eval's --dataset,
// --predictions or --config, or as score's --config, is refused with its
// path and kind named (exit 3), never opened for a read that would block
// until something writes to it.
func TestNamedPipeInputsRefused(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 1, "0")
	fifo := filepath.Join(t.TempDir(), "input.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	toml := filepath.Join(t.TempDir(), "polynfi.toml")
	if err := syscall.Mkfifo(toml, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"eval", "--dataset", fifo, "--predictions", "gold", "--out", t.TempDir()},
		{"eval", "--dataset", ds, "--predictions", fifo, "--out", t.TempDir()},
		{"eval", "--dataset", ds, "--predictions", "gold", "--config", toml, "--out", t.TempDir()},
		{"score", "--config", toml, ds},
	} {
		type result struct {
			code   int
			stderr string
		}
		done := make(chan result, 1)
		go func() {
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), args, &stdout, &stderr)
			done <- result{code, stderr.String()}
		}()
		select {
		case r := <-done:
			if r.code != ExitError || !strings.Contains(r.stderr, "not a regular file (named pipe)") {
				t.Errorf("%v: exit %d, want %d naming the named pipe:\n%s", args, r.code, ExitError, r.stderr)
			}
		case <-time.After(2 * time.Minute):
			// not a speed check: a blocked open never returns
			t.Fatalf("%v: still blocked after 2 minutes reading a named pipe", args)
		}
	}
}
