package images_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docker/docker/client"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

func TestImageNames(t *testing.T) {
	in := dataset.Instance{InstanceID: "Django__django-11099", Repo: "django/django", Version: "3.0"}
	for tmpl, want := range map[string]string{
		"swe-polybench.eval.x86_64.{id_lower}":           "swe-polybench.eval.x86_64.django__django-11099",
		"swebench/sweb.eval.x86_64.{swebench_id}:latest": "swebench/sweb.eval.x86_64.django_1776_django-11099:latest",
		"reg.example/{owner}/{name}:{version}-{id}":      "reg.example/django/django:3.0-Django__django-11099",
		"{repo}": "django/django",
	} {
		if got := images.Expand(tmpl, in); got != want {
			t.Errorf("Expand(%q) = %q, want %q", tmpl, got, want)
		}
	}
	if got := images.SWEBenchImage("astropy__astropy-12907"); got != "sweb.eval.x86_64.astropy_1776_astropy-12907" {
		t.Errorf("SWEBenchImage = %q", got)
	}
	if got := images.SWEPolyBenchImage("Google__GSON-1093"); got != "swe-polybench.eval.x86_64.google__gson-1093" {
		t.Errorf("SWEPolyBenchImage = %q", got)
	}
}

const fixtureBase = "polynfi-fixture/bookworm:1"

func engine(t *testing.T) *client.Client {
	t.Helper()
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{})
	if err != nil {
		citest.Missing(t, "no docker engine (run .ci/docker.sh): %v", err)
		return nil
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.Client().ImageInspect(context.Background(), fixtureBase); err != nil {
		citest.Missing(t, "image %s missing (run .ci/docker.sh): %v", fixtureBase, err)
	}
	return d.Client()
}

