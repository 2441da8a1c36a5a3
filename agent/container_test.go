package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime/docker"
)

// containerImage is the local Debian base .ci/docker.sh makes (bash, no git).
const containerImage = "polynfi-fixture/bookworm:1"

// TestAgentInContainer runs a scripted Claude-style agent in a Docker
// container: the workspace and prompt are copied in, the prompt arrives
// on stdin, its edit and its {out_dir} files are copied back and collected
// like a local run's, and polynfi's environment stays outside.
func TestAgentInContainer(t *testing.T) {
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{})
	if err != nil {
		citest.Missing(t, "no docker engine: %v", err)
		return
	}
	defer d.Close()
	if _, err := d.Client().ImageInspect(context.Background(), containerImage); err != nil {
		citest.Missing(t, "image %s missing (run .ci/docker.sh): %v", containerImage, err)
	}
	t.Setenv("POLYNFI_TEST_SECRET", "s3cr3t-value")
	f := newFixture(t)
	cmd := `cat > /tmp/stdin.txt; cmp -s /tmp/stdin.txt "$POLYNFI_PROMPT_FILE" || { echo "stdin is not the prompt" >&2; exit 9; }
test "$PWD" = /workspace || { echo "cwd $PWD" >&2; exit 9; }
env | grep -q s3cr3t-value && { echo "polynfi's environment leaked" >&2; exit 9; }
printf 'def f(x):\n    """Return x unchanged."""\n    return x\n' > pkg/mod.py
mkdir -p pkg/extra && echo 'VALUE = 1' > pkg/extra/new.py
echo "trajectory of {instance_id}" > {out_dir}/trajectory.json
echo '{"type":"result","is_error":false,"total_cost_usd":0.01,"num_turns":2,"usage":{"input_tokens":300,"output_tokens":40}}'`
	r, err := NewRunner(Options{Agent: "claude", Command: cmd, Runs: 1, Out: f.out, Runtime: d, Image: containerImage,
		Timeout: 2 * time.Minute, Env: []string{"AGENT_KEY=given"}}, []string{f.dsDir})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := r.Run(context.Background(), []Task{f.task})
	if err != nil {
		t.Fatal(err)
	}
	rec, pred := f.record(t, "claude", 0)
	if sum.ByStatus[StatusCompleted] != 1 {
		b, _ := os.ReadFile(filepath.Join(RunDir(f.out, "claude", f.task.ID(), 0), StderrFile))
		t.Fatalf("status %s (%s): %s", rec.Status, rec.Error, b)
	}
	if rec.Sandbox.Runtime != "docker" || rec.Sandbox.Image != containerImage {
		t.Errorf("sandbox %+v", rec.Sandbox)
	}
	files, _ := pred["files"].(map[string]any)
	if files["pkg/mod.py"] != agentEdit || files["pkg/extra/new.py"] != "VALUE = 1\n" || len(files) != 2 {
		t.Errorf("prediction files %v", files)
	}
	if *rec.Usage.TokensIn != 300 || *rec.Usage.CostUSD != 0.01 {
		t.Errorf("usage %+v", rec.Usage)
	}
	if len(rec.Trajectory) != 1 || rec.Trajectory[0] != "trajectory.json" {
		t.Errorf("trajectory %v", rec.Trajectory)
	}
	b, _ := os.ReadFile(filepath.Join(RunDir(f.out, "claude", f.task.ID(), 0), TrajectoryDir, "trajectory.json"))
	if strings.TrimSpace(string(b)) != "trajectory of acme__mod-1" {
		t.Errorf("trajectory.json %q", b)
	}
	for _, want := range []string{"AGENT_KEY", "POLYNFI_WORKDIR"} {
		if !strings.Contains(strings.Join(rec.EnvNames, ","), want) {
			t.Errorf("env names %v: want %s", rec.EnvNames, want)
		}
	}
}

// TestAgentInContainerUnprivileged: an agent's command in a Docker
// container runs as ContainerUser (uid 65534), not the image's root, with
// no capability and no new privileges, in a workspace it may write, with
// its own HOME; it cannot read a file of the image only root may read
// (/etc/shadow, 0640 root:shadow in Debian), nor a 0600 file polynfi's
// setup (root) wrote. The probe's findings come back through {out_dir}.
func TestAgentInContainerUnprivileged(t *testing.T) {
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{})
	if err != nil {
		citest.Missing(t, "no docker engine: %v", err)
		return
	}
	defer d.Close()
	if _, err := d.Client().ImageInspect(context.Background(), containerImage); err != nil {
		citest.Missing(t, "image %s missing (run .ci/docker.sh): %v", containerImage, err)
	}
	f := newFixture(t)
	cmd := `o={out_dir}/probe.txt
echo "uid=$(id -u) gid=$(id -g) home=$HOME" > $o
grep -E '^(CapEff|CapPrm|NoNewPrivs):' /proc/self/status >> $o
cat /etc/shadow > /dev/null 2>&1 && echo "shadow READABLE" >> $o || echo "shadow refused" >> $o
cat /root-only.txt > /dev/null 2>&1 && echo "root-only READABLE" >> $o || echo "root-only refused" >> $o
touch "$HOME/.agent-state" && echo "home writable" >> $o
printf 'def f(x):\n    """Return x unchanged."""\n    return x\n' > pkg/mod.py && echo "workspace writable" >> $o`
	r, err := NewRunner(Options{Agent: "cmd", Command: cmd, Runs: 1, Out: f.out, Runtime: d, Image: containerImage,
		Timeout: 2 * time.Minute, Setup: "umask 077; echo root-secret > /root-only.txt; chmod 600 /root-only.txt; test -s /root-only.txt"}, []string{f.dsDir})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := r.Run(context.Background(), []Task{f.task})
	if err != nil {
		t.Fatal(err)
	}
	rec, pred := f.record(t, "cmd", 0)
	if sum.ByStatus[StatusCompleted] != 1 {
		b, _ := os.ReadFile(filepath.Join(RunDir(f.out, "cmd", f.task.ID(), 0), StderrFile))
		t.Fatalf("status %s (%s): %s", rec.Status, rec.Error, b)
	}
	b, err := os.ReadFile(filepath.Join(RunDir(f.out, "cmd", f.task.ID(), 0), TrajectoryDir, "probe.txt"))
	if err != nil {
		t.Fatal(err)
	}
	probe := string(b)
	t.Logf("probe:\n%s", probe)
	for _, want := range []string{"uid=65534 gid=65534 home=/polynfi-agent/home\n", "CapEff:\t0000000000000000\n", "CapPrm:\t0000000000000000\n",
		"NoNewPrivs:\t1\n", "shadow refused\n", "root-only refused\n", "home writable\n", "workspace writable\n"} {
		if !strings.Contains(probe, want) {
			t.Errorf("probe lacks %q", want)
		}
	}
	if files, _ := pred["files"].(map[string]any); files["pkg/mod.py"] != agentEdit {
		t.Errorf("prediction files %v: the agent's edit is not collected", files)
	}
}
