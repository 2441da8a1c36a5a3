package swebench_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/runtime/docker"
)

// TestImageAudit audits the image of a sample task as the images package
// resolves it (clean: the repository at its base commit, nothing of the
// patches), then an image made from it that holds the gold fix as a
// commit on a branch beyond the base and a copy of the test patch under
// /opt: the audit counts the one commit beyond the base, names the branch,
// and finds the test patch's lines in /opt/leak.diff.
func TestImageAudit(t *testing.T) {
	requireDocker(t)
	ctx := context.Background()
	rt, err := docker.NewDocker(ctx, docker.DockerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	ds, err := dataset.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ds.Instances, func(in dataset.Instance) bool { return in.InstanceID == "tidyledger__ledgerkit-15" })
	if i < 0 {
		t.Fatal("no tidyledger__ledgerkit-15 in the sample")
	}
	in := ds.Instances[i]
	in.Image = "" // the task's own Dockerfile (as in CI), not a prebuilt name
	r := images.New(rt.Client(), images.Options{LogDir: t.TempDir(), ScratchDir: t.TempDir(), CacheLevel: images.CacheInstance})
	choice, err := r.Resolve(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	wd := harness.ContainerWorkdir(in)
	a, err := images.AuditImage(ctx, rt, choice.Image, wd, in)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Clean || !a.HasGit || !a.BaseFound || a.Beyond != 0 || len(a.Leaks) != 0 {
		t.Fatalf("sample image %s: %+v, want clean", choice.Image, a)
	}

	dir := t.TempDir()
	for name, data := range map[string]string{"gold.diff": in.Patch, "leak.diff": in.TestPatch, "Dockerfile": fmt.Sprintf(`FROM %s
COPY gold.diff /tmp/gold.diff
COPY leak.diff /opt/leak.diff
RUN cd %s && git checkout -q -b fix && git apply /tmp/gold.diff && git -c user.name=x -c user.email=x@example.org commit -qam fix && git checkout -q %s && rm /tmp/gold.diff
`, choice.Image, wd, in.BaseCommit)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tag := fmt.Sprintf("polynfi-test/leaky-image:%d", time.Now().UnixNano())
	if out, err := dockerCLI(t, "", "build", "-q", "-t", tag, dir); err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	defer dockerCLI(t, "", "rmi", "-f", tag)
	a, err = images.AuditImage(ctx, rt, tag, wd, in)
	if err != nil {
		t.Fatal(err)
	}
	if a.Clean || a.Beyond != 1 || !slices.Contains(a.Refs, "refs/heads/fix") {
		t.Errorf("leaky image: clean %v, %d commits beyond the base, refs %v; want 1 and refs/heads/fix", a.Clean, a.Beyond, a.Refs)
	}
	var leaks []string
	for _, l := range a.Leaks {
		leaks = append(leaks, l.Source+" in "+strings.Join(l.Files, ","))
		if l.Source != "test_patch" || len(l.Files) != 1 || l.Files[0] != "/opt/leak.diff" {
			t.Errorf("leak %+v: want a line of the test patch in /opt/leak.diff only", l)
		}
	}
	if len(a.Leaks) == 0 {
		t.Errorf("no leak found; want the test patch's lines in /opt/leak.diff")
	}
	t.Logf("leaky image: %d commit beyond the base, refs %v, leaks %v (%.1fs)", a.Beyond, a.Refs, leaks, a.ElapsedS)
}
