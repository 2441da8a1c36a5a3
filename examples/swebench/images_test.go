package swebench_test

import (
	"context"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

// TestTaskRepositoryResolvedByImages evaluates the sample's task
// repository with the images package's own resolution (no image built
// beforehand): each task's Dockerfile is built with its directory as
// context (source "task"), and gold resolves in it.
func TestTaskRepositoryResolvedByImages(t *testing.T) {
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
	// Rebuild: an image of an earlier, killed run may still carry the name.
	r := images.New(rt.Client(), images.Options{LogDir: t.TempDir(), ScratchDir: t.TempDir(), CacheLevel: images.CacheNone, Rebuild: true})
	defer r.Cleanup(context.Background())
	h := &harness.Harness{Runtime: rt, Images: r, ScratchDir: t.TempDir(), RunKey: "swebench-images-test",
		NativeMode: grading.ModeSWEBench, Limits: runtime.Limits{MemoryBytes: 1 << 30, Pids: 512}}
	for _, in := range ds.Instances {
		in.Image = "" // the task's own Dockerfile, not a prebuilt name
		rec, art, err := h.Evaluate(ctx, in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "gold", ModelPatch: in.Patch})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Image == nil || rec.Image.Source != images.SourceTask || rec.Image.How != "built" {
			t.Errorf("%s: image %+v, want built from the task directory", in.InstanceID, rec.Image)
		}
		if !rec.Resolved {
			t.Errorf("%s gold: %s %s\n%s", in.InstanceID, rec.Status, rec.Error, art.TestLog)
		}
	}
}
