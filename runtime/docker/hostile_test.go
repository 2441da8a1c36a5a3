package docker

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polynfi/polynfi/runtime"
)

// A fork bomb that re-forks whatever is killed, in a container with a
// process limit, ends at the command's timeout, and the container takes
// commands again right after (issue 24 item 6: kill -9 -1 from an exec
// could neither start nor stop it, and the harness's next commands failed
// for minutes).
func TestDockerForkBombEndsAtTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a fork bomb in a container")
	}
	d := newTestDocker(t)
	sb := startTest(t, d, runtime.Spec{Name: "forkbomb", Limits: runtime.Limits{Pids: 64, CPUs: 1, MemoryBytes: 512 << 20}})
	mustExec(t, sb, runtime.Command{Script: "echo before > /tmp/kept"})
	// Every process loops on fork without a pause; a
	// killed one's slot is taken by the others at once.
	bomb := `exec perl -e 'while (1) { fork }'`
	r, err := sb.Exec(context.Background(), runtime.Command{Script: bomb, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("the bomb's exec: %v", err)
	}
	if !r.TimedOut {
		t.Fatalf("the bomb ended by itself (exit %d): it tests nothing", r.ExitCode)
	}
	// The next command starts, sees no survivor, and the files are kept.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	next, err := sb.Exec(ctx, runtime.Command{Script: `n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; echo "procs=$n"; cat /tmp/kept`, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("the next command after the timeout: %v", err)
	}
	out := string(next.Stdout)
	if next.ExitCode != 0 || next.TimedOut || !strings.Contains(out, "before") {
		t.Fatalf("the next command: exit %d, timed out %v, stdout %q, stderr %q", next.ExitCode, next.TimedOut, out, next.Stderr)
	}
	if n := procsOf(out); n < 0 || n > 4 {
		t.Errorf("processes left after the timeout: %s", out)
	}
}

// procsOf reads "procs=N" from s (-1 when absent).
func procsOf(s string) int {
	i := strings.Index(s, "procs=")
	if i < 0 {
		return -1
	}
	n := 0
	for _, c := range s[i+len("procs="):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// A container whose PID 1 exits by itself while a command runs (here a
// keep-alive with the trap the harness had before, reached by kill -TERM
// 1 from inside) is the command's outcome, a *runtime.StoppedError; a container
// killed through the engine during a command is an InfraError
// (sandbox_gone). Issue 24 item 7.
func TestDockerStopAttribution(t *testing.T) {
	if testing.Short() {
		t.Skip("starts containers")
	}
	d := newTestDocker(t)
	t.Run("PID 1 immune to signals from inside", func(t *testing.T) {
		sb := startTest(t, d, runtime.Spec{Name: "pid1"})
		r, err := sb.Exec(context.Background(), runtime.Command{Script: "for s in TERM INT HUP QUIT USR1 KILL; do kill -s $s 1; done; sleep 1; echo alive", Timeout: 30 * time.Second})
		if err != nil || !strings.Contains(string(r.Stdout), "alive") {
			t.Fatalf("after signals to PID 1: %v, stdout %q", err, r.Stdout)
		}
		mustExec(t, sb, runtime.Command{Script: "true"})
	})
	t.Run("stopped from inside", func(t *testing.T) {
		old := keepAlive
		keepAlive = []string{"/bin/sh", "-c", "trap 'exit 0' TERM; while :; do sleep 3600 & wait $!; done"}
		sb := startTest(t, d, runtime.Spec{Name: "stop-inside"})
		keepAlive = old
		_, err := sb.Exec(context.Background(), runtime.Command{Script: "kill -TERM 1; sleep 30", Timeout: time.Minute})
		var stopped *runtime.StoppedError
		if !errors.As(err, &stopped) || runtime.InfraReason(err) != "" {
			t.Fatalf("got %v (infra reason %q), want a *runtime.StoppedError", err, runtime.InfraReason(err))
		}
	})
	t.Run("killed through the engine", func(t *testing.T) {
		sb := startTest(t, d, runtime.Spec{Name: "stop-outside"})
		id := sb.Info().ID
		started := &signalOnWrite{ch: make(chan struct{})}
		go func() {
			<-started.ch // the command runs: it printed its first line
			exec.Command("docker", "kill", id).Run()
		}()
		_, err := sb.Exec(context.Background(), runtime.Command{Script: "echo started; sleep 30", Stdout: started, Timeout: time.Minute})
		if runtime.InfraReason(err) != runtime.ReasonGone {
			t.Fatalf("got %v, want an InfraError %s", err, runtime.ReasonGone)
		}
	})
	t.Run("stopped through the engine", func(t *testing.T) {
		// docker stop sends SIGTERM, which a PID 1 without a handler
		// ignores, then SIGKILL after the grace time.
		sb := startTest(t, d, runtime.Spec{Name: "stop-outside2"})
		id := sb.Info().ID
		started := &signalOnWrite{ch: make(chan struct{})}
		go func() {
			<-started.ch // the command runs: it printed its first line
			exec.Command("docker", "stop", "-t", "1", id).Run()
		}()
		_, err := sb.Exec(context.Background(), runtime.Command{Script: "echo started; sleep 30", Stdout: started, Timeout: time.Minute})
		if runtime.InfraReason(err) != runtime.ReasonGone {
			t.Fatalf("got %v, want an InfraError %s", err, runtime.ReasonGone)
		}
	})
}

// signalOnWrite closes ch at its first write: a command's live standard
// output (Command.Stdout) says it is running, so the test acts then
// rather than after a fixed sleep.
type signalOnWrite struct {
	once sync.Once
	ch   chan struct{}
}

func (w *signalOnWrite) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.ch) })
	return len(p), nil
}
