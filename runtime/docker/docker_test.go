package docker

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/client"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
)

// TestImage is the local base image the container tests start from: Debian
// 12 minbase, made by .ci/docker.sh (examples/polybench/docker/bases.sh)
// with debootstrap and docker import, since no registry is reachable.
const testImage = "polynfi-fixture/bookworm:1"

// newTestDocker connects to the engine and checks the test image is there.
// Without either the test is skipped, except in CI (CI=true) where it
// fails: the container tests back claims and must run there.
func newTestDocker(t testing.TB) *Docker {
	t.Helper()
	d, err := NewDocker(context.Background(), DockerOptions{})
	if err != nil {
		citest.Missing(t, "no docker engine (run .ci/docker.sh): %v", err)
		return nil
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.cli.ImageInspect(context.Background(), testImage); err != nil {
		citest.Missing(t, "test image %s missing (run .ci/docker.sh): %v", testImage, err)
	}
	return d
}

func startTest(t testing.TB, d *Docker, spec runtime.Spec) runtime.Sandbox {
	t.Helper()
	if spec.Image == "" {
		spec.Image = testImage
	}
	if spec.Labels == nil {
		spec.Labels = map[string]string{runtime.LabelRun: "runtime-test-" + t.Name()}
	}
	sb, err := d.Start(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Remove(context.Background()) })
	return sb
}

func mustExec(t testing.TB, sb runtime.Sandbox, c runtime.Command) runtime.Result {
	t.Helper()
	r, err := sb.Exec(context.Background(), c)
	if err != nil {
		t.Fatalf("exec %v%s: %v", c.Args, c.Script, err)
	}
	return r
}

func TestDockerExecStreamsExitEnv(t *testing.T) {
	d := newTestDocker(t)
	sb := startTest(t, d, runtime.Spec{Name: "exec test/1", Workdir: "/work", Env: []string{"A=from-spec", "TZ=Europe/Paris"}})
	if sb.Workdir() != "/work" || sb.Info().Runtime != "docker" || sb.Info().Isolation != IsolationContainer {
		t.Fatalf("workdir %q info %+v", sb.Workdir(), sb.Info())
	}
	r := mustExec(t, sb, runtime.Command{Script: `echo out; echo err >&2; echo "$A $B $TZ $(pwd)"; exit 3`, Env: []string{"B=from-cmd"}})
	if r.ExitCode != 3 || r.TimedOut {
		t.Fatalf("exit %d timedout %v", r.ExitCode, r.TimedOut)
	}
	if got := string(r.Stdout); got != "out\nfrom-spec from-cmd UTC /work\n" {
		t.Errorf("stdout %q (pinned TZ must win, workdir /work)", got)
	}
	if got := string(r.Stderr); got != "err\n" {
		t.Errorf("stderr %q", got)
	}
	r = mustExec(t, sb, runtime.Command{Args: []string{"cat", "/sys/class/net/eth0/address"}})
	if r.ExitCode == 0 {
		t.Errorf("container has a network interface eth0: %s", r.Stdout)
	}
	r = mustExec(t, sb, runtime.Command{Args: []string{"sh", "-c", "grep -E '^(CapEff|NoNewPrivs)' /proc/self/status"}})
	if !strings.Contains(string(r.Stdout), "NoNewPrivs:\t1") {
		t.Errorf("no-new-privileges not set:\n%s", r.Stdout)
	}
	r = mustExec(t, sb, runtime.Command{Args: []string{"no-such-program"}})
	if r.ExitCode == 0 {
		t.Errorf("a missing program exited 0")
	}
}

// TestDockerExecUser: Command.User runs the exec as that user, with no
// capability (the image's root keeps Docker's default set, less
// droppedCaps), and "" keeps the image's user.
func TestDockerExecUser(t *testing.T) {
	d := newTestDocker(t)
	sb := startTest(t, d, runtime.Spec{Name: "user"})
	probe := `echo "uid=$(id -u) gid=$(id -g)"; grep -E '^Cap(Eff|Prm):' /proc/self/status; cat /etc/shadow >/dev/null 2>&1 && echo shadow-read || echo shadow-refused`
	r := mustExec(t, sb, runtime.Command{Script: probe, User: "65534:65534"})
	if got := string(r.Stdout); got != "uid=65534 gid=65534\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nshadow-refused\n" {
		t.Errorf("as 65534:65534:\n%s", got)
	}
	r = mustExec(t, sb, runtime.Command{Script: probe})
	if got := string(r.Stdout); !strings.HasPrefix(got, "uid=0 gid=0\n") || !strings.HasSuffix(got, "shadow-read\n") || strings.Contains(got, "CapEff:\t0000000000000000") {
		t.Errorf("as the image's user:\n%s", got)
	}
}

