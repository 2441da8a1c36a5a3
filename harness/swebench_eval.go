package harness

import (
	"bytes"
	"context"
	"errors"
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

// swebReader reads an eval-script log with a parser (ReadSWEBenchLog's
// shape): the whole-log reading of SWE-bench, or the reading of the
// sections of a marked log (readSWEBenchSections).
type swebReader func(parser string, parse func(string) ([]testlog.Result, error)) SWEBenchReading

// gradeEvalScriptRun grades an unmarked log of a SWE-bench 5.x eval script
// (one stream, SWE-bench's own text markers) as SWE-bench 5.0.2 reads it
// (ReadSWEBenchLog); see gradeEvalScript. polynfi's own runs are graded
// from their marked sections (gradeEvalScriptSections).
func gradeEvalScriptRun(in dataset.Instance, log []byte, scriptExit int, timedOut bool) evalScriptOutcome {
	return gradeEvalScript(in, func(parser string, parse func(string) ([]testlog.Result, error)) SWEBenchReading {
		return readSWEBenchLog(parser, log, parse)
	}, log, scriptExit, timedOut)
}

// gradeEvalScriptSections grades the sections of a marked eval-script log
// (readEvalScriptLog): the test output is exactly the tests section and
// the test command's exit status the one the harness recorded
// (readSWEBenchSections); see gradeEvalScript.
func gradeEvalScriptSections(in dataset.Instance, sec evalScriptLog, scriptExit int, timedOut bool) evalScriptOutcome {
	if sec.ExitCode != nil {
		// The test lines' status, not the teardown's (whose script the
		// tests could have rewritten).
		scriptExit = *sec.ExitCode
	}
	return gradeEvalScript(in, func(parser string, parse func(string) ([]testlog.Result, error)) SWEBenchReading {
		return readSWEBenchSections(parser, sec, parse)
	}, sec.Tests, scriptExit, timedOut || sec.TimedOut)
}

// gradeEvalScript grades the log of a SWE-bench 5.x eval script read by
// read. The swebench verdict is SWE-bench 5.0.2's (the reading with the
// row's log_parser, GradeSWEBenchReading with its eval_type); polybench and
// strict grade the same parsed results, with the test command's recorded
// exit status (the script's own when none was recorded). A log_parser
// polynfi does not implement (or none) falls back to the framework
// detected in the log, with a note; test ids are then normalized for the
// reading and the verdicts list the dataset's own ids. A run killed at its
// timeout is timed_out in every mode. log is what the polybench mode's
// Java rule reads.
func gradeEvalScript(in dataset.Instance, read swebReader, log []byte, scriptExit int, timedOut bool) evalScriptOutcome {
	var o evalScriptOutcome
	f2p, p2p := in.FailToPass, in.PassToPass
	var r SWEBenchReading
	if testlog.SWEBenchParserKnown(in.LogParser) {
		o.parser = "swebench:" + in.LogParser
		c := testlog.SWEBenchContext{InstanceID: in.InstanceID, Version: in.Version}
		r = read(in.LogParser, func(s string) ([]testlog.Result, error) {
			return testlog.ParseSWEBench(in.LogParser, []byte(s), c)
		})
	} else {
		if in.LogParser == "" {
			o.notes = append(o.notes, "the row names no log_parser: the framework was detected from the log")
		} else {
			o.notes = append(o.notes, fmt.Sprintf("log_parser %q is not one polynfi implements: the framework was detected from the log", in.LogParser))
		}
		fw := ""
		r = read(in.LogParser, func(s string) ([]testlog.Result, error) {
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

// splitEvalScript splits an eval script at its markers: the lines before
// the first line holding SWE-bench's start marker (setup: the checkout and
// application of the test patch, any install), the lines between it and
// the first line after it holding the end marker (tests), and the lines
// after that (teardown), with "#!/bin/bash" and "set -uxo pipefail" lines
// dropped as swebEvalScript drops them. ok is false when the script lacks
// either marker line. Source: SWE-bench 5.0.2 swebench/harness/
// test_spec/python.py make_eval_script_list_py (the markers are lines of
// their own, ": '>>>>> Start Test Output'").
func splitEvalScript(script string) (setup, tests, teardown []string, ok bool) {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(script), "\n") {
		if l != "#!/bin/bash" && l != "set -uxo pipefail" {
			lines = append(lines, l)
		}
	}
	start := -1
	for i, l := range lines {
		if start < 0 && strings.Contains(l, dataset.EvalStartMarker) {
			start = i
		} else if start >= 0 && strings.Contains(l, dataset.EvalEndMarker) {
			return lines[:start], lines[start+1 : i], lines[i+1:], true
		}
	}
	return nil, nil, nil, false
}

// evalStateSave is bash that saves the shell's state for the next part of
// an eval script into the file "$1": variables (exported or not, arrays,
// attributes; bash's own dynamic ones left out), functions, the working
// directory, umask, shopt and set options (xtrace left to the next part),
// then a completion line. Errors of the dump itself are silenced; traps
// and background jobs are not carried (background processes stay alive in
// a container between Exec calls).
const evalStateSave = `__polynfi_save() {
  local __pn
  {
    for __pn in $(compgen -v); do
      case $__pn in
        BASH*|EUID|PPID|UID|SHELLOPTS|GROUPS|FUNCNAME|LINENO|RANDOM|SRANDOM|SECONDS|EPOCHSECONDS|EPOCHREALTIME|PIPESTATUS|DIRSTACK|HISTCMD|_|OPTIND|OPTARG|OPTERR|SHLVL|COMP_WORDBREAKS|HOSTNAME|HOSTTYPE|MACHTYPE|OSTYPE|PS4|__pn|__polynfi_*) ;;
        *) declare -p "$__pn" ;;
      esac
    done
    declare -f
    printf 'cd -- %q\n' "$PWD"
    umask -p
    shopt -p
    set +o | grep -v -e xtrace
    echo __polynfi_state_ok=1
  } > "$1.new" 2>/dev/null && mv -f -- "$1.new" "$1"
}
`

// evalStatePart is the bash of one part of a split eval script: the state
// of the previous part restored (load, a file path, "" for the first
// part), "set -uxo pipefail", the lines, then the exit status of the last
// line kept, the state saved to save, and that status returned. The
// harness's own lines are not traced.
func evalStatePart(load, save string, lines []string) string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	if load != "" {
		b.WriteString("{ source " + shellQuote(load) + "; } >/dev/null 2>&1\n")
	}
	b.WriteString("set -uxo pipefail\n")
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString("{ __polynfi_rc=$?; set +x; } 2>/dev/null\n")
	b.WriteString(evalStateSave)
	b.WriteString("__polynfi_save " + shellQuote(save) + "\n")
	b.WriteString("exit $__polynfi_rc\n")
	return b.String()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// unsplitLabel labels the output of an eval script that ran whole (it
// lacks its marker lines).
const unsplitLabel = "eval.sh (no marker lines)"

// evalScriptLog is an eval-script run read back from its marked log
// (readEvalScriptLog).
type evalScriptLog struct {
	Setup, Tests, Teardown []byte
	// Ran: the tests section exists (the setup ended and left its state).
	Ran bool
	// Split: the script had its marker lines (else it ran as one part).
	Split    bool
	ExitCode *int // the test lines' exit status (nil when they did not end)
	TimedOut bool
}

// readEvalScriptLog reads an eval-script log runEvalScript wrote with
// secret.
func readEvalScriptLog(log []byte, secret string) (evalScriptLog, error) {
	secs, err := readMarkedLog(log, secret)
	if err != nil {
		return evalScriptLog{}, err
	}
	var l evalScriptLog
	for i, s := range secs {
		switch s.Kind {
		case markSetup:
			if i != 0 {
				return l, errors.New("the setup section is not first")
			}
			l.Setup, l.Split = s.Data, s.Label != unsplitLabel
		case markTests:
			l.Tests, l.Ran = s.Data, true
		case markEnd:
		case markExit:
			n := s.Arg
			l.ExitCode = &n
		case markTimeout:
			l.TimedOut = true
		case markTeardown:
			l.Teardown = s.Data
		default:
			return l, fmt.Errorf("unexpected %s section in an eval script's log", s.Kind)
		}
	}
	if len(secs) == 0 || secs[0].Kind != markSetup {
		return l, errors.New("the log has no setup section")
	}
	return l, nil
}

// readSWEBenchSections is readSWEBenchLog for a marked log: not found when
// the data holds one of SWE-bench's failure lines or the tests never ran;
// the parser reads the tests section, and only it (SWE-bench falls back to
// the whole log when the text between its markers parses to nothing;
// here the setup's output, which runs the patch's code through installs,
// is never read as test results); the suite-ran evidence and the exit
// status come from the tests section and the harness's exit mark.
func readSWEBenchSections(parser string, l evalScriptLog, parse func(string) ([]testlog.Result, error)) SWEBenchReading {
	r := SWEBenchReading{Parser: parser}
	all := universalNewlines(append(append(append([]byte(nil), l.Setup...), l.Tests...), l.Teardown...))
	for _, b := range swebBadCodes {
		if strings.Contains(all, b) {
			r.Reason = fmt.Sprintf("the log reports %q", b)
			return r
		}
	}
	if !l.Split {
		r.Reason = fmt.Sprintf("the eval script lacks the %q or %q line: it has no tests to read", dataset.EvalStartMarker, dataset.EvalEndMarker)
		return r
	}
	if !l.Ran {
		r.Reason = "the eval script ended before its tests (its set-up lines exited or timed out)"
		return r
	}
	content := universalNewlines(l.Tests)
	results, err := parse(content)
	if err != nil {
		r.Reason = fmt.Sprintf("%s could not read the log: %v", parser, err)
		return r
	}
	r.Parsed = results
	if len(results) == 0 && !reSuiteRan().MatchString(content) {
		r.Reason = "no test in the log and no sign the suite ran"
		return r
	}
	r.ExitCode = l.ExitCode
	return r.withResults(results)
}

// runEvalScript is the end of the harness branch of a SWE-bench 5.x row,
// after the model patch applied in the sandbox (the test patch was not
// applied: the script does it). The script is split at its marker lines
// (splitEvalScript) and its three parts run as three Exec calls, each
// with its standard error sent to its standard output (SWE-bench's exec
// stream), the shell's state carried from one to the next (evalStatePart),
// within the instance's timeout in all. The harness, not the script,
// writes the markers: the log is framed with the attempt's run marks
// (runlog.go), whose labels are SWE-bench's markers and exit line, so that
// nothing the tests print can end their output early, start it again or
// state their exit status. A script without its marker lines runs whole,
// as SWE-bench runs it (swebEvalScript), and reads as not found. The log
// is graded by gradeEvalScriptSections; the model patch's test edits count
// (applyTestEdits). Source: SWE-bench 5.0.2 swebench/harness/
// run_evaluation.py run_instance.
func (h *Harness) runEvalScript(ctx context.Context, in dataset.Instance, wt *tree, rec *Record, art *Artifacts, timeout time.Duration, te *TestEdits) error {
	secret := newLogSecret()
	m := &markedLog{secret: secret}
	setup, tests, teardown, split := splitEvalScript(in.EvalScript)
	state := fmt.Sprintf("%s/eval-state-%s.sh", strings.TrimSuffix(wt.tmp, "/"), newLogSecret()[:12])
	scripts := map[string]string{}
	order := []string{"eval.sh"}
	if split {
		scripts["eval-setup.sh"] = evalStatePart("", state, setup)
		scripts["eval-tests.sh"] = evalStatePart(state, state, tests)
		scripts["eval-teardown.sh"] = evalStatePart(state, state+".end", teardown)
		order = []string{"eval-setup.sh", "eval-tests.sh", "eval-teardown.sh"}
	} else {
		scripts["eval.sh"] = swebEvalScript(in.EvalScript)
	}
	paths, err := wt.copyPatches(ctx, scripts)
	if err != nil {
		return err
	}
	var cmd strings.Builder
	for _, n := range order {
		fmt.Fprintf(&cmd, "# %s\n%s\n", n, scripts[n])
	}
	art.Command = cmd.String()
	deadline := time.Now().Add(timeout)
	var total time.Duration
	var isolation string
	var notes []string
	exec := func(name string) (runtime.Result, error) {
		left := time.Until(deadline)
		if left < time.Second {
			left = time.Second
		}
		res, err := wt.sb.Exec(ctx, runtime.Command{Script: "exec 2>&1\n/bin/bash " + shellQuote(paths[name]) + "\n", Env: h.Env, Timeout: left, Writable: h.Writable})
		if err != nil {
			return res, fmt.Errorf("run eval script (%s): %w", name, err)
		}
		total += res.Duration
		isolation = res.Isolation
		notes = append(notes, res.Notes...)
		return res, nil
	}
	out := func(r runtime.Result) []byte { return append(append([]byte(nil), r.Stdout...), r.Stderr...) }
	timedOut := func() {
		m.mark(fmt.Sprintf("Timeout error: %d seconds exceeded.", int(timeout.Seconds())), markTimeout, int(timeout.Seconds()))
	}

	scriptExit, timed := 0, false
	res, err := exec(order[0])
	if err != nil {
		return err
	}
	scriptExit = res.ExitCode
	if !split {
		m.section(unsplitLabel, markSetup, out(res))
		if timed = res.TimedOut; timed {
			timedOut()
		}
	} else {
		m.section("", markSetup, out(res))
		ok := false
		if res.TimedOut {
			timed = true
			timedOut()
		} else if files, err := wt.sb.CopyOut(ctx, state, 64<<20); err == nil && len(files) == 1 && bytes.HasSuffix(files[0].Data, []byte("__polynfi_state_ok=1\n")) {
			ok = true
		} else if runtime.InfraReason(err) != "" {
			return err
		}
		if ok {
			res, err = exec("eval-tests.sh")
			if err != nil {
				return err
			}
			scriptExit = res.ExitCode
			m.section(dataset.EvalStartMarker, markTests, out(res))
			if res.TimedOut {
				timed = true
				timedOut()
			} else {
				n := res.ExitCode
				m.mark(dataset.EvalEndMarker, markEnd, 0)
				m.mark(fmt.Sprintf("%s: %d", dataset.EvalExitCodeMarker, n), markExit, n)
				res, err = exec("eval-teardown.sh")
				if err != nil {
					return err
				}
				scriptExit = res.ExitCode
				m.section("", markTeardown, out(res))
				if res.TimedOut {
					timed = true
					timedOut()
				}
			}
		}
	}
	rec.Timing.TestS = total.Seconds()
	art.TestLog = m.b.Bytes()
	t := time.Now()
	sec, err := readEvalScriptLog(art.TestLog, secret)
	if err != nil {
		return fmt.Errorf("read back the eval script's log: %w", err)
	}
	o := gradeEvalScriptSections(in, sec, scriptExit, timed)
	applyTestEdits(&o.verdicts, te)
	rec.Test = &TestRun{Command: art.Command, ExitCode: scriptExit, TestExitCode: o.exitCode, TimedOut: timed, TimeoutS: timeout.Seconds(),
		DurationS: total.Seconds(), Isolation: isolation, Notes: append(notes, o.notes...), Parser: o.parser, NumResults: o.results,
		LogSecret: secret, Workdir: wt.sb.Workdir()}
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
