// Package testlog turns the output of test runners into per-test results.
//
// It owns one parser per framework (JUnit XML, pytest, unittest, Jest JSON,
// Mocha JSON, TAP, Maven Surefire, go test -json) and the test-id formats of
// SWE-PolyBench. It is pure: bytes or an io.Reader in, []Result out. It never
// runs a command and never prints; the only function that touches the file
// system is FindJUnitReports, which lists report files a run left behind.
//
// Test ids (Source: SWE-PolyBench src/poly_bench_evaluation/parsers/*.py and
// test/parsers/*.py; evaluation spec §2 step 4):
//
//   - pytest: "file.py:Class:test", class "None" when the test is a module
//     function, e.g. "tests/test_calc.py:None:test_add" and
//     "tests/test_calc.py:TestDiv:test_zero[1-0]". Nested classes are joined
//     with "." ("A.B"). SWE-bench uses pytest's own node id instead
//     ("tests/test_calc.py::TestDiv::test_zero[1-0]"); PytestNodeID and
//     PolyBenchPytestID convert between the two.
//   - unittest: "module.Class:test:" followed by the subTest parameters
//     (empty for a plain test), exactly as PolyBench joins class path, test
//     name and parameters with ":", e.g. "tests.test_calc.TestDiv:test_zero:".
//     Python 3.11's verbose form "test_zero (tests.test_calc.TestDiv.test_zero)"
//     is normalised to the same class path as the older
//     "test_zero (tests.test_calc.TestDiv)".
//   - JUnit XML / Surefire (Java): "pkg.Class.method" (classname "." name).
//   - Jest: "<file>-><fullName>" with the test file path as Jest reports it
//     (absolute); TrimWorkspace makes it relative to a workspace.
//   - Mocha: the test's fullTitle.
//   - TAP: the test description, subtests prefixed by their parents'
//     descriptions joined with " > ".
//   - go test: "<package>.<Test>" (subtests keep their "/" path).
package testlog

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Status is the outcome of one test.
type Status string

// The statuses a parser reports. XFail is an expected failure (pytest xfail,
// unittest expectedFailure, TAP "not ok # TODO"). XPass is an unexpected
// pass (pytest XPASS of a non-strict xfail, unittest "unexpected success"):
// neither published harness counts it as passed (SWE-bench's pytest parser
// does not read XPASS lines, so the test is missing; SWE-PolyBench's lists
// only PASSED and FAILED), so it is kept apart for the graders.
//
// Source: SWE-bench swebench/harness/constants TestStatus (the first five);
// pytest's and unittest's outcome words (XPass).
const (
	Passed  Status = "PASSED"
	Failed  Status = "FAILED"
	Skipped Status = "SKIPPED"
	Error   Status = "ERROR"
	XFail   Status = "XFAIL"
	XPass   Status = "XPASS"
)

// Result is one test's outcome. ID is in the format of its framework (see
// the package comment).
type Result struct {
	ID     string
	Status Status
}

// Framework names a test runner whose log Parse understands.
type Framework string

// The supported frameworks.
const (
	Pytest   Framework = "pytest"
	Unittest Framework = "unittest"
	Jest     Framework = "jest"
	Mocha    Framework = "mocha"
	TAP      Framework = "tap"
	Surefire Framework = "surefire"
	JUnit    Framework = "junit"
	GoTest   Framework = "gotest"
	// The runners of the Go, Rust, C, C++, PHP and Ruby benchmarks
	// (SWE-bench Multilingual, Multi-SWE-bench): one file each.
	Cargo      Framework = "cargo"
	GoogleTest Framework = "googletest"
	CTest      Framework = "ctest"
	Doctest    Framework = "doctest"
	Catch2     Framework = "catch2"
	Redis      Framework = "redis"
	Automake   Framework = "automake"
	PHPUnit    Framework = "phpunit"
	Minitest   Framework = "minitest"
	TestUnit   Framework = "testunit"
	RSpec      Framework = "rspec"
)

// Frameworks lists every supported framework in a fixed order.
var Frameworks = []Framework{Pytest, Unittest, Jest, Mocha, TAP, Surefire, JUnit, GoTest,
	Cargo, GoogleTest, CTest, Doctest, Catch2, Redis, Automake, PHPUnit, Minitest, TestUnit, RSpec}

