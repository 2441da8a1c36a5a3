package harness

import (
	"context"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/swebenchoracle"
)

// The script polynfi runs for an eval_script is the one SWE-bench 5.0.2
// runs (exit status recorded after the end marker).
func TestSWEBenchEvalScriptOracle(t *testing.T) {
	t.Parallel()
	scripts := []string{
		"#!/bin/bash\nset -uxo pipefail\ncd /testbed\n: '>>>>> Start Test Output'\npytest -rA t.py\n: '>>>>> End Test Output'\ngit checkout abc t.py\n",
		"cd /testbed\necho '>>>>> Start Test Output'\nnpx jest\necho '>>>>> End Test Output'\n\nset -uxo pipefail\n",
		"#!/bin/bash\nmake test\n",
		"  #!/bin/bash\n: '>>>>> End Test Output'\n: '>>>>> End Test Output'\n",
	}
	_, _, want := swebenchoracle.RunAll(t, nil, nil, scripts)
	for i, s := range scripts {
		if got := swebEvalScript(s); got != want[i] {
			t.Errorf("script %d:\n got %q\nwant %q", i, got, want[i])
		}
	}
}

func containsStr(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// A row with a test_command that names a SWE-bench log_parser: the
// parser's reading is taken when it names more expected tests (a
// "[100%]" PASS_TO_PASS id that only it reads); an unknown name adds a
// note and grading goes on with detection.
func TestEvaluateTestCommandWithLogParser(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModeSWEBench)
	in := fx.inst
	in.TestCommand += "; echo 'PASSED                                                       [100%]'"
	in.PassToPass = append(append([]string{}, in.PassToPass...), "[100%]")
	gold := dataset.Prediction{InstanceID: in.InstanceID, ModelPatch: in.Patch}
	for _, tc := range []struct {
		parser, fw string
		resolved   bool
		note       string
	}{
		{"", "pytest", false, ""},
		{"parse_log_pytest", "swebench:parse_log_pytest", true, ""},
		{"parse_log_nosuch", "pytest", false, `log_parser "parse_log_nosuch" is not one polynfi implements`},
	} {
		in.LogParser = tc.parser
		rec, _, err := h.Evaluate(context.Background(), in, gold)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Resolved != tc.resolved || rec.Test.Parser != tc.fw || (tc.note != "" && !strings.Contains(strings.Join(rec.Test.Notes, "\n"), tc.note)) {
			t.Errorf("log_parser %q: resolved %v parser %q notes %q; verdict %+v", tc.parser, rec.Resolved, rec.Test.Parser, rec.Test.Notes, rec.Verdicts.SWEBench)
		}
		if !containsStr(rec.Verdicts.SWEBench.PassToPass.Success, "tests/test_calc.py::test_mul") {
			t.Errorf("log_parser %q: P2P successes %v, want the dataset's ids", tc.parser, rec.Verdicts.SWEBench.PassToPass.Success)
		}
	}
}
