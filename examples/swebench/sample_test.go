// Package swebench_test proves the bundled SWE-bench 5.x-style sample sound
// with the real Docker engine, independently of polynfi's harness: for every
// task of tasks/, its Dockerfile built with the task directory as context
// gives the image dataset.jsonl names; in a container of it, the gold patch
// then eval.sh (as SWE-bench runs them) resolve the instance by SWE-bench
// 5.0.2's own grading (the oracle, when installed) and by polynfi's
// (grading.ReadSWEBenchLog), and eval.sh without a patch does not. The task
// repository and dataset.jsonl load as the same instances, and both are
// what build.py makes from ../polybench.
//
// Needs docker with the sample's base image polybench_python_base
// (.ci/docker.sh builds it); -short skips the container runs.
package swebench_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/swebenchoracle"
	"github.com/polynfi/polynfi/testlog"
)

func TestUpToDate(t *testing.T) {
	out, err := exec.Command("python3", "build.py", "--check").CombinedOutput()
	if err != nil {
		t.Fatalf("build.py --check: %v\n%s", err, out)
	}
}

// The task repository and the JSONL dataset are the same instances.
func TestTaskRepoMatchesDataset(t *testing.T) {
	rows, err := dataset.Load("dataset.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := dataset.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows.Errors)+len(tasks.Errors) != 0 {
		t.Fatalf("errors: %v %v", rows.Errors, tasks.Errors)
	}
	if len(rows.Instances) != 2 || len(tasks.Instances) != 2 {
		t.Fatalf("%d rows, %d tasks, want the 2 Python instances of ../polybench", len(rows.Instances), len(tasks.Instances))
	}
	for i, r := range rows.Instances {
		k := tasks.Instances[i]
		if k.BuildContext != mustAbs(t, filepath.Join("tasks", r.InstanceID)) || r.TestCommand != "" || r.RunProblem(false) != "" {
			t.Errorf("%s: build context %q, test_command %q, run problem %q", r.InstanceID, k.BuildContext, r.TestCommand, r.RunProblem(false))
		}
		opts := cmp.Options{cmpopts.IgnoreFields(dataset.Instance{}, "Extra", "Dockerfile", "BuildContext", "Row")}
		if diff := cmp.Diff(r, k, opts); diff != "" {
			t.Errorf("%s: dataset.jsonl and tasks/ differ (-jsonl +task):\n%s", r.InstanceID, diff)
		}
		if !testlog.SWEBenchParserKnown(r.LogParser) {
			t.Errorf("%s: log_parser %q", r.InstanceID, r.LogParser)
		}
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func dockerCLI(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("docker", args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// requireDocker skips without a Docker engine and the sample's base image,
// or fails when CI=true (CI provides both).
func requireDocker(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no container runs")
	}
	msg := ""
	if out, err := dockerCLI(t, "", "image", "inspect", "-f", "{{.Id}}", "polybench_python_base"); err != nil {
		msg = "docker engine or image polybench_python_base unavailable (.ci/docker.sh): " + strings.TrimSpace(out)
	}
	if msg != "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// runEval runs SWE-bench's in-container flow by hand: a container of
// image, patch applied with git apply, eval.sh run, its combined output
// returned. The container is removed whatever happens.
func runEval(t *testing.T, image, patch, script string) string {
	t.Helper()
	name := "polynfi-swebench-sample-" + strings.ReplaceAll(strings.ToLower(t.Name()), "/", "-")
	dockerCLI(t, "", "rm", "-f", name)
	if out, err := dockerCLI(t, "", "run", "-d", "--network", "none", "--label", "polynfi.test=swebench-sample", "--name", name, image, "sleep", "600"); err != nil {
		t.Fatalf("docker run: %v\n%s", err, out)
	}
	t.Cleanup(func() { dockerCLI(t, "", "rm", "-f", name) })
	if patch != "" {
		if out, err := dockerCLI(t, patch, "exec", "-i", "-w", "/testbed", name, "git", "apply", "--verbose", "-"); err != nil {
			t.Fatalf("git apply: %v\n%s", err, out)
		}
	}
	out, _ := dockerCLI(t, script, "exec", "-i", name, "bash", "-c", "cat > /eval.sh && /bin/bash /eval.sh")
	return out
}

func TestSampleResolvesInContainers(t *testing.T) {
	requireDocker(t)
	tasks, err := dataset.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	var logs []swebenchoracle.GradeRequest
	var want []bool
	for _, in := range tasks.Instances {
		if out, err := dockerCLI(t, "", "build", "-q", "-t", in.Image, in.BuildContext); err != nil {
			t.Fatalf("%s: docker build: %v\n%s", in.InstanceID, err, out)
		}
		for _, gold := range []bool{true, false} {
			patch := ""
			if gold {
				patch = in.Patch
			}
			log := runEval(t, in.Image, patch, in.EvalScript)
			r := grading.ReadSWEBenchLog(in.LogParser, []byte(log), testlog.SWEBenchContext{InstanceID: in.InstanceID})
			v := grading.GradeSWEBenchReading(in.FailToPass, in.PassToPass, in.EvalType, r)
			if v.Resolved != gold {
				t.Errorf("%s gold=%v: resolved %v (%s)\n%s", in.InstanceID, gold, v.Resolved, v.Reason, log)
			}
			if gold && (len(v.FailToPass.Success) != len(in.FailToPass) || len(v.PassToPass.Success) != len(in.PassToPass)) {
				t.Errorf("%s: gold passes %d/%d F2P, %d/%d P2P", in.InstanceID, len(v.FailToPass.Success), len(in.FailToPass), len(v.PassToPass.Success), len(in.PassToPass))
			}
			if !gold && len(v.PassToPass.Failure) != 0 {
				t.Errorf("%s: without the gold patch P2P tests fail: %v", in.InstanceID, v.PassToPass.Failure)
			}
			logs = append(logs, swebenchoracle.GradeRequest{Parser: in.LogParser, Log: log, InstanceID: in.InstanceID, EvalType: in.EvalType,
				FailToPass: in.FailToPass, PassToPass: in.PassToPass})
			want = append(want, gold)
		}
	}
	if swebenchoracle.Dir() == "" && os.Getenv("CI") != "true" {
		t.Log("SWE-bench oracle not installed: its grading of these logs not checked")
		return
	}
	_, graded := swebenchoracle.Run(t, nil, logs)
	for i, g := range graded {
		if g.Error != "" || g.Resolved != want[i] {
			t.Errorf("%s: SWE-bench %s resolved %v (error %q), want %v", logs[i].InstanceID, swebenchoracle.Version, g.Resolved, g.Error, want[i])
		}
	}
}
