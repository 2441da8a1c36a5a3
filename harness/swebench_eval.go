package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
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
type evalScriptLog = grading.EvalSections

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
// is graded by grading.GradeEvalSections; the model patch's test edits count
// (applyTestEdits). Source: SWE-bench 5.0.2 swebench/harness/
// run_evaluation.py run_instance.
func (h *Harness) runEvalScript(ctx context.Context, in dataset.Instance, wt *tree, rec *runrecord.Record, art *Artifacts, timeout time.Duration, te *runrecord.TestEdits) error {
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
	o := grading.GradeEvalSections(in, sec, scriptExit, timed)
	applyTestEdits(&o.Verdicts, te)
	rec.Test = &runrecord.TestRun{Command: art.Command, ExitCode: scriptExit, TestExitCode: o.ExitCode, TimedOut: timed, TimeoutS: timeout.Seconds(),
		DurationS: total.Seconds(), Isolation: isolation, Notes: append(notes, o.Notes...), Parser: o.Parser, NumResults: o.Results,
		LogSecret: secret, Workdir: wt.sb.Workdir()}
	rec.Verdicts, rec.PolyBenchOutput = o.Verdicts, o.Out
	rec.Timing.ParseS = time.Since(t).Seconds()
	return nil
}
