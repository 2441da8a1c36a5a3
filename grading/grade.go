package grading

import (
	"fmt"

	"github.com/polynfi/polynfi/testlog"
)

// Grade computes the three verdicts of a completed test run against the
// instance's FAIL_TO_PASS and PASS_TO_PASS lists, and SWE-PolyBench's extra
// output fields. It is pure.
//
// Hardening shared by every mode (deliberately unlike the published
// harnesses, which a patch can cheat this way): a FAIL_TO_PASS test passes
// only with status PASSED (not XFAIL, XPASS or SKIPPED, which a patch can
// cause from the code under test by calling pytest.xfail or pytest.skip),
// an id reported with conflicting statuses (a second test registered
// under the same title, a forged line) counts as failing, and a run whose
// test command exited non-zero while no parsed test FAILED or ERRORed is
// inconsistent in the polybench mode too (SWE-bench's rule; SWE-PolyBench
// reads the results alone, which a report file rewritten after the runner
// wrote it then decides).
func Grade(f2p, p2p []string, run RunOutcome) (Verdicts, PolyBenchOutput) {
	pb, out := gradePolyBench(f2p, p2p, run)
	v := Verdicts{PolyBench: pb, SWEBench: gradeSWEBench(f2p, p2p, run), Strict: gradeStrict(f2p, p2p, run)}
	harden(&v, f2p, p2p, run.Results)
	if !run.TimedOut && run.ExitCode != 0 && v.PolyBench.Status == StatusResolved && !anyFailed(run.Results) && !run.CanaryFailed {
		// The runner's exit status says something failed and no reading
		// shows what: the reading does not describe the run (a report
		// rewritten after the runner wrote it). SWE-bench's rule, kept
		// in every mode.
		v.PolyBench.Resolved, v.PolyBench.Status = false, StatusInconsistent
		v.PolyBench.Reason = fmt.Sprintf("no parsed test failed but the test command exited %d", run.ExitCode)
	}
	if run.TimedOut {
		reason := "test command killed at its timeout"
		for _, p := range []*Verdict{&v.PolyBench, &v.SWEBench, &v.Strict} {
			p.Resolved, p.Status, p.Reason = false, StatusTimedOut, reason
		}
	}
	return v, out
}

// anyFailed reports whether a result is FAILED or ERROR.
func anyFailed(results []testlog.Result) bool {
	for _, r := range results {
		if r.Status == testlog.Failed || r.Status == testlog.Error {
			return true
		}
	}
	return false
}

// harden applies the rules shared by every mode (see Grade): an F2P test
// whose statuses are not all PASSED, or any expected test with conflicting
// statuses, fails.
func harden(v *Verdicts, f2p, p2p []string, results []testlog.Result) {
	statuses := map[string]map[testlog.Status]bool{}
	for _, r := range results {
		if statuses[r.ID] == nil {
			statuses[r.ID] = map[testlog.Status]bool{}
		}
		statuses[r.ID][r.Status] = true
	}
	bad := map[string]string{}
	for _, t := range f2p {
		ss := statuses[t]
		if len(ss) > 1 {
			bad[t] = "reported with conflicting statuses"
		} else if len(ss) == 1 && !ss[testlog.Passed] {
			for s := range ss {
				bad[t] = fmt.Sprintf("%s, not PASSED", s)
			}
		}
	}
	for _, t := range p2p {
		if len(statuses[t]) > 1 {
			bad[t] = "reported with conflicting statuses"
		}
	}
	if len(bad) == 0 {
		return
	}
	for _, p := range []*Verdict{&v.PolyBench, &v.SWEBench, &v.Strict} {
		if p.Status != StatusResolved {
			continue
		}
		first := ""
		for _, t := range append(append([]string{}, f2p...), p2p...) {
			if _, ok := bad[t]; ok {
				first = t
				break
			}
		}
		p.Resolved, p.Status = false, StatusUnresolved
		p.Reason = fmt.Sprintf("%d expected test(s) not cleanly passing (first: %s: %s)", len(bad), first, bad[first])
		moveFailures(&p.FailToPass, bad)
		moveFailures(&p.PassToPass, bad)
	}
}

// moveFailures moves the tests of ts.Success that bad names to Failure.
func moveFailures(ts *TestsStatus, bad map[string]string) {
	keep := ts.Success[:0:0]
	for _, t := range ts.Success {
		if _, ok := bad[t]; ok {
			ts.Failure = append(ts.Failure, t)
		} else {
			keep = append(keep, t)
		}
	}
	ts.Success = keep
}

func failReason(v Verdict) string {
	var parts []string
	if n := len(v.FailToPass.Failure); n > 0 {
		parts = append(parts, fmt.Sprintf("%d FAIL_TO_PASS test(s) not passing (first: %s)", n, v.FailToPass.Failure[0]))
	}
	if n := len(v.PassToPass.Failure); n > 0 {
		parts = append(parts, fmt.Sprintf("%d PASS_TO_PASS test(s) failing (first: %s)", n, v.PassToPass.Failure[0]))
	}
	if len(parts) == 0 {
		return "unresolved"
	}
	if len(parts) == 2 {
		return parts[0] + "; " + parts[1]
	}
	return parts[0]
}
