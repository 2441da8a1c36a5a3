package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
)

// runContainers counts the containers of the run writing out.
func runContainers(t *testing.T, d *runtime.Docker, out string) int {
	t.Helper()
	list, err := d.Client().ContainerList(context.Background(), container.ListOptions{All: true,
		Filters: filters.NewArgs(filters.Arg("label", runtime.LabelRun+"="+runKey(out)))})
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

// TestDockerInterruptedRunsLeaveNothing interrupts a real `polynfi eval
// --runtime docker` on the bundled sample while its containers run, with
// SIGINT (polynfi removes them itself) and then SIGKILL (the next start
// removes them), and runs the same command to the end: no container of the
// run remains, and every instance is recorded exactly once.
func TestDockerInterruptedRunsLeaveNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images and runs containers")
	}
	d, err := runtime.NewDocker(context.Background(), runtime.DockerOptions{})
	if err != nil {
		citest.Missing(t, "no docker engine (run .ci/docker.sh): %v", err)
		return
	}
	defer d.Close()
	for _, b := range []string{"polybench_python_base", "polybench_javascript_base"} {
		if _, err := d.Client().ImageInspect(context.Background(), b); err != nil {
			citest.Missing(t, "base image %s missing (run .ci/docker.sh): %v", b, err)
		}
	}
	bin := buildPolynfi(t)
	ds, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	out := filepath.Join(t.TempDir(), "out")
	ids := "tidyledger__ledgerkit-12,tidyledger__ledgerkit-15,semverish__tinysemver-21,semverish__tinysemver-24"
	args := []string{"eval", "--runtime", "docker", "--cache-level", "instance", "--dataset", ds, "--predictions", "gold",
		"--out", out, "--workers", "2", "--instance-ids", ids, "--nfi=false", "--retrieval", "off"}

	interrupt := func(sig syscall.Signal) int {
		cmd := exec.Command(bin, args...)
		var stderr bytes.Buffer
		cmd.Stderr, cmd.Stdout = &stderr, &bytes.Buffer{}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Minute)
		for runContainers(t, d, out) == 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		cmd.Process.Signal(sig)
		cmd.Wait()
		t.Logf("%s: exit %d\n%s", sig, cmd.ProcessState.ExitCode(), stderr.String())
		return cmd.ProcessState.ExitCode()
	}
	if code := interrupt(syscall.SIGINT); code != ExitInterrupted {
		t.Errorf("SIGINT: exit %d, want %d", code, ExitInterrupted)
	}
	if n := runContainers(t, d, out); n != 0 {
		t.Errorf("SIGINT: %d containers of the run left", n)
	}
	interrupt(syscall.SIGKILL)
	left := runContainers(t, d, out)
	t.Logf("after SIGKILL: %d containers left for the next start to remove", left)

	final := exec.Command(bin, args...)
	var fout, ferr bytes.Buffer
	final.Stdout, final.Stderr = &fout, &ferr
	if err := final.Run(); err != nil {
		t.Fatalf("final run: %v\n%s", err, ferr.String())
	}
	if left > 0 && !strings.Contains(ferr.String(), "left by an interrupted run") {
		t.Errorf("final run did not report removing %d stale containers:\n%s", left, ferr.String())
	}
	if n := runContainers(t, d, out); n != 0 {
		t.Errorf("after the final run: %d containers of the run left", n)
	}
	got, tmp := countRecords(t, out)
	if got != 4 || tmp != 0 {
		t.Errorf("%d records and %d temp files, want 4 and 0", got, tmp)
	}
	seen := map[string]bool{}
	filepath.WalkDir(out, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.Name() != harness.ResultFile {
			return nil
		}
		var rec harness.Record
		b, _ := os.ReadFile(p)
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if seen[rec.InstanceID] || !rec.Resolved || rec.Sandbox == nil || rec.Sandbox.Runtime != "docker" {
			t.Errorf("%s: duplicate, unresolved or not in a container: %s", p, rec.InstanceID)
		}
		seen[rec.InstanceID] = true
		return nil
	})
	if !strings.Contains(fout.String(), "resolved 4/4") {
		t.Errorf("final summary:\n%s", fout.String())
	}
}