// A row's Dockerfile is built with the repository at base_commit as
// context (.dockerignore removed, .git kept); building it again reuses
// every cached layer and gives the same image.
func TestBuildFromRowDockerfileAndCachedRebuild(t *testing.T) {
	cli := engine(t)
	sample, _ := filepath.Abs("../examples/polybench")
	ds, err := dataset.Load(filepath.Join(sample, "dataset.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var in dataset.Instance
	for _, x := range ds.Instances {
		if x.InstanceID == "tidyledger__ledgerkit-12" {
			in = x
		}
	}
	// A Dockerfile of this test's own, so the image is this test's.
	in.Dockerfile = "FROM " + fixtureBase + "\nWORKDIR /testbed\nCOPY . .\nRUN test -d .git && test ! -e .dockerignore && ls > /files\n"
	repos := clones.New(filepath.Join(sample, "repos"), t.TempDir())
	logs := t.TempDir()
	opts := images.Options{Checkout: repos.Checkout, LogDir: logs, ScratchDir: t.TempDir(), CacheLevel: images.CacheNone}
	r := images.New(cli, opts)
	c, err := r.Resolve(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if c.Source != images.SourceBuild || c.How != "built" || !strings.HasPrefix(c.Image, "polynfi-eval/tidyledger__ledgerkit:") {
		t.Errorf("choice %+v", c)
	}
	first, err := cli.ImageInspect(context.Background(), c.Image)
	if err != nil {
		t.Fatal(err)
	}
	if first.Config.Labels[images.LabelKind] != "instance" {
		t.Errorf("labels %v", first.Config.Labels)
	}

	opts.Rebuild = true
	r2 := images.New(cli, opts)
	c2, err := r2.Resolve(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(c2.BuildLog)
	steps, cached := strings.Count(string(log), "\nStep "), strings.Count(string(log), "Using cache")
	if steps < 4 || cached != steps-1 { // every step after FROM from the cache
		t.Errorf("rebuild: %d steps, %d from the cache:\n%s", steps, cached, log)
	}
	if c2.How != "built" || c2.BuildSteps != steps || c2.CachedSteps != cached {
		t.Errorf("rebuild's choice: %s, %d steps, %d cached; the log says %d and %d", c2.How, c2.BuildSteps, c2.CachedSteps, steps, cached)
	}
	second, err := cli.ImageInspect(context.Background(), c2.Image)
	if err != nil || second.ID != first.ID {
		t.Errorf("rebuild gave image %s, first %s (%v)", second.ID, first.ID, err)
	}
	removed, err := r.Cleanup(context.Background())
	if err != nil || len(removed) != 1 {
		t.Errorf("cleanup at level none: %v %v", removed, err)
	}
}

// polybench_<language>_base comes from --base-dockerfiles when missing; a
// task directory is built with itself as context; a failing build and a
// missing image are infrastructure failures with their reasons.
func TestBasesTaskDirsAndFailures(t *testing.T) {
	cli := engine(t)
	bases := t.TempDir()
	os.WriteFile(filepath.Join(bases, "polynfitest.Dockerfile"), []byte("FROM "+fixtureBase+"\nRUN echo base > /base-marker\n"), 0o644)
	task := t.TempDir()
	os.WriteFile(filepath.Join(task, "hello.txt"), []byte("hello\n"), 0o644)
	logs := t.TempDir()
	r := images.New(cli, images.Options{BaseDockerfiles: bases, LogDir: logs, CacheLevel: images.CacheNone, Retries: 1})
	t.Cleanup(func() { r.Cleanup(context.Background()) })

	in := dataset.Instance{InstanceID: "polynfi__task-1", Repo: "polynfi/task", BuildContext: task,
		Dockerfile: "FROM polybench_polynfitest_base\nCOPY hello.txt /hello.txt\nRUN cat /base-marker /hello.txt\n"}
	c, err := r.Resolve(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if c.Source != images.SourceTask || len(c.Bases) != 1 || c.Bases[0] != "polybench_polynfitest_base" {
		t.Errorf("choice %+v", c)
	}
	if _, err := cli.ImageInspect(context.Background(), "polybench_polynfitest_base"); err != nil {
		t.Errorf("base image not built: %v", err)
	}

	bad := in
	bad.InstanceID, bad.Dockerfile = "polynfi__task-2", "FROM "+fixtureBase+"\nRUN echo failing step && false\n"
	c, err = r.Resolve(context.Background(), bad)
	if runtime.InfraReason(err) != runtime.ReasonBuild || c.Attempts != 2 {
		t.Errorf("failing build: %v (attempts %d), want %s after 2 attempts", err, c.Attempts, runtime.ReasonBuild)
	}
	if log, _ := os.ReadFile(c.BuildLog); !strings.Contains(string(log), "failing step") {
		t.Errorf("build log %s lacks the step's output:\n%s", c.BuildLog, log)
	}

	missing := dataset.Instance{InstanceID: "x__y-1", Image: "polynfi-test/absent.invalid:never"}
	if _, err := images.New(cli, images.Options{}).Resolve(context.Background(), missing); runtime.InfraReason(err) != runtime.ReasonImage {
		t.Errorf("absent image without a registry: %v, want %s", err, runtime.ReasonImage)
	}
	local := dataset.Instance{InstanceID: "x__y-2", Image: fixtureBase}
	if c, err := images.New(cli, images.Options{}).Resolve(context.Background(), local); err != nil || c.How != "local" || c.Source != images.SourceRow {
		t.Errorf("present row image: %+v %v", c, err)
	}
	tmpl := dataset.Instance{InstanceID: "Polynfi__Fixture-1"}
	if c, err := images.New(cli, images.Options{Template: "polynfi-fixture/bookworm:{id_lower}"}).Resolve(context.Background(), tmpl); err == nil || c.Image != "polynfi-fixture/bookworm:polynfi__fixture-1" || c.Source != images.SourceTemplate {
		t.Errorf("template: %+v %v", c, err)
	}
}
