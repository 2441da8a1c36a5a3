package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polynfi/polynfi/agent"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime/docker"
)

// bashAgent is a coding agent written for the container tests, in bash
// (the instance images have bash and git, not always Python): it checks
// what it was given (the prompt on stdin and in its file, the repository
// at the image's WORKDIR with one commit of history, none of polynfi's
// environment), applies $2/<instance_id>/<run mod n>.patch (an empty
// file: no change), writes where it ran into {out_dir}, and prints its
// usage as Claude Code's result envelope or Codex's turn.completed event.
const bashAgent = `#!/bin/bash
style=$1 kit=$2
prompt=$(cat)
[ -n "$prompt" ] && [ "$prompt" = "$(cat "$POLYNFI_PROMPT_FILE")" ] || { echo "stdin is not the prompt" >&2; exit 9; }
[ "$(git log --all --oneline | wc -l)" = 1 ] || { echo "history beyond the base is visible" >&2; exit 9; }
env | grep -q POLYNFI_TEST_SECRET && { echo "polynfi's environment leaked" >&2; exit 9; }
[ "$AGENT_KEY" = given ] || { echo "--agent-env not passed" >&2; exit 9; }
d=$kit/$POLYNFI_INSTANCE_ID; n=$(ls "$d" | wc -l); p=$d/$((POLYNFI_RUN % n)).patch
if [ -s "$p" ]; then git apply "$p" || exit 3; fi
echo "$PWD" > "$POLYNFI_OUT_DIR/where.txt"
tin=$(( ${#prompt} / 4 + 50 * POLYNFI_RUN )); tout=$(( $(wc -c < "$p") / 4 + 20 ))
if [ "$style" = claude ]; then
  printf '{"type":"result","subtype":"success","is_error":false,"duration_ms":40,"num_turns":2,"result":"done","total_cost_usd":0.0025,"usage":{"input_tokens":%d,"output_tokens":%d}}\n' $tin $tout
else
  printf '{"type":"thread.started","thread_id":"t1"}\n{"type":"turn.started"}\n{"type":"turn.completed","usage":{"input_tokens":%d,"cached_input_tokens":0,"output_tokens":%d}}\n' $tin $tout
fi
`

// requireSampleImages skips (fails in CI) without a Docker engine or the
// sample's base images, and returns a client.
func requireSampleImages(t *testing.T) *docker.Docker {
	t.Helper()
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{})
	if err != nil {
		citest.Missing(t, "no docker engine (run .ci/docker.sh): %v", err)
		return nil
	}
	t.Cleanup(func() { d.Close() })
	for _, b := range []string{"polybench_python_base", "polybench_javascript_base"} {
		if _, err := d.Client().ImageInspect(context.Background(), b); err != nil {
			citest.Missing(t, "base image %s missing (run .ci/docker.sh): %v", b, err)
		}
	}
	return d
}

