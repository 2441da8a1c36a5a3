package cli

import (
	"bytes"
	"context"
	"os"
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

// TestEvalLeavesNoTempFiles: an eval with the bubblewrap sandbox leaves
// nothing of polynfi's in the temporary directory (no
// polynfi-sandbox-etc-* directory, no lock file).
func TestEvalLeavesNoTempFiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ds := evalFixture(t, 1, "0")
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"eval", "--dataset", ds, "--predictions", "gold", "--out", out}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr.String())
	}
	es, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if strings.HasPrefix(e.Name(), "polynfi-") {
			t.Errorf("eval left %s in the temporary directory", e.Name())
		}
	}
}
