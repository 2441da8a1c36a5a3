package bundle

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// runInstanceLogFile is the per-instance log SWE-bench's harness writes
// (constants LOG_INSTANCE) next to test_output.txt.
const runInstanceLogFile = "run_instance.log"

// runInstanceLog is a bundle's logs/<instance_id>/run_instance.log:
// polynfi's own account of the instance's evaluation, in the order the
// harness did it, written from its stored record only (result.json) and
// saying so in its first lines. SWE-bench's file is its logger's output
// (timestamped lines of the steps of run_evaluation.py run_instance); a
// record keeps the start and end times and each step's duration, not a
// time per step, so only those times are given. versions are the polynfi
// versions that wrote the run's records; ran says test_output.txt is in
// the bundle. Every line holds a value of the record; nothing is
// reconstructed.
//
// Lines: who and when; the sandbox and image; earlier attempts that ended
// in infrastructure failures; the test patch and each apply attempt of
// the model patch with its output (as git apply / patch printed it,
// truncated to 4 KiB by the harness); test files the patch edited and
// that were reset; the test run (exit status, duration against its
// timeout, parser, results read); the verdict of each grading mode; the
// error or infrastructure failure; the timing split.
func runInstanceLog(rec *runrecord.Record, versions []string, ran bool) []byte {
	var b bytes.Buffer
	line := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	by := "polynfi"
	if len(versions) > 0 {
		by += " " + strings.Join(versions, ", ")
	}
	line("Evaluation of %s by %s (model %s, run %d, run id %s).", rec.InstanceID, by, rec.Model, rec.Run, rec.RunID)
	line("This log was written by `polynfi report --bundle` from the instance's stored record; it is not the output of SWE-bench's harness.")
	line("Started %s, finished %s (%.2f s).", fmtTime(rec.StartedAt), fmtTime(rec.FinishedAt), rec.Timing.TotalS)
	line("Repository %s at base commit %s.", rec.Repo, rec.BaseCommit)
	if s := rec.Sandbox; s != nil {
		l := "Sandbox: runtime " + s.Runtime
		if s.Isolation != "" {
			l += ", isolation " + s.Isolation
		}
		if s.ID != "" {
			l += ", id " + s.ID
		}
		if s.Node != "" {
			l += ", node " + s.Node
		}
		line("%s.", l)
		for _, n := range s.Notes {
			line("Sandbox note: %s", n)
		}
	}
	if im := rec.Image; im != nil {
		l := "Image: " + im.Image
		if im.Source != "" {
			l += " (source " + im.Source
			if im.How != "" {
				l += ", " + im.How
			}
			l += ")"
		}
		line("%s.", l)
	}
	for i, a := range rec.RetriedInfraFailures {
		line("Attempt %d ended in an infrastructure failure (%s): %s; retried.", i+1, a.Reason, oneLine(a.Error))
	}
	if rec.Attempts > 1 {
		line("Attempt %d of the run.", rec.Attempts)
	}
	switch {
	case rec.TestPatchApply != nil:
		writeApply(&b, "Test patch", rec.TestPatchApply)
	case rec.Test != nil && rec.Test.TestExitCode != nil:
		line("Test patch: left to the eval script (eval.sh), as SWE-bench's harness leaves it; polynfi applied none.")
	}
	if rec.ModelPatchApply != nil {
		writeApply(&b, "Model patch", rec.ModelPatchApply)
	}
	if te := rec.TestEdits; te != nil {
		for _, f := range te.Reset {
			line("Test file edited by the patch, reset to base + test patch before the tests: %s", f)
		}
		for _, f := range te.Config {
			line("Test configuration changed by the patch (unresolved in every mode): %s", f)
		}
	}
	if t := rec.Test; t != nil {
		l := fmt.Sprintf("Tests: exit status %d", t.ExitCode)
		if t.TestExitCode != nil {
			l += fmt.Sprintf(" (the test command's own: %d)", *t.TestExitCode)
		}
		l += fmt.Sprintf(", %.2f s of a %.0f s timeout", t.DurationS, t.TimeoutS)
		if t.TimedOut {
			l += ", TIMED OUT"
		}
		line("%s.", l)
		if t.Isolation != "" {
			line("Tests ran with isolation %s.", t.Isolation)
		}
		for _, n := range t.Notes {
			line("Tests note: %s", n)
		}
		parser := t.Parser
		if parser == "" {
			parser = "none recognised"
		}
		l = fmt.Sprintf("Test output parsed: parser %s, %d results", parser, t.NumResults)
		if t.Stream != "" {
			l += ", from " + t.Stream
		}
		if len(t.JUnitReports) > 0 {
			l += ", JUnit reports " + strings.Join(t.JUnitReports, ", ")
		}
		line("%s.", l)
		if ran {
			line("Test output written to test_output.txt.")
		}
	} else {
		line("Tests: not run.")
	}
	for _, m := range []struct {
		name string
		v    grading.Verdict
	}{{"swebench", rec.Verdicts.SWEBench}, {"polybench", rec.Verdicts.PolyBench}, {"strict", rec.Verdicts.Strict}} {
		l := fmt.Sprintf("Result (%s grading): %s, resolved: %t", m.name, m.v.Status, m.v.Resolved)
		if m.v.Reason != "" {
			l += " (" + oneLine(m.v.Reason) + ")"
		}
		if m.name == string(rec.NativeMode) {
			l += "; the dataset's native mode"
		}
		line("%s.", l)
	}
	if rec.InfraReason != "" {
		line("Infrastructure failure: %s.", rec.InfraReason)
	}
	if rec.Error != "" {
		line("Error: %s", oneLine(rec.Error))
	}
	tm := rec.Timing
	line("Timing (s): image %.2f, workspace %.2f, apply %.2f, tests %.2f, parse %.2f, metrics %.2f, remove %.2f, total %.2f.",
		tm.ImageS, tm.WorkspaceS, tm.ApplyS, tm.TestS, tm.ParseS, tm.MetricsS, tm.RemoveS, tm.TotalS)
	return b.Bytes()
}

// writeApply writes how a patch applied: each attempt of the cascade with
// its output, indented, then the outcome.
func writeApply(b *bytes.Buffer, what string, ar *runrecord.ApplyResult) {
	for _, a := range ar.Attempts {
		ok := "failed"
		if a.OK {
			ok = "ok"
		}
		fmt.Fprintf(b, "%s: %s: %s\n", what, a.Method, ok)
		if out := strings.TrimRight(a.Output, "\n"); out != "" {
			for _, l := range strings.Split(out, "\n") {
				fmt.Fprintf(b, "    %s\n", l)
			}
		}
	}
	if ar.Applied {
		fmt.Fprintf(b, "%s: applied (%s).\n", what, ar.Method)
	} else {
		fmt.Fprintf(b, "%s: not applied by any attempt.\n", what)
	}
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "(not recorded)"
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// oneLine folds a message's line breaks into " / ".
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(strings.TrimSpace(s), "\n", " / ")), " ")
}
