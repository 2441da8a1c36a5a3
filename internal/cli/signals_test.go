package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestWatchInterrupts: the first signal cancels the context, the second
// exits 130 at once.
func TestWatchInterrupts(t *testing.T) {
	t.Parallel()
	sigs := make(chan os.Signal, 2)
	exited := make(chan int, 1)
	var stderr syncBuffer
	ctx, stop := watchInterrupts(context.Background(), sigs, &stderr, func(code int) { exited <- code })
	defer stop()
	sigs <- syscall.SIGINT
	<-ctx.Done()
	select {
	case code := <-exited:
		t.Fatalf("exit %d after the first interrupt", code)
	default:
	}
	sigs <- syscall.SIGINT
	if code := <-exited; code != ExitInterrupted {
		t.Errorf("exit %d, want %d", code, ExitInterrupted)
	}
	if s := stderr.String(); !strings.Contains(s, "interrupt again to quit at once") || !strings.Contains(s, "quitting without cleaning up") {
		t.Errorf("stderr:\n%s", s)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestScoreSecondInterruptQuits: `polynfi score -` blocked reading a
// standard input that never ends ignores the first Ctrl-C (it cannot see
// it) and quits at the second, exit 130.
func TestScoreSecondInterruptQuits(t *testing.T) {
	t.Parallel()
	bin := buildPolynfi(t)
	for attempt := 1; ; attempt++ {
		cmd := exec.Command(bin, "score", "-", "--stdin-filename", "x.py")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		var stderr syncBuffer
		cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waited := make(chan struct{})
		go func() { cmd.Wait(); close(waited) }()
		// A signal that arrives before polynfi listens for it kills the
		// process outright: then start again, waiting longer first (not a
		// synchronisation: a try that came too early is retried).
		time.Sleep(time.Duration(250<<attempt) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGINT)
		deadline := time.After(60 * time.Second)
		acknowledged := false
		for !acknowledged {
			select {
			case <-waited:
				if attempt == 6 {
					t.Fatalf("the first interrupt ended polynfi (exit %d) without saying so, 6 times:\n%s", cmd.ProcessState.ExitCode(), stderr.String())
				}
			case <-deadline:
				cmd.Process.Kill()
				t.Fatalf("no acknowledgement of the first interrupt:\n%s", stderr.String())
			case <-time.After(20 * time.Millisecond):
				acknowledged = strings.Contains(stderr.String(), "interrupt again")
				continue
			}
			break
		}
		if !acknowledged {
			continue
		}
		cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-waited:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("the second interrupt did not quit polynfi:\n%s", stderr.String())
		}
		if code := cmd.ProcessState.ExitCode(); code != ExitInterrupted {
			t.Errorf("exit %d, want %d\n%s", code, ExitInterrupted, stderr.String())
		}
		return
	}
}

// TestScoreSkipsNonRegularFiles: a named pipe given to score is not
// opened for reading (it would block for ever): reported unreadable with
// its path and kind, exit 3; one found in a directory is skipped with a
// warning naming it; the regular files are scored.
func TestScoreSkipsNonRegularFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sub := filepath.Join(dir, "pkg")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	named, inside := filepath.Join(dir, "pipe.py"), filepath.Join(sub, "inner.py")
	for _, p := range []string{named, inside} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(sub, "ok.py"), []byte("\"\"\"Doc.\"\"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := mainCode("score", named, sub)
		done <- result{code, stdout, stderr}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("score blocked on a named pipe")
	}
	if r.code != ExitError || !strings.Contains(r.stdout, named+": not a regular file (named pipe), not read") {
		t.Errorf("exit %d; stdout:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stderr, "polynfi: skipping "+inside+": not a regular file (named pipe)") || !strings.Contains(r.stdout, "ok.py:") {
		t.Errorf("stderr:\n%s\nstdout:\n%s", r.stderr, r.stdout)
	}
}
