package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestScoreDeepInputs: `polynfi score` (the built binary: a Go stack
// overflow cannot be caught in process) on files nested past CPython's
// limits reports each as a syntax error with CPython's message, and the
// exponential and deep-but-valid ones as scored, instead of dying (exit 2
// and a stack trace) or running for ever.
func TestScoreDeepInputs(t *testing.T) {
	t.Parallel()
	bin := buildPolynfi(t)
	r := strings.Repeat
	cases := []struct {
		name, src string
		valid     bool
		msg       string
	}{
		{"parens.py", r("(", 200000) + r(")", 200000) + "\n", false, "too many nested parentheses"},
		{"not.py", r("not ", 1000000) + "x\n", false, "maximum recursion depth exceeded during ast construction"},
		{"neg.py", "x = " + r("-", 1000000) + "1\n", false, "maximum recursion depth exceeded during ast construction"},
		{"lambda.py", r("lambda: ", 500000) + "x\n", false, "maximum recursion depth exceeded during ast construction"},
		{"indent.py", blocksOf(150), false, "too many levels of indentation"},
		{"calls.py", r("f(", 199) + "x" + r(")", 199) + "\n", true, ""},
		{"mixed.py", r("f(a.f(-f(1 + ", 66) + "x" + r(")))", 66) + "\n", true, ""},
		{"and.py", "x" + r(" and x", 150000) + "\n", true, ""},
		{"and-deeper.py", "x" + r(" and x", 1000000) + "\n", false, "too deep for polynfi to score"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := filepath.Join(dir, c.name)
			if err := os.WriteFile(f, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			// an exponential parse never ends: a generous bound turns it
			// into a failure (a linear parse of these takes well under a
			// second)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "score", "--format", "json", f)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != 0 || strings.Contains(stderr.String(), "goroutine ") {
				t.Fatalf("exit %d (%v)\n%.2000s", code, err, stderr.String())
			}
			var out struct {
				Files []struct {
					Valid bool
					Error *struct{ Message string }
				}
			}
			if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || len(out.Files) != 1 {
				t.Fatalf("output %v: %.500s", err, stdout.String())
			}
			fs := out.Files[0]
			if fs.Valid != c.valid {
				t.Fatalf("valid %v, want %v (error %+v)", fs.Valid, c.valid, fs.Error)
			}
			if !c.valid && (fs.Error == nil || !strings.Contains(fs.Error.Message, c.msg)) {
				t.Fatalf("error %+v, want %q", fs.Error, c.msg)
			}
		})
	}
}

// blocksOf returns n nested if blocks.
func blocksOf(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "if x:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "pass\n")
	return b.String()
}

// TestScoreFirstInterruptStopsBigFile: one SIGTERM stops `polynfi score`
// while it is still scoring one large file (exit 130), in well under the
// time the file takes: the file in flight is abandoned, not waited for.
// Measured as a ratio to the uninterrupted run on the same machine.
func TestScoreFirstInterruptStopsBigFile(t *testing.T) {
	bin := buildPolynfi(t)
	var b strings.Builder
	for b.Len() < 8<<20 {
		b.WriteString("def f(a, b=1):\n    if a and b or not a:\n        return [x * 2 for x in range(a) if x % 3]\n    return {'k': a.b.c(d, *e, **g)}\n\n")
	}
	f := filepath.Join(t.TempDir(), "big.py")
	if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	full := exec.Command(bin, "score", f)
	if out, err := full.CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted: %v\n%.1000s", err, out)
	}
	whole := time.Since(start)
	wholeCPU := full.ProcessState.UserTime() + full.ProcessState.SystemTime()

	cmd := exec.Command(bin, "score", f)
	var stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { cmd.Wait(); close(waited) }()
	// Signal once the process has done a third of the work, measured as
	// CPU time from /proc (not a fixed sleep: on a loaded machine the wall
	// time says little about how far it got).
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for cpu := time.Duration(0); cpu < wholeCPU/3; cpu = procCPU(cmd.Process.Pid) {
		select {
		case <-waited:
			t.Fatalf("finished before a third of its CPU time (%v) was seen\n%s", wholeCPU/3, stderr.String())
		case <-tick.C:
		}
	}
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-waited:
	case <-time.After(2 * whole):
		cmd.Process.Kill()
		t.Fatalf("still running %v after SIGTERM (the whole run takes %v)", 2*whole, whole)
	}
	stop := time.Since(sent)
	if code := cmd.ProcessState.ExitCode(); code != ExitInterrupted {
		t.Fatalf("exit %d, want %d\n%s", code, ExitInterrupted, stderr.String())
	}
	if stop > whole/4 {
		t.Errorf("stopped %v after SIGTERM; the whole run takes %v (want under a quarter)", stop, whole)
	}
	t.Logf("whole run %v, stopped %v after SIGTERM", whole, stop)
}

// procCPU returns the user plus system CPU time pid has used, from
// /proc/PID/stat (fields 14 and 15, in clock ticks of 1/100 s, the
// USER_HZ Linux reports to user space on every architecture Go supports
// here); 0 when it cannot be read.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state): utime is field 14, stime field 15.
	if len(f) < 13 {
		return 0
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(u+st) * 10 * time.Millisecond
}
