package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	return bwrapArgsOpts(bwrap, dir, writable, nil, nil, false)
}

// bwrapArgsOpts is bwrapArgs with hidden paths (an empty tmpfs over a
// directory, /dev/null over a file, mounted before visible is bound back
// read-only and dir and writable read-write) and network kept when network
// is true.
func bwrapArgsOpts(bwrap, dir string, writable, hide, visible []string, network bool) []string {
	args := []string{bwrap,
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
	}
	tmp := os.TempDir()
	privateTmp := false
	for _, h := range hide {
		if filepath.Clean(h) == filepath.Clean(tmp) {
			privateTmp = true
		}
	}
	if privateTmp {
		args = append(args, "--tmpfs", tmp)
	} else {
		args = append(args, "--bind", tmp, tmp)
	}
	for _, h := range hide {
		if filepath.Clean(h) == filepath.Clean(tmp) {
			continue
		}
		fi, err := os.Stat(h)
		switch {
		case err != nil:
			// Nothing there to hide.
		case fi.IsDir():
			args = append(args, "--tmpfs", h)
		default:
			args = append(args, "--ro-bind", "/dev/null", h)
		}
	}
	for _, v := range visible {
		if _, err := os.Stat(v); err == nil {
			args = append(args, "--ro-bind", v, v)
		}
	}
	for _, w := range append([]string{dir}, writable...) {
		if w != "" {
			args = append(args, "--bind", w, w)
		}
	}
	if !network {
		args = append(args, "--unshare-net")
	}
	return append(args,
		"--unshare-pid", "--unshare-ipc", "--unshare-uts",
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
		argv = append(append(bwrapArgsOpts(l.bwrap, dir, c.Writable, c.Hide, c.Visible, c.Network), "--", bin), argv[1:]...)
	} else if len(c.Hide) > 0 {
		res.Notes = append(res.Notes, "no isolation: paths to hide stay visible")
	}

	runCtx := ctx
	cancel := func() {}
	if c.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, c.Timeout)
	}
	defer cancel()

	cmd := exec.CommandContext(runCtx, argv[0], argv[1:]...)
	cmd.Dir = dir
	base := os.Environ()
	if c.CleanEnv {
		base = nil
	}
	cmd.Env = mergeEnv(base, c.Env, PinnedEnv)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	cmd.WaitDelay = l.waitDelay
	stdout := &capBuffer{max: l.maxOutput}
	stderr := &capBuffer{max: l.maxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Stdin = c.Stdin
	if c.Stdout != nil {
		cmd.Stdout = io.MultiWriter(stdout, ignoreErrors{c.Stdout})
	}
	if c.Stderr != nil {
		cmd.Stderr = io.MultiWriter(stderr, ignoreErrors{c.Stderr})
	}

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

// ignoreErrors passes writes on and never fails, so that a failing tee
// cannot stop the capture of a stream.
type ignoreErrors struct{ w io.Writer }

func (w ignoreErrors) Write(p []byte) (int, error) {
	_, _ = w.w.Write(p)
	return len(p), nil
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

// Name implements Runtime: "local".
func (l *Local) Name() string { return "local" }

// Start implements Runtime: the sandbox is the existing host directory
// spec.Workdir, and every Exec is a Run there (under bubblewrap when
// available) with spec.Env added to the command's environment (the whole
// environment besides PinnedEnv when spec.CleanEnv), spec.Hide hidden and
// network kept when spec.Network. Image and Labels are ignored; Limits are
// not enforced yet and Info says so. Remove does not delete Workdir: its
// owner does.
func (l *Local) Start(ctx context.Context, spec Spec) (Sandbox, error) {
	if spec.Workdir == "" {
		return nil, errors.New("local sandbox: no workdir")
	}
	dir, err := filepath.Abs(spec.Workdir)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("local sandbox: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("local sandbox: %s is not a directory", dir)
	}
	info := Info{Runtime: l.Name(), ID: dir, Isolation: l.Isolation()}
	if l.note != "" {
		info.Notes = append(info.Notes, l.note)
	}
	if spec.Limits != (Limits{}) {
		info.Notes = append(info.Notes, "limits not enforced by the local runtime")
	}
	return &localSandbox{l: l, dir: dir, env: spec.Env, spec: spec, info: info}, nil
}

type localSandbox struct {
	l    *Local
	dir  string
	env  []string
	spec Spec
	info Info
}

func (s *localSandbox) Info() Info      { return s.info }
func (s *localSandbox) Workdir() string { return s.dir }

// resolve maps a sandbox path to the host.
func (s *localSandbox) resolve(p string) string {
	if p == "" {
		return s.dir
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.dir, filepath.FromSlash(p))
}

func (s *localSandbox) Exec(ctx context.Context, c Command) (Result, error) {
	c.Dir = s.resolve(c.Dir)
	c.Env = mergeEnv(s.env, c.Env)
	c.Network = c.Network || s.spec.Network
	c.CleanEnv = c.CleanEnv || s.spec.CleanEnv
	c.Hide = append(append([]string(nil), s.spec.Hide...), c.Hide...)
	c.Writable = append(append([]string(nil), s.spec.Writable...), c.Writable...)
	c.Visible = append(append([]string(nil), s.spec.Visible...), c.Visible...)
	return s.l.Run(ctx, c)
}

func (s *localSandbox) CopyIn(ctx context.Context, dir string, files []File) error {
	root := s.resolve(dir)
	for _, f := range files {
		if err := checkRel(f.Path); err != nil {
			return err
		}
	}
	for _, f := range files {
		full := filepath.Join(root, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		mode := f.Mode.Perm()
		if mode == 0 {
			mode = 0o644
		}
		if err := os.WriteFile(full, f.Data, mode); err != nil {
			return err
		}
	}
	return nil
}

func (s *localSandbox) CopyOut(ctx context.Context, p string, max int64) ([]File, error) {
	if max <= 0 {
		max = DefaultMaxOutput
	}
	root := s.resolve(p)
	fi, err := os.Lstat(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	base := root
	if !fi.IsDir() {
		base = filepath.Dir(root)
	}
	var out []File
	var total int64
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil // directories are walked; links and devices never followed
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if total+info.Size() > max {
			return fmt.Errorf("copy out %s: more than %d bytes", p, max)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		total += int64(len(b))
		rel, _ := filepath.Rel(base, path)
		out = append(out, File{Path: filepath.ToSlash(rel), Mode: info.Mode().Perm(), Data: b})
		return nil
	})
	return out, err
}

func (s *localSandbox) Remove(ctx context.Context) error { return nil }

// checkRel rejects a path that is not relative and clean.
func checkRel(p string) error {
	if p == "" || filepath.IsAbs(p) || p != filepath.ToSlash(filepath.Clean(p)) || p == ".." || strings.HasPrefix(p, "../") {
		return fmt.Errorf("sandbox path %q: want a clean relative path", p)
	}
	return nil
}
