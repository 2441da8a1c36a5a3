package harness

import (
	"context"
	"fmt"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// Regrade re-reads a record's stored test log with the current parsers and
// grades it again in every mode against the instance's FAIL_TO_PASS and
// PASS_TO_PASS lists, without running anything. The log is read only
// through its run marks carrying the record's secret (Record.Test.
// LogSecret; runlog.go), as at grading time: its streams, exit status and
// report files are taken from the harness's marks, never from text the
// tests printed; the model patch's test edits (Record.TestEdits) count as
// they did. notRegraded says why a record cannot be re-graded from its
// log ("" when it was): no test ran (the patch did not apply, an error, an
// empty patch), or the log carries no marks with the record's secret (a
// record written by an earlier polynfi, or a log altered since). A stored
// validation is not consulted: a run that parsed to no test is
// infra_failure in strict mode only when the log carries a known sign of
// a broken environment. The one thing it runs: a SWE-bench Pro instance's
// parser.py, again on the stored streams, in its own local sandbox
// (RunProParser).
func Regrade(in dataset.Instance, rec *runrecord.Record, log []byte) (v grading.Verdicts, out grading.PolyBenchOutput, framework, notRegraded string) {
	if rec.Test == nil {
		return grading.Verdicts{}, grading.PolyBenchOutput{}, "", fmt.Sprintf("no test log to re-grade (%s)", rec.Status)
	}
	if rec.Test.LogSecret == "" {
		return grading.Verdicts{}, grading.PolyBenchOutput{}, "", "the record names no run secret (written by an earlier polynfi): its log cannot be told from what the tests printed"
	}
	if usesEvalScript(in) {
		secs, err := readEvalScriptLog(log, rec.Test.LogSecret)
		if err != nil {
			return grading.Verdicts{}, grading.PolyBenchOutput{}, "", "the stored log does not read with the record's run marks: " + err.Error()
		}
		o := grading.GradeEvalSections(in, secs, rec.Test.ExitCode, rec.Test.TimedOut)
		applyTestEdits(&o.Verdicts, rec.TestEdits)
		applyRunnerFindings(&o.Verdicts, rec.RunnerInternals)
		return o.Verdicts, o.Out, o.Parser, ""
	}
	l, err := readTestCommandLog(log, rec.Test.LogSecret)
	if err != nil {
		return grading.Verdicts{}, grading.PolyBenchOutput{}, "", "the stored log does not read with the record's run marks: " + err.Error()
	}
	if in.SWEBenchPro != nil {
		l.Pro = runProParserOf(context.Background(), in, l)
	}
	g := gradeTestCommand(in, l, rec.Test.Workdir, rec.TestEdits, rec.Test.Canaries)
	(&Harness{}).attribute(&g.verdicts, in, l, log)
	grading.RespellVerdicts(&g.verdicts, g.f2p, in.FailToPass, g.p2p, in.PassToPass)
	applyRunnerFindings(&g.verdicts, rec.RunnerInternals)
	return g.verdicts, g.out, g.framework, ""
}
