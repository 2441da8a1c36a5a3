package harness

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/testlog"
)

// Grading of a SWE-bench 5.x eval-script log, as SWE-bench release 5.0.2
// grades it. Source: SWE-bench 5.0.2 swebench/harness/grading.py
// (get_logs_eval, _resolve_case, test_passed, test_maintained, test_failed,
// get_eval_tests_report, get_resolution_status, SUITE_RAN), constants
// (the >>>>> markers) and utils.py record_test_exit_code. polynfi's own
// code; TestSWEBenchGradingOracle checks it against SWE-bench itself.

// Lines SWE-bench's harness and eval scripts print that make a log
// ungradable when present anywhere in it.
var swebBadCodes = []string{
	">>>>> Patch Apply Failed",
	">>>>> Reset Failed",
	">>>>> Tests Errored",
	">>>>> Tests Timed Out",
}

// reSuiteRan is SWE-bench's evidence that a test runner ran when its
// parser read no test (every count non-zero).
var reSuiteRan = sync.OnceValue(func() *regexp.Regexp {
	return testlog.MustCompilePython(`(?m)Executed [1-9]\d* of \d+` +
		`|TOTAL: [1-9]\d* (?:SUCCESS|FAILED)` +
		`|[1-9]\d* passing` +
		`|Tests:\s+[1-9]\d*` +
		`|Test Suites:\s+(?:\d+ \w+, )*[1-9]\d* total` +
		`|^# tests [1-9]\d*` +
		`|[1-9]\d* specs?, \d+ failures?` +
		`|': ok$`)
})

var reTestExitCode = sync.OnceValue(func() *regexp.Regexp {
	return testlog.MustCompilePython(regexp.QuoteMeta(dataset.EvalExitCodeMarker) + `:\s*(-?\d+)`)
})

// SWEBenchReading is what SWE-bench's get_logs_eval makes of an eval
// log: the status map its log parser read (Results, one per id in order of
// first appearance with the last status), whether the log counts as a
// completed run (Found; when false the instance is unresolved and Results
// is empty), and why not (Reason). ExitCode is the test command's exit
// status the eval script recorded after the end marker, nil when absent.
type SWEBenchReading struct {
	Parser  string
	Results []testlog.Result
	// Parsed is what the parser read, also when the log is not found (for
	// the other grading modes and the record).
	Parsed   []testlog.Result
	Found    bool
	Reason   string
	ExitCode *int
	// Inconsistent marks the reason "the test command exited non-zero
	// while no parsed test failed" (a log that does not describe the run).
	Inconsistent bool
}

// universalNewlines turns "\r\n" and lone "\r" into "\n", as Python's
// text-mode open() does when SWE-bench reads a log.
func universalNewlines(b []byte) string {
	s := string(b)
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// ReadSWEBenchLog reads an eval-script log the way SWE-bench 5.0.2's
// get_logs_eval does, with the SWE-bench parser called parser (which must
// be testlog.SWEBenchParserKnown): not found when the log holds one of the
// harness's failure lines or lacks the start or end marker; the parser
// reads the text between the first start marker and the end marker after
// it, and the whole log when that gives nothing; not found when nothing
// was read and no runner summary shows the suite ran, or when the
// recorded exit status is non-zero while no parsed test FAILED or ERRORed.
// A parser that fails (as SWE-bench's raises) is not found too.
func ReadSWEBenchLog(parser string, log []byte, c testlog.SWEBenchContext) SWEBenchReading {
	return readSWEBenchLog(parser, log, func(s string) ([]testlog.Result, error) {
		return testlog.ParseSWEBench(parser, []byte(s), c)
	})
}

// readSWEBenchLog is ReadSWEBenchLog with the parser given as a function.
func readSWEBenchLog(parser string, log []byte, parse func(string) ([]testlog.Result, error)) SWEBenchReading {
	r := SWEBenchReading{Parser: parser}
	content := universalNewlines(log)
	for _, b := range swebBadCodes {
		if strings.Contains(content, b) {
			r.Reason = fmt.Sprintf("the log reports %q", b)
			return r
		}
	}
	if !strings.Contains(content, dataset.EvalStartMarker) || !strings.Contains(content, dataset.EvalEndMarker) {
		r.Reason = fmt.Sprintf("the log lacks the %q or %q marker: the eval script did not run to its tests", dataset.EvalStartMarker, dataset.EvalEndMarker)
		return r
	}
	sliced := content[strings.Index(content, dataset.EvalStartMarker)+len(dataset.EvalStartMarker):]
	if i := strings.Index(sliced, dataset.EvalStartMarker); i >= 0 {
		sliced = sliced[:i]
	}
	if i := strings.Index(sliced, dataset.EvalEndMarker); i >= 0 {
		sliced = sliced[:i]
	}
	results, err := parse(sliced)
	if err == nil && len(results) == 0 {
		results, err = parse(content)
	}
	if err != nil {
		r.Reason = fmt.Sprintf("%s could not read the log: %v", parser, err)
		return r
	}
	r.Parsed = results
	if len(results) == 0 && !reSuiteRan().MatchString(content) {
		r.Reason = "no test in the log and no sign the suite ran"
		return r
	}
	if m := reTestExitCode().FindStringSubmatch(content); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			r.ExitCode = &n
		}
	}
	return r.withResults(results)
}

// swebMap is a status map with SWE-bench's lookups.
type swebMap struct {
	order  []string
	status map[string]testlog.Status
}

