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
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/polynfi/polynfi/internal/safepath"
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
	// NoIsolation runs commands without bubblewrap, even when it is
	// available. Without it, a Local on a machine where bubblewrap does
	// not work refuses to run anything (Run returns an InfraError with
	// ReasonNoSandbox).
	NoIsolation bool
	// Bwrap is the bubblewrap binary; "" looks "bwrap" up on PATH.
	Bwrap string
	// MaxOutput limits each captured stream, in bytes (0: DefaultMaxOutput).
	MaxOutput int
	// WaitDelay is how long Run waits for the output pipes after the
	// process is killed or exits (0: 5 s). See exec.Cmd.WaitDelay.
	WaitDelay time.Duration
	// Toolchains are host directories bound read-only at the same path
	// inside the sandbox, besides those found from PATH (toolchainDirs).
	Toolchains []string
	// Limits bound every command; zero fields take the Default* values.
	// Pids and MemoryBytes are enforced through cgroup v1 when this
	// process may create groups, DiskBytes as a file size limit and a
	// watch on the work tree's size; CPUs is not enforced (a note says so).
	Limits Limits
}

// Local runs commands as child processes of this one, each in its own
// process group. Under bubblewrap (the default; see bwrapArgs) a command
// sees only /usr, /etc without its secrets, the toolchains read-only, a
// private /tmp and home, and its work tree (the work tree's .git
// read-only); it runs as uid SandboxUID with no capability, no network, in
// new namespaces and session, so that killing bwrap takes every descendant
// with it. A command with AgentView sees the agent view instead (an
// allow-list with a private home; agentview.go), as a user that is never
// the host's root. The environment is an allow-list (commandEnv). Every command,
// isolated or not, runs in its own pids and memory cgroups when they can be
// made (and everything left in them is killed at the end), with file size,
// open file and core limits. Without bubblewrap and without NoIsolation,
// Run refuses. Local is safe for concurrent use.
type Local struct {
	bwrap         string // "" when not isolating
	disableUserns bool   // bwrap knows --disable-userns
	note          string // why there is no isolation
	refuse        bool   // no sandbox and none waived: Run refuses
	maxOutput     int
	waitDelay     time.Duration
	home          string
	etcDir        string
	toolchains    []string
	mavenRepo     string // host Maven repository shown at home/.m2/repository (MavenRepository)
	rustupHome    string // rustup's toolchains, shown read-only and named by RUSTUP_HOME (RustupHome)
	limits        Limits
	tmpBytes      int64
	cg            *cgroups
	limitNotes    []string
	view          hostView
	closeOnce     sync.Once
	agentMu       sync.Mutex
	agentOK       bool   // the agent view was probed and works
	agentUID      int    // the agent's uid inside its sandbox
	agentEtc      string // directory of the agent view's passwd and group
	setpriv       string // setpriv, when polynfi runs as root
}

// Close removes what NewLocal made outside the commands: the sandbox's
// passwd and group directory in the temporary directory and the parent
// cgroups. Call it when no command runs any more: Run and Start must not
// be called after Close. It is idempotent and returns nil; a group that
// still holds a process stays (RemoveStaleLocal of a later process
// removes it once empty).
func (l *Local) Close() error {
	l.closeOnce.Do(func() {
		if l.etcDir != "" {
			_ = os.RemoveAll(l.etcDir)
		}
		if l.cg != nil {
			l.cg.remove()
		}
	})
	return nil
}