func TestDockerNetworkWhenAsked(t *testing.T) {
	d := newTestDocker(t)
	sb := startTest(t, d, runtime.Spec{Name: "net", Network: true})
	if r := mustExec(t, sb, runtime.Command{Args: []string{"cat", "/sys/class/net/eth0/address"}}); r.ExitCode != 0 {
		t.Errorf("Network: true but no eth0: %s", r.Stderr)
	}
}

func TestDockerTimeoutKillsEverything(t *testing.T) {
	d := newTestDocker(t)
	sb := startTest(t, d, runtime.Spec{Name: "timeout"})
	start := time.Now()
	r := mustExec(t, sb, runtime.Command{Script: "(sleep 1000 &) ; sleep 1001 & echo started; sleep 1002", Timeout: time.Second})
	if !r.TimedOut || r.ExitCode != -1 {
		t.Fatalf("timed out %v exit %d", r.TimedOut, r.ExitCode)
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("timeout took %s", el)
	}
	if string(r.Stdout) != "started\n" {
		t.Errorf("stdout %q", r.Stdout)
	}
	r = mustExec(t, sb, runtime.Command{Script: `for p in /proc/[0-9]*; do tr '\0' ' ' < $p/cmdline 2>/dev/null; echo; done | grep -c 'slee[p] 10' || true`})
	if strings.TrimSpace(string(r.Stdout)) != "0" {
		t.Errorf("%s processes of the timed-out command survive", strings.TrimSpace(string(r.Stdout)))
	}
	// The sandbox stays usable.
	if r := mustExec(t, sb, runtime.Command{Args: []string{"true"}}); r.ExitCode != 0 {
		t.Errorf("exec after timeout: exit %d", r.ExitCode)
	}
}

