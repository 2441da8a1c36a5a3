package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/kube"
)

// TestAdversarialKubernetes runs the adversarial suite in the kubernetes
// runtime, on the real local cluster of k8s/cluster/up.sh (.ci/k8s.sh test
// in CI): the fixture repository in an image built on the sample's
// polybench_python_base and copied into the node's containerd, each
// instance attempt a pod (all capabilities dropped, no privilege
// escalation, seccomp RuntimeDefault, no API token, memory and CPU limits;
// the cluster's bridge network has no route out and does not enforce the
// run's NetworkPolicy). Then runCleanRoomCases with --clean-room.
func TestAdversarialKubernetes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hostile patches in pods")
	}
	kc := citest.Kubeconfig(t)
	sock := os.Getenv("POLYNFI_K8S_CONTAINERD")
	if sock == "" {
		sock = "/var/lib/polynfi-k8s/containerd/containerd.sock"
	}
	if out, err := exec.Command("docker", "image", "inspect", "polybench_python_base").CombinedOutput(); err != nil {
		citest.Missing(t, "image polybench_python_base missing (.ci/docker.sh builds it): %s", out)
	}
	runID := fmt.Sprintf("test-hostile-%d", time.Now().UnixNano())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Each pod ends by itself 3 minutes after its container started (a
	// case takes its set-up and a 30 s test): should this test process be
	// killed, the fork bomb's pod is not left running.
	k, err := kube.NewKubernetes(ctx, kube.KubernetesOptions{Kubeconfig: kc, RunID: runID, Owner: "go-test",
		PendingTimeout: 3 * time.Minute, PodDeadline: 3 * time.Minute, MaxOutput: 8 << 20})
	if err != nil {
		citest.Missing(t, "local Kubernetes cluster not answering: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := k.Cleanup(ctx, runID); err != nil {
			t.Errorf("cleanup: %v", err)
		}
		k.Close()
	})
	if err := k.Prepare(ctx); err != nil {
		t.Fatal(err)
	}

	fx := newPyFixture(t)
	ctxDir := t.TempDir()
	run(t, ctxDir, "git", "clone", "--quiet", fx.repo, filepath.Join(ctxDir, "repo"))
	run(t, filepath.Join(ctxDir, "repo"), "git", "checkout", "--quiet", "--detach", fx.inst.BaseCommit)
	os.WriteFile(filepath.Join(ctxDir, "Dockerfile"), []byte("FROM polybench_python_base\nCOPY repo /testbed\nWORKDIR /testbed\n"), 0o644)
	tag := fmt.Sprintf("localhost/polynfi-hostile-fixture:k8s-%d", time.Now().UnixNano())
	if out, err := exec.Command("docker", "build", "-q", "--label", "polynfi.test=hostile", "-t", tag, ctxDir).CombinedOutput(); err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("docker", "image", "rm", "-f", tag).Run() })
	load := exec.Command("sh", "-c", `docker save "$1" | ctr --address "$2" -n k8s.io images import -`, "sh", tag, sock)
	if out, err := load.CombinedOutput(); err != nil {
		t.Fatalf("copy %s into the node's containerd: %v\n%s", tag, err, out)
	}
	t.Cleanup(func() { exec.Command("ctr", "--address", sock, "-n", "k8s.io", "images", "rm", tag).Run() })

	h, store := newHarness(t, fx.reposDir, grading.ModeStrict)
	h.Runtime = k
	h.Images = staticImage(tag)
	h.Limits = runtime.Limits{Pids: 128, MemoryBytes: 1 << 30, CPUs: 1}
	inst := fx.inst
	inst.Dockerfile = "WORKDIR /testbed"
	fx.inst = inst
	runAdversarial(t, h, store, fx)
	// Canaries and the clean room in pods: gold stays resolved, forging
	// patches end tampered.
	t.Run("clean room", func(t *testing.T) { runCleanRoomCases(t, h, fx) })
}
