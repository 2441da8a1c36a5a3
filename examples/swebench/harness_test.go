package swebench_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/runtime"
)

// rowImage resolves an instance to the image its row names, which the
// test has built from the task's Dockerfile (the images package's own
// resolution is tested with it).
type rowImage struct{}

func (rowImage) Resolve(_ context.Context, in dataset.Instance) (images.Choice, error) {
	return images.Choice{Image: in.Image, Source: images.SourceRow, How: "local"}, nil
}

// TestHarnessEvalScriptBranch evaluates the sample's SWE-bench 5.x rows
// with polynfi's harness in Docker containers (rows of dataset.jsonl): the
// model patch applied in the container with the
// cascade, eval.sh copied in and run (it applies the test patch), the log
// read with parse_log_pytest. Gold resolves in every mode, the sample's
// wrong patch of ledgerkit-12 does not, an empty prediction is
// empty_patch; records list the dataset's pytest node ids.
func TestHarnessEvalScriptBranch(t *testing.T) {
	requireDocker(t)
	ctx := context.Background()
	rt, err := runtime.NewDocker(ctx, runtime.DockerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	wrong, err := dataset.LoadPredictions("../polybench/predictions-wrong.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	wrongPatch := map[string]string{}
	for _, p := range wrong.Predictions {
		wrongPatch[p.InstanceID] = p.ModelPatch
	}
	// dataset.jsonl only: the task repository goes through the same branch
	// (TestEvalCLIInContainers, TestTaskRepositoryResolvedByImages).
	for _, src := range []string{"dataset.jsonl"} {
		ds, err := dataset.Load(src)
		if err != nil {
			t.Fatal(err)
		}
		h := &harness.Harness{Runtime: rt, Images: rowImage{}, ScratchDir: t.TempDir(), RunKey: "swebench-sample-test",
			NativeMode: harness.ModeSWEBench, Limits: runtime.Limits{MemoryBytes: 1 << 30, Pids: 512}}
		for _, in := range ds.Instances {
			if out, err := docker(t, "", "build", "-q", "-t", in.Image, filepath.Join("tasks", in.InstanceID)); err != nil {
				t.Fatalf("docker build: %v\n%s", err, out)
			}
			gold, art, err := h.Evaluate(ctx, in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "gold", ModelPatch: in.Patch})
			if err != nil {
				t.Fatal(err)
			}
			v := gold.Verdicts
			if !gold.Resolved || !v.PolyBench.Resolved || !v.Strict.Resolved || gold.Test == nil || gold.Test.Parser != "swebench:parse_log_pytest" ||
				gold.Test.TestExitCode == nil || *gold.Test.TestExitCode != 0 || gold.TestPatchApply != nil || gold.Sandbox == nil || gold.Sandbox.Runtime != "docker" {
				t.Errorf("%s %s gold: resolved %v, verdicts %+v, test %+v\n%s", src, in.InstanceID, gold.Resolved, v, gold.Test, art.TestLog)
				continue
			}
			if v.SWEBench.FailToPass.Success[0] != in.FailToPass[0] || len(v.SWEBench.PassToPass.Success) != len(in.PassToPass) {
				t.Errorf("%s %s: F2P/P2P successes %v / %d, want the dataset's ids", src, in.InstanceID, v.SWEBench.FailToPass.Success, len(v.SWEBench.PassToPass.Success))
			}
			empty, _, err := h.Evaluate(ctx, in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "empty"})
			if err != nil || empty.Status != harness.StatusEmptyPatch {
				t.Errorf("%s %s empty: %v %+v", src, in.InstanceID, err, empty)
			}
			if w := wrongPatch[in.InstanceID]; w != "" && w != in.Patch {
				rec, _, err := h.Evaluate(ctx, in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "wrong", ModelPatch: w})
				if err != nil || rec.Resolved || rec.Status != harness.StatusUnresolved || !rec.PatchApplied {
					t.Errorf("%s %s wrong patch: %v %+v", src, in.InstanceID, err, rec)
				}
			}
		}
	}
	// Nothing left behind.
	if out, _ := docker(t, "", "ps", "-aq", "--filter", "label="+runtime.LabelRun+"=swebench-sample-test"); out != "" {
		t.Errorf("containers left: %s", out)
	}
}
