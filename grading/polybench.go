package grading

import (
	"regexp"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/testlog"
)

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
const ModePolyBench Mode = "polybench"

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
