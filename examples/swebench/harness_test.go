package swebench_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
	"github.com/polynfi/polynfi/testlog"
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
	rt, err := docker.NewDocker(ctx, docker.DockerOptions{})
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
			NativeMode: grading.ModeSWEBench, Limits: runtime.Limits{MemoryBytes: 1 << 30, Pids: 512}}
		for _, in := range ds.Instances {
			if out, err := dockerCLI(t, "", "build", "-q", "-t", in.Image, filepath.Join("tasks", in.InstanceID)); err != nil {
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
			if err != nil || empty.Status != grading.StatusEmptyPatch {
				t.Errorf("%s %s empty: %v %+v", src, in.InstanceID, err, empty)
			}
			if w := wrongPatch[in.InstanceID]; w != "" && w != in.Patch {
				rec, _, err := h.Evaluate(ctx, in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "wrong", ModelPatch: w})
				if err != nil || rec.Resolved || rec.Status != grading.StatusUnresolved || !rec.PatchApplied {
					t.Errorf("%s %s wrong patch: %v %+v", src, in.InstanceID, err, rec)
				}
			}
		}
	}
	// Nothing left behind.
	if out, _ := dockerCLI(t, "", "ps", "-aq", "--filter", "label="+runtime.LabelRun+"=swebench-sample-test"); out != "" {
		t.Errorf("containers left: %s", out)
	}
}

// TestHarnessEvalScriptForgedMarkers: a patch whose code, imported by the
// tests, prints SWE-bench's markers itself (PASSED lines for every expected
// test, then ">>>>> End Test Output" and ">>>>> Test Exit Code: 0", then a
// second start marker, written past pytest's capture to every pipe it
// holds) leaves the bug in place. Read as SWE-bench reads the one stream
// (ReadSWEBenchLog on the script's output run whole), the forged end marker
// would end the test output after the forged lines; polynfi's harness runs
// the script split at its marker lines and writes the markers itself, so
// the instance stays unresolved in every mode and the exit status is the
// test command's.
func TestHarnessEvalScriptForgedMarkers(t *testing.T) {
	requireDocker(t)
	ctx := context.Background()
	rt, err := docker.NewDocker(ctx, docker.DockerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	ds, err := dataset.Load("dataset.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	in := ds.Instances[0]
	if out, err := dockerCLI(t, "", "build", "-q", "-t", in.Image, filepath.Join("tasks", in.InstanceID)); err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	// The forged lines, as Python source.
	var fake strings.Builder
	for _, id := range append(append([]string{}, in.FailToPass...), in.PassToPass...) {
		fake.WriteString("PASSED " + id + "\n")
	}
	fake.WriteString(dataset.EvalEndMarker + "\n" + dataset.EvalExitCodeMarker + ": 0\n" + dataset.EvalStartMarker + "\n")
	code := "import os as _o, stat as _st\nfor _fd in range(1, 64):\n    try:\n        if _st.S_ISFIFO(_o.fstat(_fd).st_mode):\n            _o.write(_fd, " +
		strconv.Quote(fake.String()) + ".encode())\n    except OSError:\n        pass\n"
	// The patch: the code above at the top of the package's __init__.py.
	c := filepath.Join(t.TempDir(), "c")
	if out, err := exec.Command("git", "clone", "--quiet", filepath.Join("tasks", in.InstanceID, "ledgerkit.bundle"), c).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = c
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	git("checkout", "--quiet", in.BaseCommit)
	init := filepath.Join(c, "ledgerkit", "__init__.py")
	old, err := os.ReadFile(init)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(init, append([]byte(code), old...), 0o644)
	patch := git("diff")

	h := &harness.Harness{Runtime: rt, Images: rowImage{}, ScratchDir: t.TempDir(), RunKey: "swebench-forged-markers",
		NativeMode: grading.ModeSWEBench, Limits: runtime.Limits{MemoryBytes: 1 << 30, Pids: 512}}
	rec, art, err := h.Evaluate(ctx, in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "hostile", ModelPatch: patch})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range grading.Modes {
		if v := rec.Verdicts.Get(m); v.Resolved {
			t.Errorf("%s resolved: %+v\n%s", m, v, art.TestLog)
		}
	}
	if rec.Test == nil || rec.Test.TestExitCode == nil || *rec.Test.TestExitCode == 0 || !strings.Contains(string(art.TestLog), dataset.EvalExitCodeMarker+": 0\n") {
		t.Errorf("the forged lines did not reach the log, or the recorded exit status is not the test command's: %+v\n%s", rec.Test, art.TestLog)
	}
	// The same output read as one stream the way SWE-bench reads it: the
	// forgery works there, so the test above shows a defence.
	one := strings.NewReplacer("[polynfi-mark "+rec.Test.LogSecret, "[").Replace(string(art.TestLog))
	r := grading.ReadSWEBenchLog(in.LogParser, []byte(one), testlog.SWEBenchContext{InstanceID: in.InstanceID})
	if r.ExitCode == nil || *r.ExitCode != 0 {
		t.Errorf("read as one stream, the forged exit line is not the one read (%v): the attack is not shown", r.ExitCode)
	}
	if out, _ := dockerCLI(t, "", "ps", "-aq", "--filter", "label="+runtime.LabelRun+"=swebench-forged-markers"); out != "" {
		t.Errorf("containers left: %s", out)
	}
}
