package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/events"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/client"
	"github.com/docker/docker/errdefs"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runtime"
)

// IsolationContainer names the Docker backend's isolation in records.
const IsolationContainer = "container"

// keepAlive is the entrypoint of every container: PID 1 waits forever
// (reaping the orphans the kernel gives it), so that commands run as execs
// beside it. It has no signal handler: the kernel drops every signal a
// process of the container sends its PID 1 without one (SIGKILL
// included), so the code under test cannot end the container (kill -TERM
// 1 used to reach a trap that exited). It may still exit by itself (its
// shell cannot fork its sleep when the container's process limit is
// reached): Exec reports that as a runtime.StoppedError.
var keepAlive = []string{"/bin/sh", "-c", "trap '' TERM INT HUP; while :; do sleep 3600 & wait $!; done"}

// droppedCaps are the capabilities of Docker's default set a test run never
// needs (raw sockets, device nodes, chroot, file capabilities, audit,
// binding low ports, changing the bounding set); none is ever added.
var droppedCaps = []string{"NET_RAW", "MKNOD", "SYS_CHROOT", "SETFCAP", "AUDIT_WRITE", "NET_BIND_SERVICE", "SETPCAP"}

// DockerOptions configure NewDocker.
type DockerOptions struct {
	// MaxOutput limits each captured stream of Exec, in bytes (0:
	// DefaultMaxOutput).
	MaxOutput int
	// Client is the Docker API client; nil makes one from the environment
	// (DOCKER_HOST, DOCKER_API_VERSION, DOCKER_CERT_PATH, DOCKER_TLS_VERIFY)
	// with API version negotiation.
	Client *client.Client
}

// Docker runs sandboxes as containers through the Docker Engine API (any
// Docker-compatible socket: DOCKER_HOST may name Podman's). One container
// per sandbox, started from its image with a keep-alive entrypoint; every
// command is an exec in it. Containers carry runtime.LabelManaged, Spec.Labels and
// the limits of Spec.Limits; they have no network unless Spec.Network, no
// new privileges, and Docker's default capabilities less droppedCaps.
// Docker is safe for concurrent use.
type Docker struct {
	cli       *client.Client
	maxOutput int
	server    string // engine version and API version, for notes
	ncpu      int    // the engine's CPUs (its /info NCPU); 0 when unknown
}

// NewDocker connects to the Docker engine and checks that it answers. An
// engine that does not answer is an *InfraError with ReasonDaemon.
func NewDocker(ctx context.Context, opts DockerOptions) (*Docker, error) {
	cli := opts.Client
	if cli == nil {
		var err error
		cli, err = client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
		if err != nil {
			return nil, runtime.Infra(runtime.ReasonDaemon, err)
		}
	}
	d := &Docker{cli: cli, maxOutput: opts.MaxOutput}
	if d.maxOutput <= 0 {
		d.maxOutput = runtime.DefaultMaxOutput
	}
	pctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := cli.Ping(pctx); err != nil {
		return nil, runtime.Infra(runtime.ReasonDaemon, fmt.Errorf("docker engine at %s: %w", cli.DaemonHost(), err))
	}
	cli.NegotiateAPIVersion(pctx)
	d.server = "API " + cli.ClientVersion()
	if info, err := cli.Info(pctx); err == nil {
		d.ncpu = info.NCPU
	}
	return d, nil
}

// Client returns the API client (for image management).
func (d *Docker) Client() *client.Client { return d.cli }

// Close releases the client's connections.
func (d *Docker) Close() error { return d.cli.Close() }

// Name implements Runtime: "docker".
func (d *Docker) Name() string { return "docker" }

// classify wraps an API error as an InfraError: ReasonDaemon when the
// engine cannot be reached, notFound when the object is missing, ReasonAPI
// otherwise. Context errors are returned unwrapped.
func classify(err error, notFound string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case client.IsErrConnectionFailed(err):
		return runtime.Infra(runtime.ReasonDaemon, err)
	case errdefs.IsNotFound(err) && notFound != "":
		return runtime.Infra(notFound, err)
	}
	return runtime.Infra(runtime.ReasonAPI, err)
}

