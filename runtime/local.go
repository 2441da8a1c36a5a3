package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// IsolationNone and IsolationBwrap name the sandboxes Local can use.
const (
	IsolationNone  = "none"
	IsolationBwrap = "bwrap"
)

// DefaultMaxOutput is the default limit on each captured stream, in bytes.
const DefaultMaxOutput = 64 << 20

// LocalOptions configure NewLocal.
type LocalOptions struct {
	// NoIsolation turns bubblewrap off even when it is available.
	NoIsolation bool
	// Bwrap is the bubblewrap binary; "" looks "bwrap" up on PATH.
	Bwrap string
	// MaxOutput limits each captured stream, in bytes (0: DefaultMaxOutput).
	MaxOutput int
	// WaitDelay is how long Run waits for the output pipes after the
	// process is killed or exits (0: 5 s). See exec.Cmd.WaitDelay.
	WaitDelay time.Duration
}

// Local runs commands as child processes of this one, each in its own
// process group. When bubblewrap works on the machine, commands run inside
// it with no network, a read-only view of /, and only the command's Dir,
// /tmp and Command.Writable writable; in its own PID namespace, so that
// killing bwrap takes every descendant with it. Otherwise commands run
// unisolated and every Result carries a note saying so. Local is safe for
// concurrent use.
type Local struct {
	bwrap     string // "" when not isolating
	note      string // why there is no isolation
	maxOutput int
	waitDelay time.Duration
}

// NewLocal returns a Local runner. It probes bubblewrap once (a trivial
// command in fresh namespaces) so that a bwrap that cannot create
// namespaces on this machine is detected here, not in every run.
func NewLocal(ctx context.Context, opts LocalOptions) *Local {
	l := &Local{maxOutput: opts.MaxOutput, waitDelay: opts.WaitDelay}
	if l.maxOutput <= 0 {
		l.maxOutput = DefaultMaxOutput
	}
	if l.waitDelay <= 0 {
		l.waitDelay = 5 * time.Second
	}
	if opts.NoIsolation {
		l.note = "no isolation: disabled by option"
		return l
	}
	bw := opts.Bwrap
	if bw == "" {
		bw = "bwrap"
	}
	path, err := exec.LookPath(bw)
	if err != nil {
		l.note = "no isolation: bwrap not found"
		return l
	}
	dir, err := os.MkdirTemp("", "polynfi-bwrap-probe-")
	if err != nil {
		l.note = fmt.Sprintf("no isolation: bwrap probe: %v", err)
		return l
	}
	defer os.RemoveAll(dir)
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	args := append(bwrapArgs(path, dir, nil), "--", "/bin/sh", "-c", "echo ok > probe")
	out, err := exec.CommandContext(pctx, args[0], args[1:]...).CombinedOutput()
	if err != nil {
		l.note = fmt.Sprintf("no isolation: bwrap cannot create namespaces here (%v: %s)", err, bytes.TrimSpace(out))
		return l
	}
	if b, err := os.ReadFile(filepath.Join(dir, "probe")); err != nil || string(b) != "ok\n" {
		l.note = "no isolation: bwrap probe could not write its working directory"
		return l
	}
	l.bwrap = path
	return l
}

// Isolation names the sandbox Run uses: IsolationBwrap or IsolationNone.
func (l *Local) Isolation() string {
	if l.bwrap != "" {
		return IsolationBwrap
	}
	return IsolationNone
}

// Note says why commands run unisolated ("" when isolated).
func (l *Local) Note() string { return l.note }

// bwrapArgs is the bubblewrap prefix for a command in dir.
func bwrapArgs(bwrap, dir string, writable []string) []string {
	args := []string{bwrap,
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--bind", os.TempDir(), os.TempDir(),
	}
	for _, w := range append([]string{dir}, writable...) {
		if w != "" {
			args = append(args, "--bind", w, w)
		}
	}
	return append(args,
		"--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
		"--die-with-parent",
		"--chdir", dir)
}

// Run implements Runner.
func (l *Local) Run(ctx context.Context, c Command) (Result, error) {
	res := Result{ExitCode: -1, Isolation: l.Isolation()}
	if l.note != "" {
		res.Notes = append(res.Notes, l.note)
	}
	var argv []string
	switch {
	case c.Script != "" && len(c.Args) == 0:
		argv = []string{"bash", "-c", c.Script}
	case c.Script == "" && len(c.Args) > 0:
		argv = c.Args
	default:
		return res, errors.New("run: want exactly one of Args and Script")
	}
	dir := c.Dir
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return res, fmt.Errorf("run: %w", err)
		}
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return res, fmt.Errorf("run: %w", err)
	}
	if l.bwrap != "" {
		bin, err := exec.LookPath(argv[0])
		if err != nil {
			return res, fmt.Errorf("run %s: %w", argv[0], err)
		}
		argv = append(append(bwrapArgs(l.bwrap, dir, c.Writable), "--", bin), argv[1:]...)
	}

	runCtx := ctx
	cancel := func() {}
	if c.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, c.Timeout)
	}
	defer cancel()

	cmd := exec.CommandContext(runCtx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = mergeEnv(os.Environ(), c.Env, PinnedEnv)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	cmd.WaitDelay = l.waitDelay
	stdout := &capBuffer{max: l.maxOutput}
	stderr := &capBuffer{max: l.maxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return res, fmt.Errorf("run %s: %w", argv[0], err)
	}
	waitErr := cmd.Wait()
	res.Duration = time.Since(start)
	// Descendants that outlived the leader (daemons, background jobs) go too.
	_ = killGroup(cmd.Process.Pid)

	res.Stdout, res.Stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
	for _, b := range []*capBuffer{stdout, stderr} {
		if b.dropped > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("output truncated: %d bytes dropped", b.dropped))
		}
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Exited() {
		res.ExitCode = ws.ExitStatus()
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("run %s: %w", argv[0], ctx.Err())
	}
	if runCtx.Err() != nil {
		res.TimedOut = true
		res.ExitCode = -1
		res.Notes = append(res.Notes, fmt.Sprintf("killed at timeout %s", c.Timeout))
		return res, nil
	}
	var ee *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &ee) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return res, fmt.Errorf("run %s: %w", argv[0], waitErr)
	}
	if errors.Is(waitErr, exec.ErrWaitDelay) {
		res.Notes = append(res.Notes, "output pipes held open after exit by a descendant; killed")
	}
	return res, nil
}

// killGroup sends SIGKILL to the process group led by pid. A group that is
// already gone is not an error.
func killGroup(pid int) error {
	err := syscall.Kill(-pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// capBuffer keeps the first max bytes written and counts the rest.
type capBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	max     int
	dropped int64
}

func (b *capBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.max - b.buf.Len()
	if room >= len(p) {
		b.buf.Write(p)
		return len(p), nil
	}
	if room > 0 {
		b.buf.Write(p[:room])
	}
	b.dropped += int64(len(p) - max(room, 0))
	return len(p), nil
}