func TestDockerCopyInOut(t *testing.T) {
	d := newTestDocker(t)
	sb := startTest(t, d, runtime.Spec{Name: "copy", Workdir: "/testbed"})
	ctx := context.Background()
	files := []runtime.File{{Path: "a/b/c.txt", Data: []byte("hello\n")}, {Path: "run.sh", Mode: 0o755, Data: []byte("#!/bin/sh\necho ran\n")}}
	if err := sb.CopyIn(ctx, "", files); err != nil {
		t.Fatal(err)
	}
	if err := sb.CopyIn(ctx, "/tmp/x", []runtime.File{{Path: "p.diff", Data: []byte("diff")}}); err != nil {
		t.Fatal(err)
	}
	if r := mustExec(t, sb, runtime.Command{Args: []string{"./run.sh"}}); string(r.Stdout) != "ran\n" {
		t.Errorf("run.sh: exit %d %q %q", r.ExitCode, r.Stdout, r.Stderr)
	}
	if err := sb.CopyIn(ctx, "", []runtime.File{{Path: "../escape", Data: nil}}); err == nil {
		t.Error("CopyIn accepted ../escape")
	}
	mustExec(t, sb, runtime.Command{Script: "ln -s /etc/passwd a/link"})
	out, err := sb.CopyOut(ctx, "a", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Path != "b/c.txt" || string(out[0].Data) != "hello\n" {
		t.Errorf("CopyOut(a) = %+v, want b/c.txt only (links skipped)", out)
	}
	out, err = sb.CopyOut(ctx, "/tmp/x/p.diff", 0)
	if err != nil || len(out) != 1 || out[0].Path != "p.diff" || string(out[0].Data) != "diff" {
		t.Errorf("CopyOut(file) = %+v, %v", out, err)
	}
	out, err = sb.CopyOut(ctx, "missing", 0)
	if err != nil || out != nil {
		t.Errorf("CopyOut(missing) = %+v, %v; want nothing", out, err)
	}
	if _, err := sb.CopyOut(ctx, "a", 3); err == nil {
		t.Error("CopyOut over its limit did not fail")
	}
}

func TestDockerOOMIsInfraError(t *testing.T) {
	d := newTestDocker(t)
	sb := startTest(t, d, runtime.Spec{Name: "oom", Limits: runtime.Limits{MemoryBytes: 48 << 20, Pids: 64, CPUs: 1}})
	// bash keeps the whole output of the substitution in memory: 400 MB.
	_, err := sb.Exec(context.Background(), runtime.Command{Script: "x=$(head -c 400000000 /dev/zero | tr '\\0' a); echo ${#x}", Timeout: time.Minute})
	if runtime.InfraReason(err) != runtime.ReasonOOM {
		t.Fatalf("err = %v, want an InfraError %s", err, runtime.ReasonOOM)
	}
}

func TestDockerGoneIsInfraError(t *testing.T) {
	d := newTestDocker(t)
	sb := startTest(t, d, runtime.Spec{Name: "gone"})
	ctx := context.Background()
	// Another party removes the container mid-run.
	go func() {
		time.Sleep(500 * time.Millisecond)
		d.cli.ContainerRemove(ctx, sb.(*dockerSandbox).id, container.RemoveOptions{Force: true})
	}()
	_, err := sb.Exec(ctx, runtime.Command{Script: "sleep 30", Timeout: time.Minute})
	if runtime.InfraReason(err) != runtime.ReasonGone {
		t.Fatalf("exec in a removed container: %v, want %s", err, runtime.ReasonGone)
	}
	if _, err := sb.Exec(ctx, runtime.Command{Args: []string{"true"}}); runtime.InfraReason(err) != runtime.ReasonGone {
		t.Fatalf("second exec: %v, want %s", err, runtime.ReasonGone)
	}
	if err := sb.Remove(ctx); err != nil {
		t.Errorf("Remove of a vanished container: %v", err)
	}
	if err := sb.Remove(ctx); err != nil {
		t.Errorf("second Remove: %v", err)
	}
}

func TestDockerMissingImageAndDaemon(t *testing.T) {
	d := newTestDocker(t)
	_, err := d.Start(context.Background(), runtime.Spec{Name: "x", Image: "polynfi-test/no-such-image:never"})
	if runtime.InfraReason(err) != runtime.ReasonImage {
		t.Errorf("missing image: %v, want %s", err, runtime.ReasonImage)
	}
	cli, err := client.NewClientWithOpts(client.WithHost("unix:///nonexistent/docker.sock"), client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewDocker(context.Background(), DockerOptions{Client: cli}); runtime.InfraReason(err) != runtime.ReasonDaemon {
		t.Errorf("unreachable daemon: %v, want %s", err, runtime.ReasonDaemon)
	}
}

func TestDockerLabelsAndRemoveStale(t *testing.T) {
	d := newTestDocker(t)
	ctx := context.Background()
	key := "stale-test-" + time.Now().Format("150405.000000")
	var ids []string
	for range 2 {
		sb, err := d.Start(ctx, runtime.Spec{Name: "stale", Image: testImage, Labels: map[string]string{runtime.LabelRun: key, runtime.LabelInstance: "o__r-1"}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, sb.(*dockerSandbox).id) // left behind, as by a killed run
	}
	other := startTest(t, d, runtime.Spec{Name: "other"})
	n, err := d.RemoveStale(ctx, key)
	if err != nil || n != 2 {
		t.Fatalf("RemoveStale = %d, %v; want 2", n, err)
	}
	list, err := d.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", runtime.LabelRun+"="+key))})
	if err != nil || len(list) != 0 {
		t.Errorf("after RemoveStale: %d containers, %v", len(list), err)
	}
	if r := mustExec(t, other, runtime.Command{Args: []string{"true"}}); r.ExitCode != 0 {
		t.Error("RemoveStale removed a container of another run")
	}
}

// BenchmarkDockerSandbox measures the container flow's fixed cost: create
// and start, copy a file in, one exec, copy it out, remove.
func BenchmarkDockerSandbox(b *testing.B) {
	d := newTestDocker(b)
	ctx := context.Background()
	for b.Loop() {
		sb, err := d.Start(ctx, runtime.Spec{Name: "bench", Image: testImage, Labels: map[string]string{runtime.LabelRun: "bench"}})
		if err != nil {
			b.Fatal(err)
		}
		if err := sb.CopyIn(ctx, "/tmp", []runtime.File{{Path: "f", Data: []byte("x")}}); err != nil {
			b.Fatal(err)
		}
		if _, err := sb.Exec(ctx, runtime.Command{Args: []string{"cat", "/tmp/f"}}); err != nil {
			b.Fatal(err)
		}
		if _, err := sb.CopyOut(ctx, "/tmp/f", 0); err != nil {
			b.Fatal(err)
		}
		if err := sb.Remove(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