// containerName makes a container name from a sandbox name: "polynfi-",
// the name with characters outside [a-zA-Z0-9_.-] replaced by "-" (at most
// 80 of them), "-" and 8 random hex digits.
func containerName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if b.Len() >= 80 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	return "polynfi-" + b.String() + "-" + hex.EncodeToString(rnd[:])
}

// Start implements Runtime: it creates and starts a container from
// spec.Image (which must be present locally: resolving, pulling and
// building images is package images' work). A missing image is an
// InfraError with ReasonImage.
func (d *Docker) Start(ctx context.Context, spec runtime.Spec) (runtime.Sandbox, error) {
	if spec.Image == "" {
		return nil, runtime.Infra(runtime.ReasonImage, errors.New("docker sandbox: no image"))
	}
	labels := map[string]string{runtime.LabelManaged: "true"}
	for k, v := range spec.Labels {
		labels[k] = v
	}
	netMode := container.NetworkMode("none")
	if spec.Network {
		netMode = "default"
	}
	res := container.Resources{}
	var notes []string
	if cpus := spec.Limits.CPUs; cpus > 0 {
		// The engine refuses a quota above its CPUs ("range of CPUs is
		// from 0.01 to N"): a per-language default of 4 cores on a
		// 2-core machine gets the 2 there are.
		if d.ncpu > 0 && cpus > float64(d.ncpu) {
			notes = append(notes, fmt.Sprintf("CPU limit %g cores lowered to the engine's %d", cpus, d.ncpu))
			cpus = float64(d.ncpu)
		}
		res.NanoCPUs = int64(cpus * 1e9)
	}
	if spec.Limits.MemoryBytes > 0 {
		res.Memory = spec.Limits.MemoryBytes
		res.MemorySwap = spec.Limits.MemoryBytes // no swap beyond the limit
	}
	if spec.Limits.Pids > 0 {
		p := spec.Limits.Pids
		res.PidsLimit = &p
	}
	if spec.Limits.DiskBytes > 0 {
		notes = append(notes, "disk limit not enforced by the docker runtime")
	}
	cfg := &container.Config{
		Image:      spec.Image,
		Entrypoint: keepAlive,
		Cmd:        []string{},
		Env:        runtime.MergeEnv(nil, spec.Env, runtime.PinnedEnv),
		WorkingDir: spec.Workdir,
		Labels:     labels,
	}
	host := &container.HostConfig{
		NetworkMode: netMode,
		CapDrop:     droppedCaps,
		SecurityOpt: []string{"no-new-privileges"},
		Resources:   res,
		LogConfig:   container.LogConfig{Type: "none"},
	}
	// Create and start are not cancelled with ctx: a create the engine
	// carried out but whose answer was lost would leave a container no
	// one knows; a cancelled ctx is honoured once its id is known.
	octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
	defer cancel()
	created, err := d.cli.ContainerCreate(octx, cfg, host, nil, nil, containerName(spec.Name))
	if err != nil {
		return nil, classify(err, runtime.ReasonImage)
	}
	s := &dockerSandbox{d: d, id: created.ID, workdir: spec.Workdir, memLimit: spec.Limits.MemoryBytes > 0, memBytes: spec.Limits.MemoryBytes,
		info: runtime.Info{Runtime: d.Name(), ID: created.ID[:12], Image: spec.Image, Isolation: IsolationContainer, Notes: notes}}
	for _, w := range created.Warnings {
		s.info.Notes = append(s.info.Notes, "docker: "+w)
	}
	if err := d.cli.ContainerStart(octx, created.ID, container.StartOptions{}); err != nil {
		_ = s.Remove(octx)
		return nil, classify(err, runtime.ReasonGone)
	}
	if ctx.Err() != nil {
		_ = s.Remove(octx)
		return nil, ctx.Err()
	}
	if s.workdir == "" {
		ins, err := d.cli.ContainerInspect(ctx, created.ID)
		if err != nil {
			_ = s.Remove(context.WithoutCancel(ctx))
			return nil, classify(err, runtime.ReasonGone)
		}
		s.workdir = ins.Config.WorkingDir
		if s.workdir == "" {
			s.workdir = "/"
		}
	}
	return s, nil
}