// NewLocal returns a Local runner. It probes bubblewrap once (a trivial
// command in the sandbox it will use) so that a bwrap that cannot create
// namespaces on this machine is detected here, not in every run.
func NewLocal(ctx context.Context, opts LocalOptions) *Local {
	l := &Local{maxOutput: opts.MaxOutput, waitDelay: opts.WaitDelay, limits: opts.Limits, tmpBytes: DefaultTmpBytes}
	if l.maxOutput <= 0 {
		l.maxOutput = DefaultMaxOutput
	}
	if l.waitDelay <= 0 {
		l.waitDelay = 5 * time.Second
	}
	if l.limits.Pids <= 0 {
		l.limits.Pids = DefaultPids
	}
	if l.limits.MemoryBytes <= 0 {
		l.limits.MemoryBytes = DefaultMemoryBytes
	}
	if l.limits.DiskBytes <= 0 {
		l.limits.DiskBytes = DefaultDiskBytes
	}
	if l.limits.CPUs > 0 {
		l.limitNotes = append(l.limitNotes, "cpu limit not enforced by the local runtime")
	}
	RemoveStaleLocal() // a killed process's leftovers
	if cg, err := newCgroups(); err == nil {
		l.cg = cg
	} else {
		l.limitNotes = append(l.limitNotes, fmt.Sprintf("process and memory limits not enforced: %v", err))
	}
	l.home, _ = os.UserHomeDir()
	if l.home == "" {
		l.home = "/nonexistent"
	}
	if opts.NoIsolation {
		l.note = "no isolation: disabled by option (--no-isolation)"
		return l
	}
	l.refuse = true
	bw := opts.Bwrap
	if bw == "" {
		bw = "bwrap"
	}
	path, err := exec.LookPath(bw)
	if err != nil {
		l.note = "no isolation: bwrap not found"
		return l
	}
	l.toolchains = toolchainDirs(l.home)
	l.mavenRepo = MavenRepository(l.home, passwdHome())
	if l.rustupHome = RustupHome(l.toolchains); l.rustupHome != "" {
		l.toolchains = append(l.toolchains, l.rustupHome)
	}
	for _, t := range opts.Toolchains {
		if a, err := filepath.Abs(t); err == nil {
			l.toolchains = append(l.toolchains, a)
		}
	}
	if l.etcDir, err = sandboxFiles(l.home); err != nil {
		l.note = fmt.Sprintf("no isolation: %v", err)
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
	l.bwrap = path
	for _, disable := range []bool{true, false} {
		l.disableUserns = disable
		args := append(l.bwrapArgs(dir, Command{}, ""), "--", "/bin/sh", "-c", "echo ok > probe; id -u")
		out, err := exec.CommandContext(pctx, args[0], args[1:]...).CombinedOutput()
		if err == nil && strings.TrimSpace(string(out)) == strconv.Itoa(SandboxUID) {
			if b, err := os.ReadFile(filepath.Join(dir, "probe")); err == nil && string(b) == "ok\n" {
				l.refuse = false
				return l
			}
		}
		l.note = fmt.Sprintf("no isolation: bwrap cannot create its sandbox here (%v: %s)", err, bytes.TrimSpace(out))
	}
	l.bwrap = ""
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

// Refuses reports whether Run refuses every command (no sandbox available
// and isolation not waived).
func (l *Local) Refuses() bool { return l.refuse }

// CheckSandbox refuses a run whose tests would execute without a sandbox
// that the user did not waive, and otherwise writes to log why tests run
// unisolated, when they do.
func CheckSandbox(log io.Writer, runner *Local) error {
	if runner.Refuses() {
		return fmt.Errorf("%s: refusing to run tests outside a sandbox; install bubblewrap or pass --no-isolation", runner.Note())
	}
	if note := runner.Note(); note != "" {
		fmt.Fprintf(log, "polynfi: %s\n", note)
	}
	return nil
}

// Run implements Runner. A command whose sandbox could not be set up
// (bubblewrap or the cgroup wrapper failed before the command started:
// the start mark of startedScript never came) is tried twice more after a
// short pause; the result's notes keep the failures. Nothing of the
// command's input is read and nothing reaches c.Stdout or c.Stderr before
// the mark, so a command with Stdin or live copies is retried too.
func (l *Local) Run(ctx context.Context, c Command) (Result, error) {
	var setup []string
	for attempt := 0; ; attempt++ {
		res, started, err := l.runOnce(ctx, c)
		if started || err != nil || res.TimedOut || attempt == 2 || ctx.Err() != nil {
			res.Notes = append(setup, res.Notes...)
			return res, err
		}
		setup = append(setup, fmt.Sprintf("%s: sandbox set-up failed before the command started (exit %d), retried: %s",
			SetupFailureNote, res.ExitCode, bytes.TrimSpace(res.Stderr)))
		select {
		case <-ctx.Done():
		case <-time.After(time.Duration(100*(attempt+1)) * time.Millisecond):
		}
	}
}

// SetupFailureNote starts the note Run adds to a result for each attempt
// whose sandbox could not be set up and that it retried.
const SetupFailureNote = "setup-retry"

// gate passes writes to w once opened; before, it holds them (a sandbox
// set-up failure's message never reaches a caller's live copy).
type gate struct {
	mu   sync.Mutex
	w    io.Writer
	open bool
	held bytes.Buffer
}

func (g *gate) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open {
		_, _ = g.w.Write(p)
	} else {
		g.held.Write(p)
	}
	return len(p), nil
}

func (g *gate) openNow() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.open {
		g.open = true
		_, _ = g.w.Write(g.held.Bytes())
		g.held.Reset()
	}
}

