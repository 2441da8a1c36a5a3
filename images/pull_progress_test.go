package images_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/docker/docker/api/types/image"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/citest"
)

// TestPullProgressFromLocalRegistry: an image built here with two layers
// of 3 MB of random bytes is pushed to the loopback registry the
// Kubernetes tests use (k8s/cluster/registry.sh), removed from the engine,
// then resolved by that name: the pull reports its layers and bytes as
// they arrive (events before the end, layers done rising to all of them,
// the sizes of the two layers counted), not only a start and an end.
func TestPullProgressFromLocalRegistry(t *testing.T) {
	cli := engine(t)
	reg := os.Getenv("POLYNFI_K8S_REGISTRY")
	if reg == "" {
		reg = "127.0.0.1:5000"
	}
	if resp, err := http.Get("http://" + reg + "/v2/"); err != nil || resp.StatusCode != 200 {
		citest.Missing(t, "no registry at %s (k8s/cluster/registry.sh; .ci/k8s.sh up starts it): %v", reg, err)
		return
	} else {
		resp.Body.Close()
	}
	ctx := context.Background()
	task := t.TempDir()
	os.WriteFile(filepath.Join(task, "a.txt"), []byte(fmt.Sprint(time.Now().UnixNano())), 0o644)
	in := dataset.Instance{InstanceID: fmt.Sprintf("polynfi__pull-%d", time.Now().UnixNano()), Repo: "polynfi/pull", BuildContext: task,
		Dockerfile: "FROM " + fixtureBase + "\nCOPY a.txt /a.txt\nRUN head -c 3000000 /dev/urandom > /l1\nRUN head -c 3000000 /dev/urandom > /l2\n"}
	b := images.New(cli, images.Options{LogDir: t.TempDir(), CacheLevel: images.CacheNone})
	built, err := b.Resolve(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	prefix := reg + "/polynfi-test/pull"
	pushed, err := images.Push(ctx, cli, built.Image, prefix, in, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// Gone from the engine: the pull must download the new layers.
	if _, err := cli.ImageRemove(ctx, pushed.Name, image.RemoveOptions{Force: true, PruneChildren: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Cleanup(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cli.ImageRemove(context.Background(), pushed.Name, image.RemoveOptions{Force: true, PruneChildren: true})
	})

	var mu sync.Mutex
	var evs []images.Event
	r := images.New(cli, images.Options{LogDir: t.TempDir(), Template: images.PushTemplate(prefix), PullProgressEvery: -1,
		Progress: func(ev images.Event) { mu.Lock(); evs = append(evs, ev); mu.Unlock() }})
	c, err := r.Resolve(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if c.How != "pulled" {
		t.Fatalf("resolved %+v, want pulled", c)
	}
	var steps []images.Event
	for _, ev := range evs {
		if ev.Kind == "pull" && !ev.Done && ev.Step != "" {
			steps = append(steps, ev)
		}
	}
	if len(steps) < 2 {
		t.Fatalf("pull progress events %+v, want one per layer", evs)
	}
	first, last := steps[0], steps[len(steps)-1]
	if first.LayersDone >= first.Layers && first.Layers == last.Layers {
		t.Errorf("first progress %+v already has every layer", first)
	}
	if last.LayersDone != last.Layers || last.Layers < 3 {
		t.Errorf("last progress %+v: want all of at least 3 layers done", last)
	}
	if last.BytesTotal < 6_000_000 || last.Bytes != last.BytesTotal {
		t.Errorf("last progress %+v: want the 6 MB of the two layers downloaded", last)
	}
	if want := fmt.Sprintf("%d/%d layers, ", last.LayersDone, last.Layers); len(last.Step) < len(want) || last.Step[:len(want)] != want {
		t.Errorf("step %q, want it to start %q", last.Step, want)
	}
	for i, s := range steps[1:] {
		if s.LayersDone < steps[i].LayersDone {
			t.Errorf("layers done went back: %+v then %+v", steps[i], s)
		}
	}
	t.Logf("%d progress events, last %q", len(steps), last.Step)
}
