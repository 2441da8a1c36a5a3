package harness

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/testlog"
)

// swebEvalScript is the script SWE-bench 5.0.2 runs for an eval_script:
// its "#!/bin/bash" and "set -uxo pipefail" lines dropped and put back at
// the top, and the test command's exit status recorded: "SWEBENCH_TEST_
// EXIT_CODE=$?" before the first line holding the end marker, an echo of
// "<EvalExitCodeMarker>: $SWEBENCH_TEST_EXIT_CODE" after it (a script
// without the end marker is left as it is). Source: SWE-bench 5.0.2
// swebench/harness/utils.py parse_eval_script, record_test_exit_code;
// types.py TestSpec.eval_script.
func swebEvalScript(script string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(script), "\n") {
		if l != "#!/bin/bash" && l != "set -uxo pipefail" {
			lines = append(lines, l)
		}
	}
	for i, l := range lines {
		if strings.Contains(l, dataset.EvalEndMarker) {
			rest := append([]string{"SWEBENCH_TEST_EXIT_CODE=$?", l, `echo "` + dataset.EvalExitCodeMarker + `: $SWEBENCH_TEST_EXIT_CODE"`}, lines[i+1:]...)
			lines = append(lines[:i:i], rest...)
			break
		}
	}
	return strings.Join(append([]string{"#!/bin/bash", "set -uxo pipefail"}, lines...), "\n") + "\n"
}

// evalScriptOutcome is the grading of an eval-script run.
type evalScriptOutcome struct {
	verdicts Verdicts
	out      PolyBenchOutput
	parser   string   // "swebench:<log_parser>", or the framework detected
	notes    []string // why the row's log_parser was not used
	results  int
	exitCode *int // the test command's exit status the script recorded
}

// gradeEvalScriptRun grades the log of a SWE-bench 5.x eval script. The
// swebench verdict is SWE-bench 5.0.2's (ReadSWEBenchLog with the row's
// log_parser, GradeSWEBenchReading with its eval_type); polybench and
// strict grade the same parsed results, with the test command's recorded
// exit status (the script's own when none was recorded). A log_parser
// polynfi does not implement (or none) falls back to the framework
// detected in the log, with a note; test ids are then normalized for the
// reading and the verdicts list the dataset's own ids. A run killed at its
// timeout is timed_out in every mode.
func gradeEvalScriptRun(in dataset.Instance, log []byte, scriptExit int, timedOut bool) evalScriptOutcome {
	var o evalScriptOutcome
	f2p, p2p := in.FailToPass, in.PassToPass
	var r SWEBenchReading
	if testlog.SWEBenchParserKnown(in.LogParser) {
		o.parser = "swebench:" + in.LogParser
		r = ReadSWEBenchLog(in.LogParser, log, testlog.SWEBenchContext{InstanceID: in.InstanceID, Version: in.Version})
	} else {
		if in.LogParser == "" {
			o.notes = append(o.notes, "the row names no log_parser: the framework was detected from the log")
		} else {
			o.notes = append(o.notes, fmt.Sprintf("log_parser %q is not one polynfi implements: the framework was detected from the log", in.LogParser))
		}
		fw := ""
		r = readSWEBenchLog(in.LogParser, log, func(s string) ([]testlog.Result, error) {
			d, ok := testlog.Detect([]byte(s))
			if !ok {
				return nil, nil
			}
			fw = string(d)
			return testlog.Parse(d, []byte(s))
		})
		o.parser = fw
		f2p, p2p = expectedIDs(in.FailToPass, fw, ""), expectedIDs(in.PassToPass, fw, "")
	}
	parsed := r.Parsed
	o.exitCode = r.ExitCode
	exit := scriptExit
	if r.ExitCode != nil {
		exit = *r.ExitCode
	}
	o.results = len(parsed)
	o.verdicts, o.out = Grade(f2p, p2p, RunOutcome{Results: parsed, ExitCode: exit, TimedOut: timedOut, Language: in.Language, Framework: o.parser, Log: log})
	if !timedOut {
		o.verdicts.SWEBench = GradeSWEBenchReading(f2p, p2p, in.EvalType, r)
	}
	respellVerdicts(&o.verdicts, f2p, in.FailToPass, p2p, in.PassToPass)
	return o
}

