package grading

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/testlog"
)

// ModeSWEBench is SWE-bench's rule as of release 5.0.2: the log is first
// checked (no parsed test at all: unresolved; the command exited
// non-zero while no test FAILED or ERROR: unresolved, status
// inconsistent), then a test passes when its (last) status is PASSED or
// XFAIL and fails when it is missing, FAILED, ERROR or SKIPPED; a P2P
// test that is SKIPPED is maintained (success). XPASS is not read by
// SWE-bench's parsers, so such a test is missing. An expected id that is
// a truncated pytest parametrization (more "[" than "]") matches the
// parsed ids it prefixes when they agree on pass-or-fail. Resolved ⇔ no
// F2P and no P2P test failed. Source: SWE-bench swebench/harness/
// grading.py (get_logs_eval, _resolve_case, test_passed,
// test_maintained, test_failed, get_eval_tests_report,
// get_resolution_status), log_parsers/python.py parse_log_pytest.
const ModeSWEBench Mode = "swebench"

// statusMap is SWE-bench's status map: the last status of each id, ids in
// order of first appearance (Python dict order). XPASS results are left
// out, as SWE-bench's pytest parser does not read them.
type statusMap struct {
	status map[string]testlog.Status
	order  []string
}

func newStatusMap(results []testlog.Result) *statusMap {
	m := &statusMap{status: map[string]testlog.Status{}}
	for _, r := range results {
		if r.Status == testlog.XPass {
			continue
		}
		if _, ok := m.status[r.ID]; !ok {
			m.order = append(m.order, r.ID)
		}
		m.status[r.ID] = r.Status
	}
	return m
}

func passing(s testlog.Status) bool { return s == testlog.Passed || s == testlog.XFail }

// resolve returns the key of the map that the expected id t names: t
// itself, or for a truncated parametrized id (more "[" than "]") the first
// key it prefixes, when all keys it prefixes agree on pass-or-fail.
// Source: SWE-bench grading.py _resolve_case.
func (m *statusMap) resolve(t string) (string, bool) {
	if _, ok := m.status[t]; ok {
		return t, true
	}
	if strings.Count(t, "[") <= strings.Count(t, "]") {
		return "", false
	}
	var first string
	outcomes := map[bool]bool{}
	for _, k := range m.order {
		if strings.HasPrefix(k, t) {
			if first == "" {
				first = k
			}
			outcomes[passing(m.status[k])] = true
		}
	}
	if first == "" || len(outcomes) != 1 {
		return "", false
	}
	return first, true
}

// gradeSWEBench is ModeSWEBench's verdict of a test_command run.
func gradeSWEBench(f2p, p2p []string, run RunOutcome) Verdict {
	sm := newStatusMap(run.Results)
	v := classifyStatusMap(sm, f2p, p2p, nil)
	if len(run.Results) == 0 {
		v.Reason = "no test results in the log"
		return v
	}
	bad := false
	for _, s := range sm.status {
		bad = bad || s == testlog.Failed || s == testlog.Error
	}
	return finishStatusVerdict(v, bad, run)
}

// classifyStatusMap splits f2p and p2p by SWE-bench's test_passed and
// test_maintained over sm; an id of conflict fails whatever its status.
func classifyStatusMap(sm *statusMap, f2p, p2p []string, conflict map[string]bool) Verdict {
	v := Verdict{Status: StatusUnresolved, FailToPass: TestsStatus{Success: []string{}, Failure: []string{}},
		PassToPass: TestsStatus{Success: []string{}, Failure: []string{}}}
	classify := func(t string, isP2P bool, ts *TestsStatus) {
		k, ok := sm.resolve(t)
		s := sm.status[k]
		switch {
		case ok && conflict[k]:
			ts.Failure = append(ts.Failure, t)
		case ok && (passing(s) || isP2P && s == testlog.Skipped):
			ts.Success = append(ts.Success, t)
		default: // missing, FAILED, ERROR, SKIPPED (F2P)
			ts.Failure = append(ts.Failure, t)
		}
	}
	for _, t := range f2p {
		classify(t, false, &v.FailToPass)
	}
	for _, t := range p2p {
		classify(t, true, &v.PassToPass)
	}
	return v
}

