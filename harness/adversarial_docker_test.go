package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

// staticImage resolves every instance to one image.
type staticImage string

func (s staticImage) Resolve(ctx context.Context, in dataset.Instance) (images.Choice, error) {
	return images.Choice{Image: string(s), Source: images.SourceRow, How: "local"}, nil
}

// TestAdversarialDocker runs the adversarial suite in the container
// runtime: the fixture repository copied into an image built on the
// sample's polybench_python_base (made by .ci/docker.sh), each instance a
// container (no network, pids and memory limits, no new privileges).
func TestAdversarialDocker(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hostile patches in containers")
	}
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{MaxOutput: 8 << 20})
	if err != nil {
		citest.Missing(t, "docker engine unavailable: %v", err)
	}
	if out, err := exec.Command("docker", "image", "inspect", "polybench_python_base").CombinedOutput(); err != nil {
		citest.Missing(t, "image polybench_python_base missing (.ci/docker.sh builds it): %s", out)
	}
	fx := newPyFixture(t)
	ctxDir := t.TempDir()
	run(t, ctxDir, "git", "clone", "--quiet", fx.repo, filepath.Join(ctxDir, "repo"))
	run(t, filepath.Join(ctxDir, "repo"), "git", "checkout", "--quiet", "--detach", fx.inst.BaseCommit)
	os.WriteFile(filepath.Join(ctxDir, "Dockerfile"), []byte("FROM polybench_python_base\nCOPY repo /testbed\nWORKDIR /testbed\n"), 0o644)
	tag := fmt.Sprintf("polynfi-hostile-fixture:%d", os.Getpid())
	if out, err := exec.Command("docker", "build", "-q", "--label", "polynfi.test=hostile", "-t", tag, ctxDir).CombinedOutput(); err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("docker", "image", "rm", "-f", tag).Run() })

	h, store := newHarness(t, fx.reposDir, grading.ModeStrict)
	h.Runtime = d
	h.Images = staticImage(tag)
	h.Limits = runtime.Limits{Pids: 128, MemoryBytes: 1 << 30, CPUs: 1}
	inst := fx.inst
	inst.Dockerfile = "WORKDIR /testbed"
	fx.inst = inst
	runAdversarial(t, h, store, fx)
}

// TestAdversarialDockerHistory is the history attack (adversarial_history_test.go)
// in the container runtime, on an instance image that polynfi builds
// itself from the row's Dockerfile with the fixture's clone at the base
// commit as context (package images, as `eval --runtime docker` does).
func TestAdversarialDockerHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a hostile patch in a container")
	}
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{MaxOutput: 8 << 20})
	if err != nil {
		citest.Missing(t, "docker engine unavailable: %v", err)
	}
	if out, err := exec.Command("docker", "image", "inspect", "polybench_python_base").CombinedOutput(); err != nil {
		citest.Missing(t, "image polybench_python_base missing (.ci/docker.sh builds it): %s", out)
	}
	fx := newPyFixture(t)
	addFixCommit(t, fx)
	h, store := newHarness(t, fx.reposDir, grading.ModeStrict)
	res := images.New(d.Client(), images.Options{Checkout: h.Repos.Checkout, Tree: h.Repos.TreeOf, ScratchDir: store.ScratchDir(),
		CacheLevel: images.CacheNone, MinFreeBytes: -1, Rebuild: true, Labels: map[string]string{"polynfi.test": "hostile"}})
	t.Cleanup(func() {
		if _, err := res.Cleanup(context.Background()); err != nil {
			t.Errorf("remove the instance image: %v", err)
		}
	})
	h.Runtime = d
	h.Images = res
	h.Limits = runtime.Limits{Pids: 128, MemoryBytes: 1 << 30, CPUs: 1}
	h.Timeout = time.Minute
	inst := fx.inst
	inst.Dockerfile = "FROM polybench_python_base\nWORKDIR /testbed\nCOPY . .\n"
	fx.inst = inst
	runHistoryAttack(t, h, fx)
}
