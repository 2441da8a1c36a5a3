package grading

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/testlog"
)

// ModeSWEBenchPro is SWE-bench Pro's definition of resolved, computed for
// the instances of SWE-bench Pro rows (dataset.SWEBenchPro) beside the three
// modes of Modes, and native to those rows. The instance's run_script.sh is
// its test command; its parser.py reads the run's stdout and stderr and
// writes a list of tests with a status each (ProParse; harness.RunProParser
// runs it, outside the tests' sandbox: grading runs nothing). Resolved ⇔
// FAIL_TO_PASS ∪ PASS_TO_PASS ⊆ {names the parser reports PASSED}. A parser
// that cannot run, crashes, times out or writes output that is not a test
// list makes the instance StatusError in this mode, with the parser's
// message; a run killed at its timeout is timed_out, as in every mode.
//
// Hardening, deliberately unlike the published harness (which a patch can
// cheat this way): a name the parser reports PASSED and also with another
// status (a forged line beside the real one) is not passed; a run whose
// test command exited non-zero while the parser reports no test FAILED or
// ERROR is inconsistent (SWE-bench's rule, kept in every mode); an
// expected test that polynfi's own reading of the same log (the three
// modes' results) reports FAILED or ERROR under the same name is not
// passed; a log in which polynfi's readers find no test at all (lines
// printed by the code under test, which then ended the runner before it
// reported) is unresolved, whatever the parser reads in it. The published
// harness runs parser.py inside the tests' container, after the tests,
// where what the tests left behind can reach it; polynfi runs it outside
// (harness.RunProParser), and never runs a parser.py or run_script.sh of
// the repository: both come from the dataset.
// Source: SWE-bench Pro swe_bench_pro_eval.py (main: passed_tests,
// (f2p | p2p) <= passed_tests).
const ModeSWEBenchPro Mode = "swe-bench-pro"

// GradeSWEBenchPro grades a run of a SWE-bench Pro instance from its
// parser's reading (nil: the parser was not run) the way ModeSWEBenchPro
// says; results are polynfi's own reading of the same run (dissent only),
// exitCode and timedOut the test command's. FailToPass and PassToPass
// list each expected test by whether it passed. It is pure.
func GradeSWEBenchPro(f2p, p2p []string, parse *ProParse, results []testlog.Result, exitCode int, timedOut bool) Verdict {
	v := Verdict{FailToPass: TestsStatus{Success: []string{}, Failure: []string{}}, PassToPass: TestsStatus{Success: []string{}, Failure: []string{}}}
	end := func(st Status, reason string) Verdict {
		v.Resolved, v.Status, v.Reason = false, st, reason
		return v
	}
	if timedOut {
		v.FailToPass.Failure, v.PassToPass.Failure = append([]string{}, f2p...), append([]string{}, p2p...)
		return end(StatusTimedOut, "the test command hit its timeout")
	}
	if parse == nil {
		v.FailToPass.Failure, v.PassToPass.Failure = append([]string{}, f2p...), append([]string{}, p2p...)
		return end(StatusError, "swe-bench-pro: the instance's parser.py was not run")
	}
	if parse.Err != "" {
		v.FailToPass.Failure, v.PassToPass.Failure = append([]string{}, f2p...), append([]string{}, p2p...)
		return end(StatusError, "swe-bench-pro: "+parse.Err)
	}
	passed, other := map[string]bool{}, map[string]bool{}
	anyFailed := false
	for _, t := range parse.Tests {
		if t.Status == "PASSED" {
			passed[t.Name] = true
		} else {
			other[t.Name] = true
			anyFailed = anyFailed || t.Status == "FAILED" || t.Status == "ERROR"
		}
	}
	dissent := map[string]bool{}
	for _, r := range results {
		if r.Status == testlog.Failed || r.Status == testlog.Error {
			dissent[r.ID] = true
		}
	}
	var why []string
	split := func(ids []string, ts *TestsStatus) {
		for _, id := range ids {
			switch {
			case passed[id] && !other[id] && !dissent[id]:
				ts.Success = append(ts.Success, id)
				continue
			case !passed[id] && !other[id]:
				why = append(why, fmt.Sprintf("%q not in the parser's output", id))
			case !passed[id]:
				why = append(why, fmt.Sprintf("%q not PASSED", id))
			case other[id]:
				why = append(why, fmt.Sprintf("%q reported PASSED and with another status", id))
			default:
				why = append(why, fmt.Sprintf("%q PASSED for parser.py, failed in polynfi's reading of the same log", id))
			}
			ts.Failure = append(ts.Failure, id)
		}
	}
	split(f2p, &v.FailToPass)
	split(p2p, &v.PassToPass)
	switch {
	case len(results) == 0:
		return end(StatusUnresolved, "swe-bench-pro: polynfi's readers find no test run in the log parser.py read: no runner's report corroborates it (the published harness takes the parser's word)")
	case len(why) > 0:
		sort.Strings(why)
		more := ""
		if len(why) > 3 {
			more = fmt.Sprintf(" and %d more", len(why)-3)
			why = why[:3]
		}
		return end(StatusUnresolved, "swe-bench-pro: "+strings.Join(why, ", ")+more)
	case exitCode != 0 && !anyFailed:
		return end(StatusInconsistent, fmt.Sprintf("swe-bench-pro: parser.py reports no test FAILED or ERROR but the test command exited %d", exitCode))
	}
	v.Resolved, v.Status = true, StatusResolved
	return v
}

// ProTest is one test of a parser.py's output: its name and status as the
// parser wrote them (SWE-bench Pro's TestStatus names: PASSED, FAILED,
// SKIPPED, ERROR).
type ProTest struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}

// ProParse is what running an instance's parser.py on a run's logs gave
// (harness.RunProParser, which runs it): the tests of its output.json in
// order, or Err, why there is no reading (the parser could not run,
// crashed, timed out, or wrote no output or output that is not {"tests":
// [{"name": string, "status": string}, ...]}), with the tail of what it
// wrote on stderr. DurationS is its wall time in seconds.
type ProParse struct {
	Tests     []ProTest `json:"tests,omitempty"`
	Err       string    `json:"error,omitempty"`
	DurationS float64   `json:"duration_s"`
}
