package harness

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/testlog"
)

// Mode is a grading mode: how parsed test results decide "resolved".
type Mode string

// The grading modes, computed together from the same parsed results.
// Source: polynfi evaluation spec §2.5.
//
// Known differences from the published harnesses, all deliberate:
//   - polybench: SWE-PolyBench's parsers always return a result object, so
//     its resolved test is F2P ⊆ passed ∧ P2P ∩ failed = ∅ even when the log
//     parsed to no test (an instance with an empty F2P list then resolves);
//     polynfi follows the spec and also requires at least one parsed test.
//   - polybench: SWE-PolyBench picks its parser from a per-repository table,
//     with repository-specific id schemes (tailwindcss's Jest title-only ids,
//     material-ui's "file->fullTitle", angular's Bazel log); polynfi detects
//     the framework from the log and reads the generic id of each framework
//     (testlog). TAP "not ok ... # SKIP" is passed here, failed there.
//   - all modes: a run stopped at its timeout is timed_out. SWE-PolyBench
//     parses whatever output the stopped container left (racing with its
//     reader thread); SWE-bench marks the log as timed out and unresolved.
//   - swebench, for rows with a test_command: SWE-bench's eval_type
//     fail_only (some JavaScript datasets grade only FAILED) is not
//     applied, and a run whose log parses to no test is unresolved without
//     consulting SWE-bench's "the suite ran" patterns (they matter only when
//     both test lists are empty). SWE-bench 5.x rows (an eval_script, no
//     test_command) are graded by SWE-bench 5.0.2's own rules, both of
//     these included (swebench.go: ReadSWEBenchLog, GradeSWEBenchReading).
const (
	// ModePolyBench is SWE-PolyBench's rule: resolved ⇔ the log parsed to
	// at least one test ∧ F2P ⊆ passed ∧ P2P ∩ failed = ∅; a test missing
	// from the log does not count against. Passed and failed are as
	// SWE-PolyBench's parsers list them: PASSED passes and FAILED fails
	// everywhere; ERROR fails for Java (its JUnit XML reader lists <error>
	// under failed) and Mocha (failing hooks are in the "failures" array) and
	// is neither elsewhere (pytest, unittest, Jest); for TAP every "ok" line
	// passes (SKIPPED too) and every "not ok" line fails (XFAIL too); XFAIL
	// and XPASS are otherwise neither. A Java log that reports a build
	// failure or compilation error without "There are test failures" parses
	// to no test at all. Hardened in every mode (Grade): a run whose
	// command exited non-zero while no parsed test failed is inconsistent
	// here too. Source: SWE-PolyBench
	// src/poly_bench_evaluation/scoring.py instance_level_scoring and
	// parsers/{java,javascript,python,typescript}_parsers.py.
	ModePolyBench Mode = "polybench"
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
	ModeSWEBench Mode = "swebench"
	// ModeStrict is ModeSWEBench plus: an id reported more than once with
	// different statuses fails; a run whose log parses to no test is
	// infra_failure (the environment, not the patch, is broken); the
	// inconsistent check reads every parsed result, not only the last
	// status of each id. Source: polynfi evaluation spec §2.5 (strict).
	ModeStrict Mode = "strict"
)

// Modes lists the grading modes in report order.
var Modes = []Mode{ModePolyBench, ModeSWEBench, ModeStrict}

// ModesFor returns the modes a report of a run in native mode shows: Modes,
// and native after them when it is not one of them (ModeMultiSWEBench).
func ModesFor(native Mode) []Mode {
	out := append([]Mode(nil), Modes...)
	for _, m := range Modes {
		if m == native {
			return out
		}
	}
	if native != "" {
		out = append(out, native)
	}
	return out
}

// ParseMode returns the Mode named s: one of Modes, ModeMultiSWEBench or
// ModeSWEBenchPro.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	switch Mode(s) {
	case ModeMultiSWEBench, ModeSWEBenchPro:
		return Mode(s), nil
	}
	return "", fmt.Errorf("unknown grading mode %q (want polybench, swebench, strict, multi-swe-bench or swe-bench-pro)", s)
}

// Status is the outcome class of one instance under one mode.
type Status string

// Outcome classes. Only StatusResolved is resolved.
const (
	StatusResolved      Status = "resolved"
	StatusUnresolved    Status = "unresolved"
	StatusEmptyPatch    Status = "empty_patch"    // the prediction carries no change
	StatusPatchFailed   Status = "patch_failed"   // no attempt of the apply cascade applied it (ReasonNotApplied)
	StatusPatchRejected Status = "patch_rejected" // it writes outside the workspace
	StatusTimedOut      Status = "timed_out"      // the test command hit its timeout
	StatusInconsistent  Status = "inconsistent"   // swebench, strict: no test failed, exit status non-zero
	StatusInfraFailure  Status = "infra_failure"  // strict: the log parsed to no test at all
	StatusError         Status = "error"          // the harness could not evaluate (no repo, test patch does not apply, ...)
	// StatusTampered: what ran in the test process or the patch's non-source
	// paths moved the verdict: the run's report lacks a canary the harness
	// added, passes a must-fail one or fails a must-pass one (canary.go), or
	// the clean-room re-run disagreed with the run (cleanroom.go).
	// Unresolved in every mode, counted apart, never an infrastructure failure.
	StatusTampered Status = "tampered"
)