// runOnce runs c once; started reports whether the command itself started
// (the start mark came: its sandbox was set up).
func (l *Local) runOnce(ctx context.Context, c Command) (Result, bool, error) {
	res := Result{ExitCode: -1, Isolation: l.Isolation()}
	if l.note != "" {
		res.Notes = append(res.Notes, l.note)
	}
	res.Notes = append(res.Notes, l.limitNotes...)
	if l.refuse {
		return res, false, Infra(ReasonNoSandbox, fmt.Errorf("refusing to run %s without a sandbox (%s); pass --no-isolation to run it unisolated", c.describe(), strings.TrimPrefix(l.note, "no isolation: ")))
	}
	argv, err := c.Argv()
	if err != nil {
		return res, false, fmt.Errorf("run: %w", err)
	}
	dir := c.Dir
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return res, false, fmt.Errorf("run: %w", err)
		}
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return res, false, fmt.Errorf("run: %w", err)
	}
	if l.bwrap != "" {
		bin, err := exec.LookPath(argv[0])
		if err != nil {
			return res, false, fmt.Errorf("run %s: %w", argv[0], err)
		}
		if bin, err = filepath.Abs(bin); err != nil {
			return res, false, fmt.Errorf("run %s: %w", argv[0], err)
		}
		if c.AgentView {
			if err := l.agentReady(ctx); err != nil {
				return res, false, Infra(ReasonNoSandbox, fmt.Errorf("refusing to run the agent %s: %w", c.describe(), err))
			}
			if err := l.own(append([]string{dir, c.Home}, c.Own...)); err != nil {
				return res, false, fmt.Errorf("agent sandbox: %w", err)
			}
			if err := CheckAgentAccess(c.Visible, c.Writable); err != nil {
				return res, false, fmt.Errorf("agent sandbox: %w", err)
			}
			argv = append(append(append(append(l.agentArgs(dir, c, bin), "--", "/bin/sh", "-c", startedScript, "polynfi-started"), l.dropPrivileges()...), bin), argv[1:]...)
		} else {
			argv = append(append(l.bwrapArgs(dir, c, bin), "--", "/bin/sh", "-c", startedScript, "polynfi-started", bin), argv[1:]...)
		}
	} else if len(c.Hide) > 0 {
		res.Notes = append(res.Notes, "no isolation: paths to hide stay visible")
	}
	var g *group
	if l.cg != nil {
		if g, err = l.cg.create(l.limits); err != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("process and memory limits not enforced: %v", err))
			g = nil
		} else {
			defer g.remove()
		}
	}
	pidsProcs, memProcs := "", ""
	if g != nil {
		pidsProcs, memProcs = filepath.Join(g.pids, "cgroup.procs"), filepath.Join(g.mem, "cgroup.procs")
	}
	mark := "mark"
	if l.bwrap != "" {
		mark = ""
	}
	argv = append([]string{"/bin/bash", "-c", joinScript, "polynfi-sandbox", pidsProcs, memProcs,
		strconv.FormatInt(max(l.limits.DiskBytes>>10, 1), 10), "4096", mark}, argv...)

	runCtx := ctx
	cancel := func() {}
	if c.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, c.Timeout)
	}
	defer cancel()

	cmd := exec.CommandContext(runCtx, argv[0], argv[1:]...)
	cmd.Dir = dir
	env := c.Env
	if l.rustupHome != "" {
		env = append([]string{"RUSTUP_HOME=" + l.rustupHome}, c.Env...)
	}
	cmd.Env = commandEnv(l.home, env, c.CleanEnv)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	cmd.WaitDelay = l.waitDelay
	stdout := &CapBuffer{Max: l.maxOutput}
	stderr := &CapBuffer{Max: l.maxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// The start mark (fd 3): written once the command is about to start.
	// Until then its input is not read and its live copies are held.
	markR, markW, err := os.Pipe()
	if err != nil {
		return res, false, fmt.Errorf("run: %w", err)
	}
	defer markR.Close()
	cmd.ExtraFiles = []*os.File{markW}
	var gates []*gate
	if c.Stdout != nil {
		g := &gate{w: IgnoreErrors{W: c.Stdout}}
		gates = append(gates, g)
		cmd.Stdout = io.MultiWriter(stdout, g)
	}
	if c.Stderr != nil {
		g := &gate{w: IgnoreErrors{W: c.Stderr}}
		gates = append(gates, g)
		cmd.Stderr = io.MultiWriter(stderr, g)
	}
	var stdinR, stdinW *os.File
	if c.Stdin != nil {
		if stdinR, stdinW, err = os.Pipe(); err != nil {
			markW.Close()
			return res, false, fmt.Errorf("run: %w", err)
		}
		cmd.Stdin = stdinR
	}

	start := time.Now()
	err = cmd.Start()
	markW.Close()
	if stdinR != nil {
		stdinR.Close()
	}
	if err != nil {
		if stdinW != nil {
			stdinW.Close()
		}
		return res, false, fmt.Errorf("run %s: %w", argv[0], err)
	}
	// marked is closed once the mark came or can no longer come (every
	// holder of fd 3 has exited or closed it).
	var started atomic.Bool
	marked := make(chan struct{})
	go func() {
		defer close(marked)
		var b [1]byte
		if n, _ := markR.Read(b[:]); n == 1 {
			started.Store(true)
			for _, g := range gates {
				g.openNow()
			}
			if stdinW != nil {
				go func() {
					_, _ = io.Copy(stdinW, c.Stdin)
					stdinW.Close()
				}()
			}
			return
		}
		if stdinW != nil {
			stdinW.Close()
		}
	}()
	killAll := func() {
		_ = killGroup(cmd.Process.Pid)
		if g != nil {
			_ = g.killAll()
		}
	}
	stopWatch := diskWatch(runCtx, dir, l.limits.DiskBytes, 2*time.Second, killAll)
	waitErr := cmd.Wait()
	res.Duration = time.Since(start)
	diskHit := stopWatch()
	// Descendants that outlived the leader (daemons, background jobs,
	// processes that left the group or session) go too.
	_ = killGroup(cmd.Process.Pid)
	if g != nil {
		if err := g.killAll(); err != nil {
			res.Notes = append(res.Notes, err.Error())
		}
	}
	// Every holder of fd 3 is gone now (the wrapper, bubblewrap and its
	// sandbox's init; the command closed it before it started), so the
	// mark or the end of the pipe is there to read.
	select {
	case <-marked:
	case <-time.After(l.waitDelay):
		res.Notes = append(res.Notes, "start mark neither written nor closed after exit")
	}
	if g != nil {
		if g.oomKilled() {
			res.Notes = append(res.Notes, fmt.Sprintf("a process was killed at the memory limit (%d bytes)", l.limits.MemoryBytes))
		}
		if g.pidsHit() {
			res.Notes = append(res.Notes, fmt.Sprintf("a fork was refused at the process limit (%d)", l.limits.Pids))
		}
	}
	if diskHit {
		res.Notes = append(res.Notes, fmt.Sprintf("killed: the work tree grew past the disk limit (%d bytes)", l.limits.DiskBytes))
	}

	res.Stdout, res.Stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
	for _, b := range []*CapBuffer{stdout, stderr} {
		if b.dropped > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("output truncated: %d bytes dropped", b.dropped))
		}
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Exited() {
		res.ExitCode = ws.ExitStatus()
	}
	ok := started.Load()
	if ctx.Err() != nil {
		return res, ok, fmt.Errorf("run %s: %w", argv[0], ctx.Err())
	}
	if runCtx.Err() != nil {
		res.TimedOut = true
		res.ExitCode = -1
		res.Notes = append(res.Notes, fmt.Sprintf("killed at timeout %s", c.Timeout))
		return res, ok, nil
	}
	var ee *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &ee) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return res, ok, fmt.Errorf("run %s: %w", argv[0], waitErr)
	}
	if errors.Is(waitErr, exec.ErrWaitDelay) {
		res.Notes = append(res.Notes, "output pipes held open after exit by a descendant; killed")
	}
	return res, ok, nil
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