// finishStatusVerdict decides a classified verdict of a log that parsed to
// tests: inconsistent when no test failed (bad false) while the test
// command exited non-zero without a failing canary to explain it, else
// resolved when no listed test failed.
func finishStatusVerdict(v Verdict, bad bool, run RunOutcome) Verdict {
	if !bad && run.ExitCode != 0 && !run.CanaryFailed {
		v.Status = StatusInconsistent
		v.Reason = fmt.Sprintf("no parsed test failed but the test command exited %d", run.ExitCode)
		return v
	}
	v.Resolved = len(v.FailToPass.Failure) == 0 && len(v.PassToPass.Failure) == 0
	if v.Resolved {
		v.Status = StatusResolved
	} else {
		v.Reason = failReason(v)
	}
	return v
}

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

// UniversalNewlines turns "\r\n" and lone "\r" into "\n", as Python's
// text-mode open() does when SWE-bench reads a log.
func UniversalNewlines(b []byte) string {
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
	return ReadSWEBenchLogWith(parser, log, func(s string) ([]testlog.Result, error) {
		return testlog.ParseSWEBench(parser, []byte(s), c)
	})
}

// ReadSWEBenchLogWith is ReadSWEBenchLog with the parser given as a
// function of the text to read.
func ReadSWEBenchLogWith(parser string, log []byte, parse func(string) ([]testlog.Result, error)) SWEBenchReading {
	r := SWEBenchReading{Parser: parser}
	content := UniversalNewlines(log)
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

// EvalSections is an eval-script run as the harness framed its log: the
// output of the set-up lines, the test lines and the teardown lines, each
// exactly as the runtime captured it (standard error sent to standard
// output), and the exit status of the test lines.
type EvalSections struct {
	Setup, Tests, Teardown []byte
	// Ran: the tests section exists (the setup ended and left its state).
	Ran bool
	// Split: the script had its marker lines (else it ran as one part).
	Split    bool
	ExitCode *int // the test lines' exit status (nil when they did not end)
	TimedOut bool
}

// ReadSWEBenchSections is ReadSWEBenchLog for a marked log (EvalSections): not found when
// the data holds one of SWE-bench's failure lines or the tests never ran;
// the parser reads the tests section, and only it (SWE-bench falls back to
// the whole log when the text between its markers parses to nothing;
// here the setup's output, which runs the patch's code through installs,
// is never read as test results); the suite-ran evidence and the exit
// status come from the tests section and the harness's exit mark.
func ReadSWEBenchSections(parser string, l EvalSections, parse func(string) ([]testlog.Result, error)) SWEBenchReading {
	r := SWEBenchReading{Parser: parser}
	all := UniversalNewlines(append(append(append([]byte(nil), l.Setup...), l.Tests...), l.Teardown...))
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
	content := UniversalNewlines(l.Tests)
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

// EvalScriptGrade is the grading of an eval-script run.
type EvalScriptGrade struct {
	Verdicts Verdicts
	Out      PolyBenchOutput
	Parser   string   // "swebench:<log_parser>", or the framework detected
	Notes    []string // why the row's log_parser was not used
	Results  int      // how many results the log parsed to
	ExitCode *int     // the test command's exit status the script recorded
}

// SWEBenchReader reads an eval-script log with a parser (ReadSWEBenchLog's
// shape): the whole-log reading of SWE-bench, or the reading of the
// sections of a marked log (ReadSWEBenchSections).
type SWEBenchReader func(parser string, parse func(string) ([]testlog.Result, error)) SWEBenchReading

// GradeSWEBenchLog grades an unmarked log of a SWE-bench 5.x eval script
// (one stream, SWE-bench's own text markers) as SWE-bench 5.0.2 reads it
// (ReadSWEBenchLog); see GradeEvalScript. polynfi's own runs are graded
// from their marked sections (GradeEvalSections).
func GradeSWEBenchLog(in dataset.Instance, log []byte, scriptExit int, timedOut bool) EvalScriptGrade {
	return GradeEvalScript(in, func(parser string, parse func(string) ([]testlog.Result, error)) SWEBenchReading {
		return ReadSWEBenchLogWith(parser, log, parse)
	}, log, scriptExit, timedOut)
}

// GradeEvalSections grades the sections of a marked eval-script log
// (EvalSections, as the harness reads them back from its run marks): the
// test output is exactly the tests section and the test command's exit
// status the one the harness recorded (ReadSWEBenchSections); see
// GradeEvalScript.
func GradeEvalSections(in dataset.Instance, sec EvalSections, scriptExit int, timedOut bool) EvalScriptGrade {
	if sec.ExitCode != nil {
		// The test lines' status, not the teardown's (whose script the
		// tests could have rewritten).
		scriptExit = *sec.ExitCode
	}
	return GradeEvalScript(in, func(parser string, parse func(string) ([]testlog.Result, error)) SWEBenchReading {
		return ReadSWEBenchSections(parser, sec, parse)
	}, sec.Tests, scriptExit, timedOut || sec.TimedOut)
}

// GradeEvalScript grades the log of a SWE-bench 5.x eval script read by
// read. The swebench verdict is SWE-bench 5.0.2's (the reading with the
// row's log_parser, GradeSWEBenchReading with its eval_type); polybench and
// strict grade the same parsed results, with the test command's recorded
// exit status (the script's own when none was recorded). A log_parser
// polynfi does not implement (or none) falls back to the framework
// detected in the log, with a note; test ids are then normalized for the
// reading and the verdicts list the dataset's own ids. A run killed at its
// timeout is timed_out in every mode. log is what the polybench mode's
// Java rule reads.
func GradeEvalScript(in dataset.Instance, read SWEBenchReader, log []byte, scriptExit int, timedOut bool) EvalScriptGrade {
	var o EvalScriptGrade
	f2p, p2p := in.FailToPass, in.PassToPass
	var r SWEBenchReading
	if testlog.SWEBenchParserKnown(in.LogParser) {
		o.Parser = "swebench:" + in.LogParser
		c := testlog.SWEBenchContext{InstanceID: in.InstanceID, Version: in.Version}
		r = read(in.LogParser, func(s string) ([]testlog.Result, error) {
			return testlog.ParseSWEBench(in.LogParser, []byte(s), c)
		})
	} else {
		if in.LogParser == "" {
			o.Notes = append(o.Notes, "the row names no log_parser: the framework was detected from the log")
		} else {
			o.Notes = append(o.Notes, fmt.Sprintf("log_parser %q is not one polynfi implements: the framework was detected from the log", in.LogParser))
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
		o.Parser = fw
		f2p, p2p = ExpectedIDs(in.FailToPass, fw, ""), ExpectedIDs(in.PassToPass, fw, "")
	}
	parsed := r.Parsed
	o.ExitCode = r.ExitCode
	exit := scriptExit
	if r.ExitCode != nil {
		exit = *r.ExitCode
	}
	o.Results = len(parsed)
	o.Verdicts, o.Out = Grade(f2p, p2p, RunOutcome{Results: parsed, ExitCode: exit, TimedOut: timedOut, Language: in.Language, Framework: o.Parser, Log: log})
	if !timedOut {
		o.Verdicts.SWEBench = GradeSWEBenchReading(f2p, p2p, in.EvalType, r)
	}
	RespellVerdicts(&o.Verdicts, f2p, in.FailToPass, p2p, in.PassToPass)
	return o
}