// RemoveStale force-removes every container polynfi created with the given
// run key (runtime.LabelRun), such as those a killed run left. It returns how many
// it removed.
func (d *Docker) RemoveStale(ctx context.Context, runKey string) (int, error) {
	f := filters.NewArgs(filters.Arg("label", runtime.LabelManaged+"=true"), filters.Arg("label", runtime.LabelRun+"="+runKey))
	list, err := d.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		return 0, classify(err, "")
	}
	n := 0
	for _, c := range list {
		err := d.cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true})
		if err != nil && !errdefs.IsNotFound(err) {
			return n, classify(err, "")
		}
		n++
	}
	return n, nil
}

// StaleContainers lists the names (without the leading "/", else the
// short id) of the containers polynfi made (runtime.LabelManaged) for a run key
// (runtime.LabelRun), running or not: what RemoveStale would remove.
func (d *Docker) StaleContainers(ctx context.Context, runKey string) ([]string, error) {
	f := filters.NewArgs(filters.Arg("label", runtime.LabelManaged+"=true"), filters.Arg("label", runtime.LabelRun+"="+runKey))
	list, err := d.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		return nil, classify(err, "")
	}
	var names []string
	for _, c := range list {
		name := c.ID
		if len(name) > 12 {
			name = name[:12]
		}
		if len(c.Names) > 0 {
			name = strings.TrimPrefix(c.Names[0], "/")
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

type dockerSandbox struct {
	d       *Docker
	id      string
	workdir string
	info    runtime.Info

	memLimit bool  // a memory limit is set: OOM kills are counted
	memBytes int64 // the limit
	ooms     int   // OOM kills seen so far

	mu      sync.Mutex
	removed bool
}

func (s *dockerSandbox) Info() runtime.Info { return s.info }
func (s *dockerSandbox) Workdir() string    { return s.workdir }

// path maps a sandbox path to an absolute path in the container.
func (s *dockerSandbox) path(p string) string {
	if p == "" {
		return s.workdir
	}
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(s.workdir, p)
}

// state returns the error for a container that is no longer usable:
// killed for memory (ReasonOOM), gone or stopped from outside (ReasonGone:
// InfraErrors), stopped by itself (*runtime.StoppedError); nil when it runs and
// has not met the memory limit.
func (s *dockerSandbox) state(ctx context.Context) error {
	ins, err := s.d.cli.ContainerInspect(ctx, s.id)
	if err != nil {
		return classify(err, runtime.ReasonGone)
	}
	if ins.State == nil {
		return runtime.Infra(runtime.ReasonGone, errors.New("container has no state"))
	}
	if ins.State.OOMKilled {
		return runtime.Infra(runtime.ReasonOOM, fmt.Errorf("container %s met its memory limit", s.info.ID))
	}
	if !ins.State.Running {
		cause := s.outsideCause(ctx, ins.State)
		if cause == "" {
			return &runtime.StoppedError{ID: s.info.ID, ExitCode: ins.State.ExitCode}
		}
		return runtime.Infra(runtime.ReasonGone, fmt.Errorf("container %s is %s (exit %d): %s", s.info.ID, ins.State.Status, ins.State.ExitCode, cause))
	}
	return nil
}

// outsideCause says why a stopped container stopped when something other
// than the code in it may have done it, "" when nothing did: the engine
// marks it dead or restarting or reports an error, its PID 1 ended by a
// signal (which nothing inside can send it: keepAlive), or the engine
// reports a kill, stop, OOM or destroy of it since it started. An engine
// whose events cannot be read counts as an outside cause.
func (s *dockerSandbox) outsideCause(ctx context.Context, st *container.State) string {
	switch {
	case st.Dead, st.Restarting, st.Error != "":
		return fmt.Sprintf("the engine reports it dead, restarting or in error (%q)", st.Error)
	case st.ExitCode >= 128 || st.ExitCode < 0:
		return fmt.Sprintf("its PID 1 was ended by a signal (status %d) from outside", st.ExitCode)
	}
	since := "0"
	if t, err := time.Parse(time.RFC3339Nano, st.StartedAt); err == nil {
		since = fmt.Sprintf("%d.%09d", t.Unix(), t.Nanosecond())
	}
	ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	msgs, errs := s.d.cli.Events(ectx, events.ListOptions{Since: since, Until: fmt.Sprintf("%d", time.Now().Add(time.Second).Unix()),
		Filters: filters.NewArgs(filters.Arg("type", string(events.ContainerEventType)), filters.Arg("container", s.id))})
	for {
		select {
		case m := <-msgs:
			switch m.Action {
			case events.ActionKill, events.ActionStop, events.ActionOOM, events.ActionDestroy:
				return fmt.Sprintf("the engine reports a %s of the container", m.Action)
			}
		case err := <-errs:
			if err == nil || errors.Is(err, io.EOF) {
				return ""
			}
			return fmt.Sprintf("its events cannot be read: %v", err)
		case <-ectx.Done():
			return "its events cannot be read: " + ectx.Err().Error()
		}
	}
}

// Exec implements Sandbox: the command runs as an exec in the container,
// with the container's environment, then cmd.Env, then PinnedEnv, as
// cmd.User (the image's user when ""). After a
// command that did not exit 0 the container is inspected: one that met
// its memory limit gives an InfraError with ReasonOOM, one that vanished,
// or stopped with an outside cause (outsideCause), ReasonGone (a
// container killed under a command ends it with a non-zero status). Command.Stdin is attached as the command's
// standard input and Command.Stdout/Stderr receive live copies of the
// streams (a coding agent's events, read while it runs). Command.Writable
// is ignored (the whole container is the sandbox). At the timeout the
// container is killed and started again (restart). A container that
// stopped by itself during the command (outsideCause) gives a
// *runtime.StoppedError, not an InfraError.
func (s *dockerSandbox) Exec(ctx context.Context, c runtime.Command) (runtime.Result, error) {
	res := runtime.Result{ExitCode: -1, Isolation: IsolationContainer}
	argv, err := c.Argv()
	if err != nil {
		return res, fmt.Errorf("exec: %w", err)
	}
	ec, err := s.d.cli.ContainerExecCreate(ctx, s.id, container.ExecOptions{
		Cmd: argv, Env: runtime.MergeEnv(nil, c.Env, runtime.PinnedEnv), WorkingDir: s.path(c.Dir), User: c.User,
		AttachStdout: true, AttachStderr: true, AttachStdin: c.Stdin != nil,
	})
	if err != nil {
		if errdefs.IsConflict(err) || errdefs.IsNotFound(err) {
			if serr := s.state(context.WithoutCancel(ctx)); serr != nil {
				return res, serr
			}
		}
		return res, classify(err, runtime.ReasonGone)
	}
	start := time.Now()
	hj, err := s.d.cli.ContainerExecAttach(ctx, ec.ID, container.ExecAttachOptions{})
	if err != nil {
		return res, classify(err, runtime.ReasonGone)
	}
	defer hj.Close()
	stdout := &runtime.CapBuffer{Max: s.d.maxOutput}
	stderr := &runtime.CapBuffer{Max: s.d.maxOutput}
	var outW, errW io.Writer = stdout, stderr
	if c.Stdout != nil {
		outW = io.MultiWriter(stdout, runtime.IgnoreErrors{W: c.Stdout})
	}
	if c.Stderr != nil {
		errW = io.MultiWriter(stderr, runtime.IgnoreErrors{W: c.Stderr})
	}
	if c.Stdin != nil {
		go func() {
			_, _ = io.Copy(hj.Conn, c.Stdin)
			_ = hj.CloseWrite()
		}()
	}
	copied := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(outW, errW, hj.Reader)
		copied <- err
	}()
	var timer <-chan time.Time
	if c.Timeout > 0 {
		t := time.NewTimer(c.Timeout)
		defer t.Stop()
		timer = t.C
	}
	var copyErr error
	select {
	case copyErr = <-copied:
	case <-timer:
		res.TimedOut = true
		rerr := s.restart(context.WithoutCancel(ctx))
		hj.Close()
		<-copied
		if rerr != nil {
			return res, rerr
		}
	case <-ctx.Done():
		s.killAll(context.WithoutCancel(ctx))
		hj.Close()
		<-copied
		return res, fmt.Errorf("exec %s: %w", argv[0], ctx.Err())
	}
	res.Duration = time.Since(start)
	res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
	for _, b := range []*runtime.CapBuffer{stdout, stderr} {
		if b.Dropped() > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("output truncated: %d bytes dropped", b.Dropped()))
		}
	}
	if res.TimedOut {
		res.Notes = append(res.Notes, fmt.Sprintf("killed at timeout %s (the container was killed, every process with it, and started again)", c.Timeout))
		if serr := s.check(context.WithoutCancel(ctx), -1); serr != nil {
			return res, serr
		}
		return res, nil
	}
	ins, err := s.d.cli.ContainerExecInspect(context.WithoutCancel(ctx), ec.ID)
	if err != nil {
		return res, classify(err, runtime.ReasonGone)
	}
	if ins.Running {
		// The stream ended but the process did not: the connection broke.
		s.killAll(context.WithoutCancel(ctx))
		if serr := s.state(context.WithoutCancel(ctx)); serr != nil {
			return res, serr
		}
		return res, runtime.Infra(runtime.ReasonAPI, fmt.Errorf("exec %s: output stream ended early: %v", argv[0], copyErr))
	}
	res.ExitCode = ins.ExitCode
	if err := s.check(context.WithoutCancel(ctx), res.ExitCode); err != nil {
		return res, err
	}
	return res, nil
}