// IgnoreErrors passes writes on and never fails, so that a failing tee
// cannot stop the capture of a stream.
type IgnoreErrors struct{ W io.Writer }

func (w IgnoreErrors) Write(p []byte) (int, error) {
	_, _ = w.W.Write(p)
	return len(p), nil
}

// CapBuffer keeps the first Max bytes written and counts the rest.
type CapBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	Max     int
	dropped int64
}

// Bytes returns what was kept.
func (b *CapBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Bytes()
}

// String returns what was kept as a string.
func (b *CapBuffer) String() string { return string(b.Bytes()) }

// Dropped counts the bytes written past Max.
func (b *CapBuffer) Dropped() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dropped
}

func (b *CapBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.Max - b.buf.Len()
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
	info.Notes = append(info.Notes, l.limitNotes...)
	if spec.Limits != (Limits{}) && spec.Limits != l.limits {
		info.Notes = append(info.Notes, "per-sandbox limits not applied by the local runtime: the runner's limits hold")
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
	c.Env = MergeEnv(s.env, c.Env)
	c.Network = c.Network || s.spec.Network
	c.CleanEnv = c.CleanEnv || s.spec.CleanEnv
	c.Hide = append(append([]string(nil), s.spec.Hide...), c.Hide...)
	c.Writable = append(append([]string(nil), s.spec.Writable...), c.Writable...)
	c.Visible = append(append([]string(nil), s.spec.Visible...), c.Visible...)
	c.HostView = c.HostView || s.spec.HostView
	c.AgentView = c.AgentView || s.spec.AgentView
	if c.Home == "" {
		c.Home = s.spec.Home
	}
	c.Own = append(append([]string(nil), s.spec.Own...), c.Own...)
	return s.l.Run(ctx, c)
}

func (s *localSandbox) CopyIn(ctx context.Context, dir string, files []File) error {
	root := s.resolve(dir)
	for _, f := range files {
		if err := safepath.Under(root, f.Path, false); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := safepath.WriteFile(root, f.Path, f.Data, f.Mode.Perm()); err != nil {
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
