package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime/docker"
)

// TestValidateRuntimeAndNFI: validate refuses an SWE-NFI task file with a
// message naming it and what to run instead (exit 2), and kubernetes
// (exit 2); with --runtime docker it validates the bundled SWE-bench 5.x
// task repository, whose rows run only in containers (locally every gold
// run is an error), and --format json prints the validation report.
func TestValidateRuntimeAndNFI(t *testing.T) {
	t.Parallel()
	nfiDS, _ := filepath.Abs("../../examples/nfi/tasks.jsonl")
	code, _, stderr := mainCode("validate", "--dataset", nfiDS, "--out", filepath.Join(t.TempDir(), "v"))
	if code != ExitUsage || !strings.Contains(stderr, nfiDS+" holds SWE-NFI tasks") || !strings.Contains(stderr, "polynfi eval --dataset "+nfiDS+" --predictions gold") {
		t.Errorf("NFI tasks: exit %d\n%s", code, stderr)
	}
	sweb, _ := filepath.Abs("../../examples/swebench")
	if code, _, stderr := mainCode("validate", "--dataset", sweb, "--out", filepath.Join(t.TempDir(), "v"), "--runtime", "kubernetes"); code != ExitUsage {
		t.Errorf("--runtime kubernetes: exit %d\n%s", code, stderr)
	}
	if testing.Short() {
		t.Skip("-short: no container runs")
	}
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{})
	if err != nil {
		citest.Missing(t, "no docker engine (run .ci/docker.sh): %v", err)
		return
	}
	_, err = d.Client().ImageInspect(context.Background(), "polybench_python_base")
	d.Close()
	if err != nil {
		citest.Missing(t, "base image polybench_python_base missing (run .ci/docker.sh): %v", err)
		return
	}
	out := filepath.Join(t.TempDir(), "v")
	code, stdout, stderr := mainCode("validate", "--dataset", sweb, "--out", out, "--runtime", "docker", "--runs", "1",
		"--cache-level", "instance", "--format", "json")
	var rep harness.ValidationReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("exit %d; stdout is not the report (%v):\n%s\n%s", code, err, stdout, stderr)
	}
	if code != ExitOK || rep.Total != 2 || rep.Holding != 2 {
		t.Errorf("exit %d, %d/%d hold\n%s\n%s", code, rep.Holding, rep.Total, stdout, stderr)
	}
	for _, v := range rep.Instances {
		if !v.Holds {
			t.Errorf("%s does not hold: %s", v.InstanceID, v.Reason)
		}
	}
}
