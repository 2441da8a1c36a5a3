package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/backend"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

// dockerCLI runs the docker client against the real engine.
func dockerCLI(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("docker", args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestCleanupDockerAndPruneDryRun: `cleanup --out DIR` (default runtime
// docker) removes the containers labelled with that output directory's
// run key, running or not, and no other; --dry-run lists them and removes
// nothing. `images prune --dry-run` lists polynfi's images and removes
// nothing. Real engine; the test's own image and containers, named
// uniquely.
func TestCleanupDockerAndPruneDryRun(t *testing.T) {
	t.Parallel()
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{})
	if err != nil {
		citest.Missing(t, "no docker engine (run .ci/docker.sh): %v", err)
		return
	}
	d.Close()
	if _, err := exec.LookPath("docker"); err != nil {
		citest.Missing(t, "no docker client: %v", err)
		return
	}
	tag := fmt.Sprintf("polynfi-cleanup-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	image := tag + ":1"
	// An empty image labelled as one polynfi built (containers from it are
	// created, never started).
	dockerCLI(t, "FROM scratch\nLABEL io.polynfi.image=instance\n", "build", "-q", "-t", image, "-")
	t.Cleanup(func() { exec.Command("docker", "rmi", "-f", image).Run() })
	out, _ := filepath.Abs(filepath.Join(t.TempDir(), "runs"))
	key := backend.RunKey(out)
	mine := []string{tag + "-a", tag + "-b"}
	other := tag + "-other"
	for _, n := range mine {
		dockerCLI(t, "", "create", "--label", runtime.LabelManaged+"=true", "--label", runtime.LabelRun+"="+key, "--name", n, image, "/nothing")
	}
	dockerCLI(t, "", "create", "--label", runtime.LabelManaged+"=true", "--label", runtime.LabelRun+"="+key+"x", "--name", other, image, "/nothing")
	t.Cleanup(func() {
		for _, n := range append(mine, other) {
			exec.Command("docker", "rm", "-f", n).Run()
		}
	})
	exists := func(name string) bool {
		return dockerCLI(t, "", "ps", "-a", "-q", "--filter", "name=^/"+name+"$") != ""
	}

	stdout, _ := mainOK(t, "cleanup", "--out", out, "--dry-run")
	for _, n := range mine {
		if !strings.Contains(stdout, "would remove container "+n) || !exists(n) {
			t.Errorf("dry run: %s not listed or removed:\n%s", n, stdout)
		}
	}
	if !strings.Contains(stdout, "2 container(s) of run "+key+" would be removed") || strings.Contains(stdout, other) {
		t.Errorf("dry run:\n%s", stdout)
	}
	stdout, _ = mainOK(t, "cleanup", "--out", out)
	for _, n := range mine {
		if exists(n) {
			t.Errorf("%s not removed:\n%s", n, stdout)
		}
	}
	if !exists(other) || !strings.Contains(stdout, "removed 2 container(s) of run "+key) {
		t.Errorf("another run's container removed, or wrong count:\n%s", stdout)
	}
	if code, _, stderr := mainCode("cleanup", "--out", out, "--runtime", "vm"); code != ExitUsage {
		t.Errorf("--runtime vm: exit %d\n%s", code, stderr)
	}

	stdout, _ = mainOK(t, "images", "prune", "--dry-run", "--kind", "instance")
	if !strings.Contains(stdout, "would remove "+image+" (instance,") || !strings.Contains(stdout, "dry run: nothing removed") {
		t.Errorf("images prune --dry-run:\n%s", stdout)
	}
	if dockerCLI(t, "", "images", "-q", image) == "" {
		t.Errorf("images prune --dry-run removed %s", image)
	}
}

// TestCleanupHelpShowsNoPodFlags: the flags that shape pods are not
// offered by cleanup, which only deletes.
func TestCleanupHelpShowsNoPodFlags(t *testing.T) {
	t.Parallel()
	_, stdout, _ := mainCode("cleanup", "--help")
	for _, f := range []string{"--pod-cpu-limit", "--toleration", "--run-as-user", "--node-selector", "--pending-timeout", "--pod-deadline", "--image-pull-policy"} {
		if strings.Contains(stdout, f) {
			t.Errorf("cleanup --help lists %s", f)
		}
	}
	for _, f := range []string{"--kubeconfig", "--namespace", "--dry-run", "--run-id"} {
		if !strings.Contains(stdout, f) {
			t.Errorf("cleanup --help does not list %s", f)
		}
	}
}
