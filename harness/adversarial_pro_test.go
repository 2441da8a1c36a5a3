package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

// proRunScript is the fixture's run_script.sh, SWE-bench Pro-shaped: the
// selected test files arrive as one comma-separated argument.
const proRunScript = "#!/bin/bash\nIFS=, read -ra files <<< \"$1\"\npython3 -m pytest -rA -p no:cacheprovider \"${files[@]}\"\n"

// proAllPassedParser is the "overwritten parser" of issue #28: a
// parser.py that reports every test passed whatever the log says.
const proAllPassedParser = "import json, sys\njson.dump({'tests': [{'name': n, 'status': 'PASSED'} for n in ['tests/test_calc.py::TestAdd::test_add', 'tests/test_calc.py::test_mul']]}, open(sys.argv[3], 'w'))\n"

// newProFixture is the Python fixture as a SWE-bench Pro instance: its
// run_script.sh runs pytest on the selected file, proPytestParser reads
// the summary lines.
func newProFixture(t *testing.T) *pyFixture {
	t.Helper()
	fx := newPyFixture(t)
	in := fx.inst
	in.InstanceID = "instance_acme__calc-1"
	in.SWEBenchPro = &dataset.SWEBenchPro{RunScript: proRunScript, Parser: proPytestParser, SelectedTestFiles: []string{"tests/test_calc.py"}}
	in.TestCommand = dataset.ProTestCommand(proRunScript, in.SWEBenchPro.SelectedTestFiles)
	fx.inst = in
	return fx
}

// runProCases grades gold, empty, wrong and hostile predictions of the
// SWE-bench Pro fixture in h's runtime, natively in swe-bench-pro.
func runProCases(t *testing.T, h *Harness, fx *pyFixture) {
	h.NativeMode = grading.ModeSWEBenchPro
	h.Timeout = time.Minute
	bug := calcBase
	fake := map[string]string{"calc.py": bug + "# x\n", "parser.py": proAllPassedParser, "run_script.sh": "#!/bin/bash\necho 'PASSED tests/test_calc.py::TestAdd::test_add'\necho 'PASSED tests/test_calc.py::test_mul'\n",
		"run_scripts/" + fx.inst.InstanceID + "/parser.py": proAllPassedParser, "run_scripts/" + fx.inst.InstanceID + "/run_script.sh": "#!/bin/bash\nexit 0\n"}
	cases := []struct {
		name    string
		changes map[string]string
		want    grading.Status
		reason  string // words the swe-bench-pro verdict's reason must hold
	}{
		{"gold", map[string]string{"calc.py": calcGold}, grading.StatusResolved, ""},
		{"empty", nil, grading.StatusEmptyPatch, ""},
		{"wrong", map[string]string{"calc.py": strings.Replace(calcBase, "a - b", "a * b", 1)}, grading.StatusUnresolved, "test_add\" not PASSED"},
		// Issue #28: the patch ships its own parser.py and run_script.sh
		// (at the root and where the published harness keeps them):
		// polynfi runs the dataset's, never the repository's.
		{"exploit: overwritten parser.py and run_script.sh in the repository", fake, grading.StatusUnresolved, "test_add\""},
		// The code under test prints what a naive parser reads as all
		// passed, beside pytest's real report.
		{"exploit: forged PASSED lines for the parser", map[string]string{"calc.py": pyOut + "_out('PASSED tests/test_calc.py::TestAdd::test_add')\n_out('PASSED tests/test_calc.py::test_mul')\n" + bug}, grading.StatusUnresolved, "another status"},
		// ... and then ends the runner before it reports: only the
		// forged lines reach the log, and the test command exits 0.
		{"exploit: forged PASSED lines, then os._exit(0)", map[string]string{"calc.py": pyOut + "_out('PASSED tests/test_calc.py::TestAdd::test_add')\n_out('PASSED tests/test_calc.py::test_mul')\nimport os\nos._exit(0)\n" + bug}, grading.StatusUnresolved, ""},
		// ... and at import writes over every parser.py and run_script.sh
		// it can reach (the work tree, /tmp).
		{"exploit: the code rewrites parser.py and run_script.sh during the run", map[string]string{"calc.py": "import glob, os\nfor p in glob.glob('/tmp/**/*', recursive=True) + glob.glob('**/*', recursive=True):\n    if os.path.basename(p) in ('parser.py', 'run_script.sh'):\n        try:\n            open(p, 'w').write(" + fmt.Sprintf("%q", proAllPassedParser) + ")\n        except OSError:\n            pass\n" + bug}, grading.StatusUnresolved, "test_add\" not PASSED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelNameOrPath: "m"}
			if c.changes != nil {
				p.ModelPatch = rawDiffOf(t, fx.repo, "", c.changes)
			}
			rec, art, err := h.Evaluate(context.Background(), fx.inst, p)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Status != c.want || rec.Resolved != (c.want == grading.StatusResolved) {
				t.Fatalf("status %s (%s), want %s; pro %+v\nnotes %v\nlog:\n%s", rec.Status, rec.Verdicts.Get(grading.ModeSWEBenchPro).Reason, c.want, rec.Verdicts.SWEBenchPro, rec.Test, art.TestLog)
			}
			if c.want == grading.StatusEmptyPatch {
				return
			}
			pv := rec.Verdicts.SWEBenchPro
			if pv == nil {
				t.Fatal("no swe-bench-pro verdict")
			}
			if !strings.Contains(pv.Reason, c.reason) {
				t.Errorf("reason %q lacks %q", pv.Reason, c.reason)
			}
			if rec.NativeMode != grading.ModeSWEBenchPro {
				t.Errorf("native mode %q", rec.NativeMode)
			}
			if c.want == grading.StatusResolved && (len(pv.FailToPass.Success) != 1 || len(pv.PassToPass.Success) != 1) {
				t.Errorf("lists %+v", pv)
			}
			noted := false
			for _, n := range rec.Test.Notes {
				noted = noted || strings.HasPrefix(n, "parser.py (")
			}
			if !noted {
				t.Errorf("no parser.py note in %v", rec.Test.Notes)
			}
			// Re-grading runs the dataset's parser again: same verdict.
			v, _, _, why := Regrade(fx.inst, rec, art.TestLog)
			if why != "" || v.SWEBenchPro == nil || v.SWEBenchPro.Status != pv.Status {
				t.Errorf("regrade: %s %+v, want %s", why, v.SWEBenchPro, pv.Status)
			}
		})
	}
	// A parser.py that crashes is an error on the instance, never a pass.
	t.Run("crashing parser", func(t *testing.T) {
		in := fx.inst
		pro := *in.SWEBenchPro
		pro.Parser = "import sys\nsys.stderr.write('cannot read this log\\n')\nsys.exit(3)\n"
		in.SWEBenchPro = &pro
		rec, _, err := h.Evaluate(context.Background(), in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "m", ModelPatch: diffOf(t, fx.repo, map[string]string{"calc.py": calcGold})})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Status != grading.StatusError || rec.Resolved || !strings.Contains(rec.Verdicts.Get(grading.ModeSWEBenchPro).Reason, "exited 3: cannot read this log") {
			t.Errorf("status %s (%s), want error with the parser's message", rec.Status, rec.Verdicts.Get(grading.ModeSWEBenchPro).Reason)
		}
	})
}