// TestsStatus is SWE-bench's success/failure split of a test list.
type TestsStatus struct {
	Success []string `json:"success"`
	Failure []string `json:"failure"`
}

// Verdict is the grading of one instance under one mode.
type Verdict struct {
	Resolved   bool        `json:"resolved"`
	Status     Status      `json:"status"`
	FailToPass TestsStatus `json:"FAIL_TO_PASS"`
	PassToPass TestsStatus `json:"PASS_TO_PASS"`
	// Reason explains an unresolved verdict in one line ("" when resolved).
	Reason string `json:"reason,omitempty"`
}

// Verdicts holds the three modes' verdicts of one instance, and for an
// instance of a Multi-SWE-bench row the multi-swe-bench mode's
// (ModeMultiSWEBench; nil otherwise, and for an instance decided before
// its tests ran, whose status is then the same in every mode).
type Verdicts struct {
	PolyBench     Verdict  `json:"polybench"`
	SWEBench      Verdict  `json:"swebench"`
	Strict        Verdict  `json:"strict"`
	MultiSWEBench *Verdict `json:"multi_swe_bench,omitempty"`
	// SWEBenchPro is the swe-bench-pro mode's verdict (ModeSWEBenchPro)
	// of an instance of a SWE-bench Pro row whose tests ran; nil otherwise.
	SWEBenchPro *Verdict `json:"swe_bench_pro,omitempty"`
}

// Get returns the verdict of mode m (the strict one for an unknown mode,
// and for ModeMultiSWEBench when the instance has no such verdict).
func (v *Verdicts) Get(m Mode) Verdict {
	switch m {
	case ModePolyBench:
		return v.PolyBench
	case ModeSWEBench:
		return v.SWEBench
	case ModeMultiSWEBench:
		if v.MultiSWEBench != nil {
			return *v.MultiSWEBench
		}
	case ModeSWEBenchPro:
		if v.SWEBenchPro != nil {
			return *v.SWEBenchPro
		}
	}
	return v.Strict
}

// Differ reports whether the modes disagree on resolved.
func (v *Verdicts) Differ() bool {
	if v.MultiSWEBench != nil && v.MultiSWEBench.Resolved != v.Strict.Resolved {
		return true
	}
	if v.SWEBenchPro != nil && v.SWEBenchPro.Resolved != v.Strict.Resolved {
		return true
	}
	return v.PolyBench.Resolved != v.SWEBench.Resolved || v.SWEBench.Resolved != v.Strict.Resolved
}

// AllModes returns verdicts that give every mode the same unresolved status
// (for instances decided before any test ran: empty, failed or rejected
// patch, harness error).
func AllModes(s Status, reason string) Verdicts {
	v := Verdict{Status: s, Reason: reason, FailToPass: TestsStatus{}, PassToPass: TestsStatus{}}
	return Verdicts{PolyBench: v, SWEBench: v, Strict: v}
}

// RunOutcome is what grading needs from a test run: the parsed results in
// log order with duplicates, the exit status, whether the run was killed at
// its timeout, and, for the polybench mode's parser-specific rules, the
// instance's language, the framework that read the results (a
// testlog.Framework name, "junit" for JUnit XML reports) and the log.
type RunOutcome struct {
	Results   []testlog.Result
	ExitCode  int
	TimedOut  bool
	Language  string
	Framework string
	Log       []byte
	// CanaryFailed: a must-fail canary the harness added failed in this
	// run (canary.go), which explains a non-zero exit status when no
	// graded test failed (Results holds no canary).
	CanaryFailed bool
}

// PolyBenchOutput carries SWE-PolyBench's per-instance result fields
// (PolyBenchOutput in polybench_data.py) that are not in Verdict. WithLogs
// is true for every graded run: SWE-PolyBench's parsers always return a
// result object, so its with_logs says the test command ran and its log
// was parsed, whether or not a test was found in it.
type PolyBenchOutput struct {
	WithLogs     bool     `json:"with_logs"`
	AllF2PPassed bool     `json:"all_f2p_passed"`
	NoP2PFailed  bool     `json:"no_p2p_failed"`
	PassedTests  []string `json:"passed_tests"`
	FailedTests  []string `json:"failed_tests"`
}

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
	v := Verdicts{PolyBench: pb, SWEBench: gradeSWEBench(f2p, p2p, run, false), Strict: gradeSWEBench(f2p, p2p, run, true)}
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