// Parse reads a test log of framework fw and returns its results in log
// order, duplicates kept (a test reported twice, e.g. pytest's PASSED then
// ERROR for a failing teardown, appears twice).
//
// A log with no recognisable test is not an error: the result is empty.
// The error is non-nil only for an unknown framework, or for fw == JUnit
// when the log is not well-formed XML.
func Parse(fw Framework, log []byte) ([]Result, error) {
	switch fw {
	case Pytest:
		return parsePytest(log), nil
	case Unittest:
		return parseUnittest(log), nil
	case Jest:
		return parseJest(log), nil
	case Mocha:
		return parseMocha(log), nil
	case TAP:
		return parseTAP(log), nil
	case Surefire:
		return parseSurefire(log), nil
	case JUnit:
		return ParseJUnitXML(bytes.NewReader(log))
	case GoTest:
		return parseGoTest(log), nil
	case Cargo:
		return parseCargo(log), nil
	case GoogleTest:
		return parseGoogleTest(log), nil
	case CTest:
		return parseCTest(log), nil
	case Doctest:
		return parseDoctest(log), nil
	case Catch2:
		return parseCatch2(log), nil
	case Redis:
		return parseRedis(log), nil
	case Automake:
		return parseAutomake(log), nil
	case PHPUnit:
		return parseTestdox(log), nil
	case Minitest:
		return parseMinitest(log), nil
	case TestUnit:
		return parseTestUnit(log), nil
	case RSpec:
		return parseRSpec(log), nil
	}
	return nil, fmt.Errorf("parse test log: unknown framework %q", fw)
}

// ToMap folds results into a map from test id to status; when an id occurs
// more than once the last status wins.
func ToMap(results []Result) map[string]Status {
	m := make(map[string]Status, len(results))
	for _, r := range results {
		m[r.ID] = r.Status
	}
	return m
}

// TrimWorkspace returns results whose ids have the absolute workspace
// directory prefix removed wherever it occurs at the start of the id, so
// that Jest ids ("/tmp/ws123/src/a.test.ts->...") become stable
// ("src/a.test.ts->..."). Ids without the prefix are unchanged. The input
// slice is not modified.
func TrimWorkspace(results []Result, workspace string) []Result {
	out := make([]Result, len(results))
	prefix := strings.TrimSuffix(workspace, "/") + "/"
	for i, r := range results {
		if workspace != "" {
			r.ID = strings.TrimPrefix(r.ID, prefix)
		}
		out[i] = r
	}
	return out
}

