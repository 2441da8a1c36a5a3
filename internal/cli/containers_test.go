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

	"github.com/polynfi/polynfi/backend"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

// runContainers counts the containers of the run writing out.
func runContainers(t *testing.T, d *docker.Docker, out string) int {
	t.Helper()
	list, err := d.Client().ContainerList(context.Background(), container.ListOptions{All: true,
		Filters: filters.NewArgs(filters.Arg("label", runtime.LabelRun+"="+backend.RunKey(out)))})
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
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{})
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
		if err != nil || de.Name() != runrecord.ResultFile {
			return nil
		}
		var rec runrecord.Record
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

// TestDockerImagesRebuildReusesTheLayerCache: `polynfi images build` makes
// (or finds) the images of the bundled sample's 8 instances (instances of
// one repository at one commit share theirs), then `--rebuild` builds every
// one again, and the engine takes every step after FROM from its layer
// cache. A build of another image that shares steps with these
// (another test building the sample at the same time on a cold engine)
// can leave a newer sibling layer that one pass follows and misses on, so
// up to three rebuild passes are made: the test passes when one of them
// is all from the cache, and fails when none is (a cache that does not
// work misses on every pass). Times are logged (the measurement of
// issue #12).
func TestDockerImagesRebuildReusesTheLayerCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images")
	}
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{})
	if err != nil {
		citest.Missing(t, "no docker engine (run .ci/docker.sh): %v", err)
		return
	}
	defer d.Close()
	for _, b := range []string{"polybench_python_base", "polybench_java_base", "polybench_javascript_base", "polybench_typescript_base"} {
		if _, err := d.Client().ImageInspect(context.Background(), b); err != nil {
			citest.Missing(t, "base image %s missing (run .ci/docker.sh): %v", b, err)
		}
	}
	ds, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	out := t.TempDir()
	type result struct {
		ID     string `json:"instance_id"`
		Choice struct {
			Image       string `json:"image"`
			How         string `json:"how"`
			BuildSteps  int    `json:"build_steps"`
			CachedSteps int    `json:"cached_steps"`
		} `json:"image"`
		Error string `json:"error"`
	}
	build := func(extra ...string) ([]result, time.Duration) {
		start := time.Now()
		stdout, stderr, code := runCLI(t, append([]string{"images", "build", "--dataset", ds, "--out", out, "--format", "json"}, extra...)...)
		took := time.Since(start)
		if code != ExitOK {
			t.Fatalf("images build %v: exit %d\n%s", extra, code, stderr)
		}
		var rs []result
		if err := json.Unmarshal([]byte(stdout), &rs); err != nil || len(rs) != 8 {
			t.Fatalf("images build %v: %d results, %v\n%s", extra, len(rs), err, stdout)
		}
		return rs, took
	}
	first, took := build()
	t.Logf("first pass (built or found): %s", took.Round(time.Millisecond))
	imageID := func(name string) string {
		ins, err := d.Client().ImageInspect(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		return ins.ID
	}
	before := map[string]string{}
	for _, r := range first {
		before[r.ID] = imageID(r.Choice.Image)
	}
	for pass := 1; pass <= 3; pass++ {
		rs, took := build("--rebuild")
		all, same := true, 0
		built := map[string]bool{} // instances with the same inputs share an image, built once
		for _, r := range rs {
			if r.Choice.How == "cached" {
				continue
			}
			if r.Choice.How != "built" || r.Choice.BuildSteps < 3 {
				t.Fatalf("%s: %+v, want a build of at least 3 steps", r.ID, r.Choice)
			}
			built[r.Choice.Image] = true
			if r.Choice.CachedSteps != r.Choice.BuildSteps-1 {
				all = false
				t.Logf("pass %d: %s: %d of %d steps from the cache", pass, r.ID, r.Choice.CachedSteps, r.Choice.BuildSteps)
			}
		}
		for _, r := range rs {
			if !built[r.Choice.Image] {
				t.Fatalf("%s: image %s was not built again", r.ID, r.Choice.Image)
			}
			if imageID(r.Choice.Image) == before[r.ID] {
				same++
			}
		}
		t.Logf("rebuild pass %d: %s, %d images for 8 instances, every step after FROM from the cache: %v, %d/8 image ids unchanged",
			pass, took.Round(time.Millisecond), len(built), all, same)
		if all {
			return
		}
	}
	t.Error("no rebuild of the 8 sample images took every step after FROM from the layer cache")
}
