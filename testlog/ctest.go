package testlog

import (
	"regexp"
	"strings"
	"sync"
)

// CTest: the result lines of ctest's console output ("1/4 Test #1: name
// ....   Passed    0.01 sec"), read by polynfi (Parse(CTest, ...)) and by
// Multi-SWE-bench 1.1.2's two CTest readers. SWE-bench 5.0.2 has no CTest
// reader (its C and C++ repositories are read by their test programs'
// output: googletest, doctest, redis, jq).

var reCTestLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\d+/\d+\s+Test\s+#\d+: (.+?) \.*(?:\s+|\*\*\*)(Passed|Failed|Skipped|Timeout|Not Run \(Disabled\)|Not Run|Exception: .+?)\s+[\d.]+ sec$`)
})

// parseCTest reads ctest's result lines: Passed is Passed, Failed Failed,
// Skipped (SKIP_RETURN_CODE, SKIP_REGULAR_EXPRESSION) and "Not Run
// (Disabled)" Skipped, "Exception: <signal>" (the test crashed), Timeout
// and "Not Run" (no executable) Error. The id is the test's name as
// add_test gave it. Other lines (the "Start N:" lines, the tests' own
// output, the summary) are not read.
//
// Source: CMake's ctest console output (cmCTestRunTest.cxx, CMake 3.25).
func parseCTest(log []byte) []Result {
	var out []Result
	for _, raw := range splitLines(log) {
		if !strings.Contains(raw, "#") || !strings.Contains(raw, " sec") {
			continue
		}
		m := reCTestLine().FindStringSubmatch(strings.TrimSpace(stripANSI(raw)))
		if m == nil {
			continue
		}
		var st Status
		switch m[2] {
		case "Passed":
			st = Passed
		case "Failed":
			st = Failed
		case "Skipped", "Not Run (Disabled)":
			st = Skipped
		default:
			st = Error
		}
		out = append(out, Result{ID: m[1], Status: st})
	}
	return out
}

var (
	reMSWECTestPass       = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\d+/\d+\s*Test\s*#\d+:\s*(.*?)\s*\.+\s*Passed`) })
	reMSWECTestFail       = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\d+/\d+\s*Test\s*#\d+:\s*(.*?)\s*\.+\s*\*+Failed`) })
	reMSWECTestFailAnchor = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\d+/\d+\s*Test\s*#\d+:\s*(.*?)\s*\.+\s*\*+Failed$`) })
)

// msweCTest is the CTest parse_log of Multi-SWE-bench (OpenBLAS, libgit2,
// fluent-bit, SDL, CGAL; anchored: nlohmann/json, rdkit, fmt, simdjson):
// a stripped line "N/M Test #K: name ....   Passed" passes name, one with
// "***Failed" fails it. A crashed ("***Exception"), timed-out, skipped or
// not-run test is in no set. In the anchored family the failed line must
// end at "Failed", which ctest never prints (the time follows it), so no
// test ever fails.
func msweCTest(fail *regexp.Regexp) msweReader {
	return func(log string) *msweSets {
		s := newMSWESets()
		for _, line := range msweLines(log) {
			if !strings.Contains(line, "#") || !strings.Contains(line, "Test") {
				continue
			}
			if g := reMSWECTestPass().FindStringSubmatch(line); g != nil {
				s.passed.add(g[1])
			}
			if g := fail.FindStringSubmatch(line); g != nil {
				s.failed.add(g[1])
			}
		}
		return s
	}
}

func init() {
	registerMSWE("ctest", msweCTest(reMSWECTestFail()),
		"OpenMathLib/OpenBLAS", "libgit2/libgit2", "fluent/fluent-bit", "libsdl-org/SDL", "CGAL/cgal")
	registerMSWE("ctest_failed_at_end", msweCTest(reMSWECTestFailAnchor()),
		"nlohmann/json", "rdkit/rdkit", "fmtlib/fmt", "simdjson/simdjson")
}