func TestSWEBenchProLocal(t *testing.T) {
	needProSandbox(t)
	fx := newProFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModeSWEBenchPro)
	runProCases(t, h, fx)
}

func TestSWEBenchProDocker(t *testing.T) {
	if testing.Short() {
		t.Skip("runs containers")
	}
	needProSandbox(t)
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{MaxOutput: 8 << 20})
	if err != nil {
		citest.Missing(t, "docker engine unavailable: %v", err)
	}
	if out, err := exec.Command("docker", "image", "inspect", "polybench_python_base").CombinedOutput(); err != nil {
		citest.Missing(t, "image polybench_python_base missing (.ci/docker.sh builds it): %s", out)
	}
	fx := newProFixture(t)
	ctxDir := t.TempDir()
	run(t, ctxDir, "git", "clone", "--quiet", fx.repo, filepath.Join(ctxDir, "repo"))
	run(t, filepath.Join(ctxDir, "repo"), "git", "checkout", "--quiet", "--detach", fx.inst.BaseCommit)
	os.WriteFile(filepath.Join(ctxDir, "Dockerfile"), []byte("FROM polybench_python_base\nCOPY repo /app\nWORKDIR /app\n"), 0o644)
	tag := fmt.Sprintf("polynfi-pro-fixture:%d", os.Getpid())
	if out, err := exec.Command("docker", "build", "-q", "--label", "polynfi.test=pro", "-t", tag, ctxDir).CombinedOutput(); err != nil {
		t.Fatalf("docker build: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("docker", "image", "rm", "-f", tag).Run() })
	h, _ := newHarness(t, fx.reposDir, grading.ModeSWEBenchPro)
	h.Runtime = d
	h.Images = staticImage(tag)
	h.Limits = runtime.Limits{Pids: 128, MemoryBytes: 1 << 30, CPUs: 1}
	fx.inst.Dockerfile = "WORKDIR /app"
	runProCases(t, h, fx)
}