// withResults finishes a reading whose log parsed to results: a test
// command that exited non-zero while no parsed test failed or errored
// makes the reading inconsistent (the log does not describe the run);
// otherwise the results are the reading's.
func (r SWEBenchReading) withResults(results []testlog.Result) SWEBenchReading {
	if r.ExitCode != nil && *r.ExitCode != 0 && len(results) > 0 {
		bad := false
		for _, x := range results {
			bad = bad || x.Status == testlog.Failed || x.Status == testlog.Error
		}
		if !bad {
			r.Reason = fmt.Sprintf("the test command exited %d but no parsed test failed: the log does not describe the run", *r.ExitCode)
			r.Inconsistent = true
			return r
		}
	}
	r.Results, r.Found = results, true
	return r
}

func newSWEBMap(results []testlog.Result) swebMap {
	m := swebMap{status: map[string]testlog.Status{}}
	for _, r := range results {
		if _, ok := m.status[r.ID]; !ok {
			m.order = append(m.order, r.ID)
		}
		m.status[r.ID] = r.Status
	}
	return m
}

// resolve is SWE-bench's _resolve_case: the id itself, or for a truncated
// parametrized id (more "[" than "]") the first id it prefixes when all
// the ids it prefixes agree on passing (PASSED or XFAIL) or not.
func (m swebMap) resolve(t string) (testlog.Status, bool) {
	if s, ok := m.status[t]; ok {
		return s, true
	}
	if strings.Count(t, "[") <= strings.Count(t, "]") {
		return "", false
	}
	first, seen := "", map[bool]bool{}
	for _, k := range m.order {
		if strings.HasPrefix(k, t) {
			if first == "" {
				first = k
			}
			seen[passing(m.status[k])] = true
		}
	}
	if first == "" || len(seen) != 1 {
		return "", false
	}
	return m.status[first], true
}

// GradeSWEBenchReading grades a reading against f2p and p2p (the
// dataset's ids, kept as spelled) by SWE-bench 5.0.2's
// get_eval_tests_report and get_resolution_status. pass_and_fail: an F2P
// test succeeds when PASSED or XFAIL and fails when missing, FAILED, ERROR
// or SKIPPED (any other status puts it in neither list); a P2P test also
// succeeds when SKIPPED. fail_only: a test fails only when its exact id is
// FAILED. Resolved ⇔ the log was found and every listed test succeeded
// (a list with neither successes nor failures counts as all succeeded).
func GradeSWEBenchReading(f2p, p2p []string, evalType string, r SWEBenchReading) Verdict {
	m := newSWEBMap(r.Results)
	v := Verdict{Status: StatusUnresolved, FailToPass: TestsStatus{Success: []string{}, Failure: []string{}},
		PassToPass: TestsStatus{Success: []string{}, Failure: []string{}}}
	classify := func(t string, isP2P bool, ts *TestsStatus) {
		if evalType == dataset.EvalTypeFailOnly {
			if m.status[t] == testlog.Failed {
				ts.Failure = append(ts.Failure, t)
			} else {
				ts.Success = append(ts.Success, t)
			}
			return
		}
		s, ok := m.resolve(t)
		switch {
		case ok && (passing(s) || isP2P && s == testlog.Skipped):
			ts.Success = append(ts.Success, t)
		case !ok || s == testlog.Failed || s == testlog.Error || s == testlog.Skipped:
			ts.Failure = append(ts.Failure, t)
		}
	}
	for _, t := range f2p {
		classify(t, false, &v.FailToPass)
	}
	for _, t := range p2p {
		classify(t, true, &v.PassToPass)
	}
	if !r.Found {
		v.Reason = r.Reason
		if r.Inconsistent {
			v.Status = StatusInconsistent
		}
		return v
	}
	if len(v.FailToPass.Failure) == 0 && len(v.PassToPass.Failure) == 0 {
		v.Resolved, v.Status = true, StatusResolved
		return v
	}
	v.Reason = failReason(v)
	return v
}

// respellVerdicts writes the dataset's own spelling of every test id back
// into verdicts graded under normalized ids (expectedIDs: normF2P[i] is
// origF2P[i] as the reading spells it, likewise for P2P), so that records
// list FAIL_TO_PASS and PASS_TO_PASS tests as the dataset does. A reason
// naming a first failing test is rewritten with it.
func respellVerdicts(v *Verdicts, normF2P, origF2P, normP2P, origP2P []string) {
	back := func(norm, orig []string) map[string]string {
		m := make(map[string]string, len(norm))
		for i, n := range norm {
			if _, dup := m[n]; !dup && i < len(orig) && n != orig[i] {
				m[n] = orig[i]
			}
		}
		return m
	}
	f2p, p2p := back(normF2P, origF2P), back(normP2P, origP2P)
	if len(f2p) == 0 && len(p2p) == 0 {
		return
	}
	fix := func(ids []string, m map[string]string) {
		for i, id := range ids {
			if o, ok := m[id]; ok {
				ids[i] = o
			}
		}
	}
	for _, x := range []*Verdict{&v.PolyBench, &v.SWEBench, &v.Strict} {
		reasoned := x.Status == StatusUnresolved && x.Reason != "" && x.Reason == failReason(*x)
		fix(x.FailToPass.Success, f2p)
		fix(x.FailToPass.Failure, f2p)
		fix(x.PassToPass.Success, p2p)
		fix(x.PassToPass.Failure, p2p)
		if reasoned {
			x.Reason = failReason(*x)
		}
	}
}