// TestRunPolyBenchSampleInDocker runs two scripted agents three times on
// four instances of the bundled SWE-PolyBench sample with --runtime
// docker: each run is in a container of the instance's own image, built
// from the row's Dockerfile as eval builds it (nothing pulled), with the
// agent copied in (--agent-copy). The first `polynfi run` is killed
// (SIGKILL) after a few runs and re-run: no run is redone, no container is
// left. The predictions are then evaluated in the same images: pass@k
// over the repeats.
func TestRunPolyBenchSampleInDocker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images and runs containers")
	}
	d := requireSampleImages(t)
	bin := buildPolynfi(t)
	ds, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	dsAll, err := dataset.Load(ds)
	if err != nil {
		t.Fatal(err)
	}
	wrong, err := dataset.LoadPredictions("../../examples/polybench/predictions-wrong.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"tidyledger__ledgerkit-12", "tidyledger__ledgerkit-15", "semverish__tinysemver-21", "semverish__tinysemver-24"}
	gold := map[string]string{}
	for _, in := range dsAll.Instances {
		gold[in.InstanceID] = in.Patch
	}
	wrongOf := map[string]string{}
	for _, p := range wrong.Predictions {
		wrongOf[p.InstanceID] = p.ModelPatch
	}
	kit := t.TempDir()
	if err := os.WriteFile(filepath.Join(kit, "agent.sh"), []byte(bashAgent), 0o755); err != nil {
		t.Fatal(err)
	}
	// claude-docker: gold, wrong, gold; codex-docker: wrong, nothing, gold.
	plans := map[string]func(id string) []string{
		"claude": func(id string) []string { return []string{gold[id], wrongOf[id], gold[id]} },
		"codex":  func(id string) []string { return []string{wrongOf[id], "", gold[id]} },
	}
	for style, plan := range plans {
		for _, id := range ids {
			dir := filepath.Join(kit, style, id)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for k, p := range plan(id) {
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.patch", k)), []byte(p), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	out := filepath.Join(t.TempDir(), "runs")
	args := func(style string) []string {
		return []string{"run", "--runtime", "docker", "--dataset", ds, "--instance-ids", strings.Join(ids, ","), "--agent", style,
			"--name", style + "-docker", "--out", out, "--runs", "3", "--workers", "2", "--timeout", "5m", "--cache-level", "instance",
			"--agent-copy", kit + ":/opt/kit", "--agent-cmd", "/opt/kit/agent.sh " + style + " /opt/kit/" + style, "--agent-env", "AGENT_KEY=given"}
	}
	t.Setenv("POLYNFI_TEST_SECRET", "s3cr3t")

	// Killed after two runs, then run again.
	cmd := exec.Command(bin, args("claude")...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Minute)
	for time.Now().Before(deadline) && len(runRecords(t, out)) < 2 {
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	kept := runRecords(t, out)
	t.Logf("killed with %d runs recorded, %d containers of the run left", len(kept), runContainers(t, d, out))
	if len(kept) < 2 || len(kept) >= 12 {
		t.Fatalf("%d runs recorded at the kill\n%s", len(kept), stderr.String())
	}
	stdout, _ := mainOK(t, args("claude")...)
	if want := fmt.Sprintf("runs: 12 (%d run now, %d already recorded", 12-len(kept), len(kept)); !strings.Contains(stdout, want) {
		t.Errorf("want %q in\n%s", want, stdout)
	}
	for p, b := range kept {
		if got, _ := os.ReadFile(p); !bytes.Equal(got, b) {
			t.Errorf("%s redone", p)
		}
	}
	mainOK(t, args("codex")...)
	if n := runContainers(t, d, out); n != 0 {
		t.Errorf("%d containers of the run left", n)
	}

	recs, err := agent.LoadRecords(out)
	if err != nil || len(recs) != 24 {
		t.Fatalf("%d records (%v), want 24", len(recs), err)
	}
	for _, r := range recs {
		dir := agent.RunDir(out, r.Agent, r.InstanceID, r.Run)
		if r.Status != agent.StatusCompleted {
			b, _ := os.ReadFile(filepath.Join(dir, agent.StderrFile))
			t.Errorf("%s %s run %d: %s %s\n%s", r.Agent, r.InstanceID, r.Run, r.Status, r.Error, b)
			continue
		}
		// The instance's own image, built from its Dockerfile as eval builds it.
		if r.Image == nil || r.Image.Source != "dockerfile" || !strings.HasPrefix(r.Image.Image, "polynfi-eval/") ||
			r.Sandbox.Runtime != "docker" || r.Sandbox.Image != r.Image.Image {
			t.Errorf("%s run %d: image %+v, sandbox %+v", r.InstanceID, r.Run, r.Image, r.Sandbox)
		}
		if !strings.Contains(r.Image.Image, strings.Split(r.InstanceID, "-")[0]) {
			t.Errorf("%s ran in %s", r.InstanceID, r.Image.Image)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, agent.TrajectoryDir, "where.txt")); strings.TrimSpace(string(b)) != "/testbed" {
			t.Errorf("%s: the agent worked in %q, want /testbed (the Dockerfile's WORKDIR)", r.InstanceID, b)
		}
		if r.Usage.TokensIn == nil || r.Usage.TokensOut == nil {
			t.Errorf("%s: tokens not read: %+v", r.InstanceID, r.Usage)
		}
		if (r.Usage.CostUSD == nil) != (r.Preset == "codex") {
			t.Errorf("%s %s: cost %v (Codex reports none)", r.Agent, r.InstanceID, r.Usage.CostUSD)
		}
		if r.Timing.SandboxS <= 0 || r.Timing.OverheadS <= 0 {
			t.Errorf("timing %+v", r.Timing)
		}
	}

	eval := filepath.Join(t.TempDir(), "eval")
	stdout, _ = mainOK(t, "eval", "--runtime", "docker", "--cache-level", "instance", "--dataset", ds, "--instance-ids", strings.Join(ids, ","),
		"--predictions", filepath.Join(out, agent.PredictionsFile), "--out", eval, "--workers", "2", "--nfi=false", "--retrieval", "off")
	hrecs, err := runrecord.LoadRecords(eval)
	if err != nil || len(hrecs) != 24 {
		t.Fatalf("%d harness records (%v), want 24", len(hrecs), err)
	}
	resolved := map[string]int{}
	for _, r := range hrecs {
		if r.Resolved {
			resolved[r.Model]++
		}
	}
	// The wrong patches of -12 and -24 fail; those of -15 and -21 are the
	// gold ones: claude 4+2+4, codex 2+0+4.
	if resolved["claude-docker"] != 10 || resolved["codex-docker"] != 6 {
		t.Errorf("resolved %v, want claude-docker 10 and codex-docker 6", resolved)
	}
	checkPassAtK(t, eval, stdout, map[string][3]float64{
		"claude-docker": {10.0 / 12, 1, 1},
		"codex-docker":  {6.0 / 12, 10.0 / 12, 1},
	})
	b, _ := json.Marshal(recs[0].Timing)
	t.Logf("timing of one run: %s", b)
}

// TestRunRuntimeFlags: --runtime kubernetes is refused by run with a
// usage error naming it, --image is for SWE-NFI tasks only, and the
// container flags need --runtime docker.
func TestRunRuntimeFlags(t *testing.T) {
	t.Parallel()
	poly, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	nfi, _ := filepath.Abs("../../examples/nfi/tasks.jsonl")
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--dataset", poly, "--out", out, "--agent-cmd", "true", "--runtime", "kubernetes"}, "--runtime kubernetes"},
		{[]string{"run", "--dataset", poly, "--out", out, "--agent-cmd", "true", "--runtime", "docker", "--image", "x"}, "--image: repository instances run in their own image"},
		{[]string{"run", "--dataset", nfi, "--out", out, "--agent-cmd", "true", "--runtime", "docker"}, "give --image"},
		{[]string{"run", "--dataset", poly, "--out", out, "--agent-cmd", "true", "--agent-setup", "true"}, "need --runtime docker"},
		{[]string{"run", "--dataset", poly, "--out", out, "--agent-cmd", "true", "--runtime", "docker", "--agent-copy", filepath.Join(out, "missing") + ":/x"}, "--agent-copy"},
		{[]string{"run", "--dataset", poly, "--out", out, "--agent-cmd", "true", "--runtime", "docker", "--agent-copy", out + ":relative"}, "--agent-copy"},
		{[]string{"run", "--dataset", poly, "--out", out, "--agent-cmd", "true", "--runtime", "docker", "--cache-level", "all"}, "--cache-level"},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), c.args, &stdout, &stderr); code != ExitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, want %d and %q in:\n%s", c.args, code, ExitUsage, c.want, stderr.String())
		}
	}
}
