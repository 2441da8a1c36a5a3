package grading

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/testlog"
)

// ModeMultiSWEBench is Multi-SWE-bench's definition of resolved, computed
// for the instances of Multi-SWE-bench rows (dataset.MultiSWEBench) beside
// the three modes of Modes, and native to those rows. Each test gets a
// transition (run, test, fix): its status at the base commit and with the
// test patch as the row records them (run_result, test_patch_result; the
// row's transition maps where those are absent) and with the model patch
// (the graded run), each PASS, FAIL, SKIP or NONE (not reported). Resolved
// ⇔ the graded run reports a test ∧ no test goes from PASS (test) to
// FAIL (fix) ∧ some test goes from not PASS to PASS ∧ no test that is NONE
// or SKIP with the test patch and PASS at the base fails with the model
// patch ∧ every test of p2p_tests ends PASS after PASS, of f2p_tests PASS
// after FAIL, of s2p_tests PASS after SKIP, of n2p_tests PASS after NONE.
// Read as Multi-SWE-bench's parsers report: PASSED passes, FAILED and ERROR
// fail, SKIPPED is skipped; XFAIL and XPASS (pytest's, which its
// languages' runners do not write) are NONE. A test reported with two
// statuses makes the run unresolved (Multi-SWE-bench's TestResult refuses
// a name in two of its lists and counts the instance as an error, not
// resolved). A run killed
// at its timeout is timed_out, as in every mode. Source: Multi-SWE-bench
// multi_swe_bench/harness/report.py (Report.check), gen_report.py
// (safe_generate_report: the p2p/f2p/s2p/n2p membership checks),
// test_result.py (TestResult).
const ModeMultiSWEBench Mode = "multi-swe-bench"

// msbStatus maps a testlog status to Multi-SWE-bench's; "" for one it does
// not read.
func msbStatus(s testlog.Status) string {
	switch s {
	case testlog.Passed:
		return dataset.MSBPass
	case testlog.Failed, testlog.Error:
		return dataset.MSBFail
	case testlog.Skipped:
		return dataset.MSBSkip
	}
	return ""
}

// GradeMultiSWEBench grades a run of a Multi-SWE-bench instance (m: its
// row's transitions and recorded runs) from the run's results in log
// order, the way ModeMultiSWEBench says. FailToPass and PassToPass list
// the row's f2p+s2p+n2p and p2p tests by whether each ended as its map
// says. It is pure.
func GradeMultiSWEBench(m *dataset.MultiSWEBench, results []testlog.Result, timedOut bool) Verdict {
	v := Verdict{FailToPass: TestsStatus{Success: []string{}, Failure: []string{}}, PassToPass: TestsStatus{Success: []string{}, Failure: []string{}}}
	fix := map[string]string{}
	var conflicts []string
	for _, r := range results {
		s := msbStatus(r.Status)
		if s == "" {
			continue
		}
		if prev, ok := fix[r.ID]; ok && prev != s {
			conflicts = append(conflicts, r.ID)
			if prev == dataset.MSBFail {
				continue // a failure is not outvoted
			}
		}
		fix[r.ID] = s
	}
	// The recorded statuses: the row's runs, else its transition maps.
	test, run := m.TestPatchResult.Status, m.RunResult.Status
	byMap := map[string]dataset.MSBTest{}
	for _, tm := range []map[string]dataset.MSBTest{m.P2P, m.F2P, m.S2P, m.N2P} {
		for name, t := range tm {
			byMap[name] = t
		}
	}
	if m.TestPatchResult == nil {
		test = func(name string) string {
			if t, ok := byMap[name]; ok {
				return t.Test
			}
			return dataset.MSBNone
		}
	}
	if m.RunResult == nil {
		run = func(name string) string {
			if t, ok := byMap[name]; ok {
				return t.Run
			}
			return dataset.MSBNone
		}
	}
	fixOf := func(name string) string {
		if s, ok := fix[name]; ok {
			return s
		}
		return dataset.MSBNone
	}
	// The lists: each expected test by whether it ended as its map says.
	ended := func(tm map[string]dataset.MSBTest, want string, ts *TestsStatus) (bad []string) {
		names := make([]string, 0, len(tm))
		for n := range tm {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if test(n) == want && fixOf(n) == dataset.MSBPass {
				ts.Success = append(ts.Success, n)
			} else {
				ts.Failure = append(ts.Failure, n)
				bad = append(bad, fmt.Sprintf("%q (%s → %s, want %s → PASS)", n, test(n), fixOf(n), want))
			}
		}
		return bad
	}
	var missing []string
	missing = append(missing, ended(m.F2P, dataset.MSBFail, &v.FailToPass)...)
	missing = append(missing, ended(m.S2P, dataset.MSBSkip, &v.FailToPass)...)
	missing = append(missing, ended(m.N2P, dataset.MSBNone, &v.FailToPass)...)
	missing = append(missing, ended(m.P2P, dataset.MSBPass, &v.PassToPass)...)

	unresolved := func(st Status, reason string) Verdict {
		v.Status, v.Reason = st, reason
		return v
	}
	switch {
	case timedOut:
		return unresolved(StatusTimedOut, "the test command hit its timeout")
	case len(fix) == 0:
		return unresolved(StatusUnresolved, "multi-swe-bench: no test results were captured from the run")
	case len(conflicts) > 0:
		sort.Strings(conflicts)
		return unresolved(StatusUnresolved, "multi-swe-bench: the run reports "+quoteList(conflicts)+" with two statuses (Multi-SWE-bench's TestResult refuses it: an error, not resolved)")
	}
	all := map[string]bool{}
	for n := range fix {
		all[n] = true
	}
	for _, r := range []*dataset.MSBResult{m.RunResult, m.TestPatchResult} {
		for _, n := range r.Names() {
			all[n] = true
		}
	}
	for n := range byMap {
		all[n] = true
	}
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	fixed := false
	for _, n := range names {
		t, f := test(n), fixOf(n)
		if t == dataset.MSBPass && f == dataset.MSBFail {
			return unresolved(StatusUnresolved, fmt.Sprintf("multi-swe-bench: %q passed with the test patch and fails with the model patch", n))
		}
		fixed = fixed || (t != dataset.MSBPass && f == dataset.MSBPass)
	}
	if !fixed {
		return unresolved(StatusUnresolved, "multi-swe-bench: no test goes from failing (or absent, or skipped) to passing")
	}
	for _, n := range names {
		if t := test(n); (t == dataset.MSBNone || t == dataset.MSBSkip) && fixOf(n) == dataset.MSBFail && run(n) == dataset.MSBPass {
			return unresolved(StatusUnresolved, fmt.Sprintf("multi-swe-bench: anomalous pattern: %q passes at the base commit, is %s with the test patch and fails with the model patch", n, t))
		}
	}
	if len(missing) > 0 {
		more := ""
		if len(missing) > 3 {
			more = fmt.Sprintf(" and %d more", len(missing)-3)
			missing = missing[:3]
		}
		return unresolved(StatusUnresolved, "multi-swe-bench: not as the row's transitions say: "+strings.Join(missing, ", ")+more)
	}
	v.Resolved, v.Status = true, StatusResolved
	return v
}

func quoteList(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}