var (
	reMavenBuildFailure = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)build failure|compilation error`) })
	reMavenTestFailures = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)there are test failures`) })
)

// polyBenchClass says whether SWE-PolyBench's parser for (language,
// framework) lists a test of status s as passed, as failed, or in neither
// list.
//
// A reading by a SWE-bench parser (framework "swebench:<log_parser>") is
// listed as SWE-bench counts it: PASSED and XFAIL passed, FAILED and ERROR
// failed (grading.py test_passed, test_failed).
func polyBenchClass(s testlog.Status, language, framework string) (passed, failed bool) {
	if strings.HasPrefix(framework, "swebench:") {
		return s == testlog.Passed || s == testlog.XFail, s == testlog.Failed || s == testlog.Error
	}
	switch s {
	case testlog.Passed:
		return true, false
	case testlog.Failed:
		return false, true
	case testlog.Error:
		return false, language == dataset.Java || framework == string(testlog.Mocha)
	case testlog.Skipped:
		return framework == string(testlog.TAP), false
	case testlog.XFail:
		return false, framework == string(testlog.TAP)
	}
	return false, false
}

func gradePolyBench(f2p, p2p []string, run RunOutcome) (Verdict, PolyBenchOutput) {
	out := PolyBenchOutput{WithLogs: true, PassedTests: []string{}, FailedTests: []string{}}
	results := run.Results
	if run.Language == dataset.Java && reMavenBuildFailure().Match(run.Log) && !reMavenTestFailures().Match(run.Log) {
		results = nil // the Java parser reads nothing from a build that failed before its tests
	}
	passed, failed := map[string]bool{}, map[string]bool{}
	for _, r := range results {
		p, f := polyBenchClass(r.Status, run.Language, run.Framework)
		// Each id once per list, at its first appearance: a failing Java
		// test named by its JUnit XML report and by Surefire's console
		// (the dissenting reading) is one failed test, as SWE-PolyBench
		// lists it.
		if p && !passed[r.ID] {
			out.PassedTests = append(out.PassedTests, r.ID)
			passed[r.ID] = true
		}
		if f && !failed[r.ID] {
			out.FailedTests = append(out.FailedTests, r.ID)
			failed[r.ID] = true
		}
	}
	v := Verdict{Status: StatusUnresolved, FailToPass: TestsStatus{Success: []string{}, Failure: []string{}},
		PassToPass: TestsStatus{Success: []string{}, Failure: []string{}}}
	for _, t := range f2p {
		if passed[t] {
			v.FailToPass.Success = append(v.FailToPass.Success, t)
		} else {
			v.FailToPass.Failure = append(v.FailToPass.Failure, t)
		}
	}
	for _, t := range p2p {
		if failed[t] {
			v.PassToPass.Failure = append(v.PassToPass.Failure, t)
		} else {
			v.PassToPass.Success = append(v.PassToPass.Success, t)
		}
	}
	out.AllF2PPassed = len(v.FailToPass.Failure) == 0
	out.NoP2PFailed = len(v.PassToPass.Failure) == 0
	switch {
	case len(results) == 0:
		v.Reason = "no test results in the log"
	case out.AllF2PPassed && out.NoP2PFailed:
		v.Resolved, v.Status = true, StatusResolved
	default:
		v.Reason = failReason(v)
	}
	return v, out
}

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

func gradeSWEBench(f2p, p2p []string, run RunOutcome, strict bool) Verdict {
	sm := newStatusMap(run.Results)
	conflict := map[string]bool{}
	if strict {
		first := map[string]testlog.Status{}
		for _, r := range run.Results {
			if s, ok := first[r.ID]; ok && s != r.Status {
				conflict[r.ID] = true
			} else if !ok {
				first[r.ID] = r.Status
			}
		}
	}
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
	if len(run.Results) == 0 {
		if strict {
			v.Status, v.Reason = StatusInfraFailure, "the log parsed to no test at all: the environment, not the patch, is broken"
		} else {
			v.Reason = "no test results in the log"
		}
		return v
	}
	bad := false
	if strict {
		for _, r := range run.Results {
			bad = bad || r.Status == testlog.Failed || r.Status == testlog.Error
		}
	} else {
		for _, s := range sm.status {
			bad = bad || s == testlog.Failed || s == testlog.Error
		}
	}
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

// Reasons a unit scores nothing, as the drill-downs of a full run
// (report's unit reasons, a record's error) and of a --metrics-only run
// say them: one definition for both.
const (
	// ReasonNotApplied: the model patch was tried and no attempt of the
	// apply cascade applied it (StatusPatchFailed).
	ReasonNotApplied = "no attempt of the apply cascade applied the model patch"
	// ReasonEmptyPatch: the prediction is empty; nothing was run.
	ReasonEmptyPatch = "not run: empty patch"
)