// check tells a command that failed because of its environment from one
// that failed on its own, after it exited with code: a container that
// stopped, vanished or met its memory limit (OOMKilled, or a kernel OOM
// kill counted in the container's memory cgroup since it started) gives an
// InfraError. The engine reports a container killed under a command a
// moment after the command's stream ends, so after a SIGKILL (137) or a
// failed exec (126) the state is watched for up to a second.
func (s *dockerSandbox) check(ctx context.Context, code int) error {
	if code == 0 {
		return nil
	}
	if err := s.state(ctx); err != nil {
		return err
	}
	if s.memLimit {
		if n, ok := s.oomKills(ctx); ok && n > s.ooms {
			s.ooms = n
			return runtime.Infra(runtime.ReasonOOM, fmt.Errorf("container %s: a process was killed at the memory limit (%d bytes)", s.info.ID, s.memBytes))
		}
	}
	if code == 137 || code == 126 {
		for range 10 {
			time.Sleep(100 * time.Millisecond)
			if err := s.state(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// oomKills reads the number of OOM kills in the container's memory cgroup
// (cgroup v2 memory.events or v1 memory.oom_control, "oom_kill N").
func (s *dockerSandbox) oomKills(ctx context.Context) (int, bool) {
	ec, err := s.d.cli.ContainerExecCreate(ctx, s.id, container.ExecOptions{AttachStdout: true,
		Cmd: []string{"/bin/sh", "-c", "cat /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null"}})
	if err != nil {
		return 0, false
	}
	hj, err := s.d.cli.ContainerExecAttach(ctx, ec.ID, container.ExecAttachOptions{})
	if err != nil {
		return 0, false
	}
	defer hj.Close()
	var out bytes.Buffer
	if _, err := stdcopy.StdCopy(&out, io.Discard, io.LimitReader(hj.Reader, 1<<16)); err != nil {
		return 0, false
	}
	for _, line := range strings.Split(out.String(), "\n") {
		var n int
		if _, err := fmt.Sscanf(line, "oom_kill %d", &n); err == nil {
			return n, true
		}
	}
	return 0, false
}

// restart ends every process of the container at a command's timeout, a
// fork bomb's too: the container is killed (SIGKILL to its PID 1, after
// which the kernel kills every process of its pid namespace and lets none
// fork), then started again with its file system as it was and a new
// keep-alive, so that the harness's next commands run. (kill -9 -1 from
// an exec, killAll, cannot: the exec cannot start when the process limit
// is reached, and a bomb that re-forks fills every slot it frees.) An
// engine that fails to do either is an InfraError.
func (s *dockerSandbox) restart(ctx context.Context) error {
	kctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := s.d.cli.ContainerKill(kctx, s.id, "KILL"); err != nil && !errdefs.IsConflict(err) {
		// Conflict: it was not running any more.
		return classify(err, runtime.ReasonGone)
	}
	waitC, errC := s.d.cli.ContainerWait(kctx, s.id, container.WaitConditionNotRunning)
	select {
	case <-waitC:
	case err := <-errC:
		return classify(err, runtime.ReasonGone)
	}
	if err := s.d.cli.ContainerStart(kctx, s.id, container.StartOptions{}); err != nil {
		return classify(err, runtime.ReasonGone)
	}
	s.ooms = 0 // a new memory cgroup counts from 0
	return nil
}

// killAll kills every process in the container except PID 1 (the
// keep-alive); when that cannot be done, the container itself is killed.
func (s *dockerSandbox) killAll(ctx context.Context) {
	kctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	ec, err := s.d.cli.ContainerExecCreate(kctx, s.id, container.ExecOptions{Cmd: []string{"/bin/sh", "-c", "kill -9 -1"}})
	if err == nil {
		if err = s.d.cli.ContainerExecStart(kctx, ec.ID, container.ExecStartOptions{}); err == nil {
			for kctx.Err() == nil {
				ins, err := s.d.cli.ContainerExecInspect(kctx, ec.ID)
				if err != nil || !ins.Running {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			return
		}
	}
	_ = s.d.cli.ContainerKill(kctx, s.id, "KILL")
}

// CopyIn implements Sandbox: one tar archive through the API, extracted at
// the container's root, so that missing parent directories are created.
func (s *dockerSandbox) CopyIn(ctx context.Context, dir string, files []runtime.File) error {
	root := strings.TrimPrefix(s.path(dir), "/")
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	now := time.Now()
	for _, f := range files {
		if err := safepath.Check(f.Path); err != nil {
			return err
		}
		mode := f.Mode.Perm()
		if mode == 0 {
			mode = 0o644
		}
		name := path.Join(root, f.Path)
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: int64(mode), Size: int64(len(f.Data)), ModTime: now, Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		if _, err := tw.Write(f.Data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	err := s.d.cli.CopyToContainer(ctx, s.id, "/", &buf, container.CopyToContainerOptions{})
	if err != nil {
		if serr := s.state(context.WithoutCancel(ctx)); serr != nil {
			return serr
		}
		return classify(err, runtime.ReasonGone)
	}
	return nil
}

// CopyOut implements Sandbox: the archive of p through the API, regular
// files only (links and devices are skipped, never followed).
func (s *dockerSandbox) CopyOut(ctx context.Context, p string, max int64) ([]runtime.File, error) {
	if max <= 0 {
		max = runtime.DefaultMaxOutput
	}
	full := s.path(p)
	rc, stat, err := s.d.cli.CopyFromContainer(ctx, s.id, full)
	if err != nil {
		if errdefs.IsNotFound(err) {
			if serr := s.state(context.WithoutCancel(ctx)); serr != nil {
				return nil, serr
			}
			return nil, nil
		}
		return nil, classify(err, runtime.ReasonGone)
	}
	defer rc.Close()
	isDir := stat.Mode.IsDir()
	var out []runtime.File
	var total int64
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return out, runtime.Infra(runtime.ReasonAPI, fmt.Errorf("copy out %s: %w", full, err))
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name := h.Name
		if isDir {
			// Entries are named after the directory's base name.
			_, rest, ok := strings.Cut(name, "/")
			if !ok {
				continue
			}
			name = rest
		}
		if total+h.Size > max {
			return out, fmt.Errorf("copy out %s: more than %d bytes", p, max)
		}
		b, err := io.ReadAll(io.LimitReader(tr, h.Size))
		if err != nil {
			return out, runtime.Infra(runtime.ReasonAPI, fmt.Errorf("copy out %s: %w", full, err))
		}
		total += int64(len(b))
		out = append(out, runtime.File{Path: path.Clean(name), Mode: h.FileInfo().Mode().Perm(), Data: b})
	}
	return out, nil
}

// Remove implements Sandbox: the container is removed with force (killed
// first when it runs) with its anonymous volumes. Removing a container
// that is already gone is not an error; Remove is idempotent.
func (s *dockerSandbox) Remove(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.removed {
		return nil
	}
	err := s.d.cli.ContainerRemove(ctx, s.id, container.RemoveOptions{Force: true, RemoveVolumes: true})
	if err != nil && strings.Contains(err.Error(), "already in progress") {
		// Someone else is removing it: wait until it is gone.
		for ctx.Err() == nil {
			if _, ierr := s.d.cli.ContainerInspect(ctx, s.id); errdefs.IsNotFound(ierr) {
				err = nil
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if err != nil && !errdefs.IsNotFound(err) {
		return classify(err, "")
	}
	s.removed = true
	return nil
}