var (
	reJestJSON   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\s*"numFailedTestSuites"`) })
	reMochaJSON  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\s*"stats"\s*:`) })
	reGoTestJSON = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\{"Time":"[^"]*","Action":"`) })
	reTAPVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^TAP version \d+`) })
	reTAPPlan    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^1\.\.\d+`) })
	reTAPLine    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(?:ok|not ok) \d+`) })
	rePytestHead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^=+ (?:test session starts|short test summary info) =+`)
	})
	reUnittestRan = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Ran \d+ tests? in `) })
	reSurefire    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+`)
	})

	reDetectGoText   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*--- (?:PASS|FAIL|SKIP): \S+ \(\d`) })
	reDetectCargo    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^test \S+ \.\.\. (?:ok|FAILED|ignored)`) })
	reDetectGTest    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\[ RUN      \] \S`) })
	reDetectCTest    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*\d+/\d+ Test\s+#\d+: `) })
	reDetectRedis    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\[(?:ok|err)\]: `) })
	reDetectAutomake = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(?:PASS|FAIL|XFAIL|ERROR): \S`) })
	reDetectTestdox  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s+[✔✘↩] `) })
	reDetectMinitest = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\S+#\S+ = [\d.]+ s = [.FES]\s*$`) })
	reDetectTestUnit = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^Loaded suite `) })
)

// Detect guesses the framework that wrote log. ok is false when no known
// runner's marks are found. Markers checked, in order: Jest JSON, Mocha
// JSON, go test -json events, Maven Surefire (console summary lines, or
// XML reports embedded in other output), a log that is one JUnit XML
// document, TAP, pytest, unittest.
func Detect(log []byte) (fw Framework, ok bool) {
	switch {
	case reJestJSON().Match(log):
		return Jest, true
	case reMochaJSON().Match(log) && bytes.Contains(log, []byte(`"passes"`)):
		return Mocha, true
	case reGoTestJSON().Match(log):
		return GoTest, true
	case reSurefire().Match(log):
		return Surefire, true
	case bytes.Contains(log, []byte("<testsuite")):
		// A log that is one XML document is a JUnit report; XML reports
		// printed among other output (mvn -q, then cat of the reports) are
		// read the Surefire way.
		if t := bytes.TrimSpace(log); bytes.HasPrefix(t, []byte("<")) && bytes.Count(t, []byte("<?xml")) <= 1 {
			return JUnit, true
		}
		return Surefire, true
	case reTAPVersion().Match(log) || (reTAPPlan().Match(log) && reTAPLine().Match(log)):
		return TAP, true
	case rePytestHead().Match(log):
		return Pytest, true
	case reUnittestRan().Match(log):
		return Unittest, true
	}
	return detectMore(log)
}

// detectMore is Detect for the runners of the Go, Rust, C, C++, PHP and
// Ruby benchmarks, checked after the others in this order: RSpec JSON,
// doctest and Catch2 XML reports, googletest, CTest, go test's verbose
// text, libtest, Redis-style, PHPUnit testdox, minitest, test-unit,
// automake.
func detectMore(log []byte) (Framework, bool) {
	switch {
	case reRSpecJSON().Match(log):
		return RSpec, true
	case bytes.Contains(log, []byte("<doctest binary=")):
		return Doctest, true
	case bytes.Contains(log, []byte("<Catch name=")):
		return Catch2, true
	case reDetectGTest().Match(log):
		return GoogleTest, true
	case reDetectCTest().Match(log):
		return CTest, true
	case reDetectGoText().Match(log):
		return GoTest, true
	case reCargoJSON().Match(log) || reDetectCargo().Match(log):
		return Cargo, true
	case reDetectRedis().Match(log):
		return Redis, true
	case reDetectTestdox().Match(log):
		return PHPUnit, true
	case reDetectMinitest().Match(log):
		return Minitest, true
	case reDetectTestUnit().Match(log):
		return TestUnit, true
	case reDetectAutomake().Match(log):
		return Automake, true
	}
	return "", false
}

// junitReportPatterns are the places, relative to a workspace, where test
// runners conventionally write JUnit XML reports. filepath.Match syntax.
var junitReportPatterns = []string{
	"junit.xml",
	"junit-*.xml",
	"test-results.xml",
	"TEST-*.xml",
	"reports/junit*.xml",
	"reports/TEST-*.xml",
	"test-results/*.xml",
	"test-reports/*.xml",
	"build/test-results/*/TEST-*.xml",
	"target/surefire-reports/TEST-*.xml",
	"target/failsafe-reports/TEST-*.xml",
	"*/target/surefire-reports/TEST-*.xml",
	"*/*/target/surefire-reports/TEST-*.xml",
	"*/build/test-results/*/TEST-*.xml",
}

// FindJUnitReports lists the JUnit XML report files under workspace, in
// sorted order without duplicates: Maven Surefire/Failsafe reports
// (target/surefire-reports/TEST-*.xml, also one and two module levels
// down), Gradle (build/test-results/<task>/TEST-*.xml), and the common
// single-file names (junit.xml, junit-*.xml, test-results.xml,
// reports/junit*.xml, test-results/*.xml, test-reports/*.xml). Directories
// JUnitReportPatterns returns the places, relative to a workspace, where
// test runners conventionally write JUnit XML reports (filepath.Match
// syntax; a copy).
func JUnitReportPatterns() []string { return append([]string(nil), junitReportPatterns...) }

// and unreadable entries are skipped; a missing workspace gives nil.
func FindJUnitReports(workspace string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range junitReportPatterns {
		matches, err := filepath.Glob(filepath.Join(workspace, p))
		if err != nil {
			continue
		}
		for _, m := range matches {
			if seen[m] {
				continue
			}
			fi, err := os.Stat(m)
			if err != nil || !fi.Mode().IsRegular() || fi.Mode()&fs.ModeType != 0 {
				continue
			}
			seen[m] = true
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// splitLines splits log into lines without their "\n" or "\r\n" ends.
func splitLines(log []byte) []string {
	s := strings.ReplaceAll(string(log), "\r\n", "\n")
	return strings.Split(s, "\n")
}

// reANSI matches terminal colour and cursor escape sequences.
var reANSI = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]") })

// stripANSI removes terminal escape sequences.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return reANSI().ReplaceAllString(s, "")
}
