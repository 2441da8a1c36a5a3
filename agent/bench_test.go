package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

// sampleInstance is an instance of the bundled SWE-PolyBench sample (its
// repository from examples/polybench/repos).
func sampleInstance(b *testing.B, id string) (Task, *clones.Repos) {
	b.Helper()
	ds, err := dataset.Load("../examples/polybench/dataset.csv")
	if err != nil {
		b.Fatal(err)
	}
	for i := range ds.Instances {
		if ds.Instances[i].InstanceID == id {
			return Task{Instance: &ds.Instances[i]}, clones.New("../examples/polybench/repos", filepath.Join(b.TempDir(), "repos"))
		}
	}
	b.Fatalf("no instance %s in the sample", id)
	return Task{}, nil
}

// benchOverhead runs a no-op agent (`true`) on task b.N times with r and
// reports polynfi's own time per run and its parts, in seconds.
func benchOverhead(b *testing.B, opt Options, task Task) {
	r, err := NewRunner(opt, nil)
	if err != nil {
		b.Fatal(err)
	}
	var parts [6]float64 // overhead, prepare, sandbox, collect, remove, record
	n := 0
	for b.Loop() {
		// Each iteration is a new run of the same task (run 0 redone).
		os.RemoveAll(filepath.Join(opt.Out, "runs"))
		sum, err := r.Run(context.Background(), []Task{task})
		if err != nil || sum.Ran != 1 || sum.Records[0].Status != StatusCompleted {
			b.Fatalf("%v %+v", err, sum.Records[0])
		}
		tm := sum.Records[0].Timing
		for i, v := range []float64{tm.OverheadS, tm.PrepareS, tm.SandboxS, tm.CollectS, tm.RemoveS, tm.RecordS} {
			parts[i] += v
		}
		n++
	}
	for i, unit := range []string{"overhead_s/run", "prepare_s/run", "sandbox_s/run", "collect_s/run", "remove_s/run", "record_s/run"} {
		b.ReportMetric(parts[i]/float64(n), unit)
	}
}

// BenchmarkRunOverheadInstanceLocal: polynfi's own time per agent run on a
// repository instance with the local runtime (workspace at base_commit,
// bubblewrap, collection, records).
func BenchmarkRunOverheadInstanceLocal(b *testing.B) {
	task, repos := sampleInstance(b, "tidyledger__ledgerkit-12")
	local := runtime.NewLocal(context.Background(), runtime.LocalOptions{})
	b.Cleanup(func() { local.Close() })
	if local.Refuses() {
		citest.Missing(b, "no sandbox: %s", local.Note())
	}
	benchOverhead(b, Options{Agent: "cmd", Command: "true", Runs: 1, Out: b.TempDir(), Runtime: local, Repos: repos, Redo: true}, task)
}

// BenchmarkRunOverheadInstanceDocker: the same in the instance's own
// container (image resolved as eval does and present; create and start,
// the base commit, the prompt, collection in the container, removal).
func BenchmarkRunOverheadInstanceDocker(b *testing.B) {
	task, repos := sampleInstance(b, "tidyledger__ledgerkit-12")
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{})
	if err != nil {
		citest.Missing(b, "no docker engine: %v", err)
		return
	}
	defer d.Close()
	if _, err := d.Client().ImageInspect(context.Background(), "polybench_python_base"); err != nil {
		citest.Missing(b, "polybench_python_base missing (run .ci/docker.sh): %v", err)
	}
	res := images.New(d.Client(), images.Options{Checkout: repos.Checkout, ScratchDir: b.TempDir(), CacheLevel: images.CacheInstance})
	if _, err := res.Resolve(context.Background(), *task.Instance); err != nil { // built once, outside the timing
		b.Fatal(err)
	}
	r := Options{Agent: "cmd", Command: "true", Runs: 1, Out: b.TempDir(), Runtime: d, Images: res, Redo: true}
	benchOverhead(b, r, task)
}