// swebWorkdir is where SWE-bench's images hold the repository
// (CONTAINER_WORKDIR of swebench/image_builder/constants), used for a row
// whose image comes without a Dockerfile to say otherwise.
const swebWorkdir = "/testbed"

// usesEvalScript reports whether the instance runs SWE-bench 5.x's way: an
// eval_script and no test_command.
func usesEvalScript(in dataset.Instance) bool {
	return strings.TrimSpace(in.TestCommand) == "" && strings.TrimSpace(in.EvalScript) != ""
}

// runEvalScript is the end of the harness branch of a SWE-bench 5.x row,
// after the model patch applied in the sandbox (the test patch was not
// applied: the script does it): the script (swebEvalScript) is copied into
// the sandbox and run with bash, its standard error sent to its standard
// output so that the log interleaves them as SWE-bench's exec stream does,
// with the instance's timeout; the log is graded by gradeEvalScriptRun.
// The log is the script's output, followed on a timeout by SWE-bench's
// "Timeout error" line. Source: SWE-bench 5.0.2
// swebench/harness/run_evaluation.py run_instance.
func (h *Harness) runEvalScript(ctx context.Context, in dataset.Instance, wt *tree, rec *Record, art *Artifacts, timeout time.Duration) error {
	script := swebEvalScript(in.EvalScript)
	path := wt.evalScript
	if path == "" {
		var err error
		if path, err = wt.copyPatch(ctx, "eval.sh", script); err != nil {
			return err
		}
	}
	art.Command = script
	run := "exec 2>&1\n/bin/bash '" + strings.ReplaceAll(path, "'", `'\''`) + "'\n"
	res, err := wt.sb.Exec(ctx, runtime.Command{Script: run, Env: h.Env, Timeout: timeout, Writable: h.Writable})
	if err != nil {
		return fmt.Errorf("run eval script: %w", err)
	}
	rec.Timing.TestS = res.Duration.Seconds()
	log := append(append([]byte(nil), res.Stdout...), res.Stderr...)
	if res.TimedOut {
		log = append(log, fmt.Sprintf("\n\nTimeout error: %d seconds exceeded.", int(timeout.Seconds()))...)
	}
	art.TestLog = log
	t := time.Now()
	o := gradeEvalScriptRun(in, log, res.ExitCode, res.TimedOut)
	rec.Test = &TestRun{Command: script, ExitCode: res.ExitCode, TestExitCode: o.exitCode, TimedOut: res.TimedOut, TimeoutS: timeout.Seconds(),
		DurationS: res.Duration.Seconds(), Isolation: res.Isolation, Notes: append(res.Notes, o.notes...), Parser: o.parser, NumResults: o.results}
	rec.Verdicts, rec.PolyBenchOutput = o.verdicts, o.out
	rec.Timing.ParseS = time.Since(t).Seconds()
	return nil
}

// withLogParser adds, for a row with a test_command that names a SWE-bench
// log_parser, the reading of the log by that parser (framework
// "swebench:<name>", ids as SWE-bench spells them) after the others:
// chooseReading takes it when it names more of the expected tests (a
// published PASS_TO_PASS list with "[100%]"), the earlier readings on a
// tie. A log_parser polynfi does not implement adds a note instead.
func withLogParser(cands []candidate, in dataset.Instance, log []byte, notes []string) ([]candidate, []string) {
	switch {
	case in.LogParser == "":
		return cands, notes
	case !testlog.SWEBenchParserKnown(in.LogParser):
		return cands, append(notes, fmt.Sprintf("log_parser %q is not one polynfi implements: the framework was detected from the log", in.LogParser))
	}
	rs, err := testlog.ParseSWEBench(in.LogParser, []byte(universalNewlines(log)), testlog.SWEBenchContext{InstanceID: in.InstanceID, Version: in.Version})
	if err != nil {
		return cands, append(notes, fmt.Sprintf("%s could not read the log: %v", in.LogParser, err))
	}
	return append(cands, candidate{"swebench:" + in.LogParser, rs}), notes
}
