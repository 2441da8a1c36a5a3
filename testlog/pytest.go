package testlog

import (
	"regexp"
	"strings"
	"sync"
)

var (
	// rePytestVerbose matches a verbose (-v) progress line:
	// "tests/test_a.py::TestX::test_y PASSED   [ 50%]".
	rePytestVerbose = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\S+?\.py::\S.*?)(?: <- \S+)? (PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)(?:\s|$)`)
	})
	// rePytestSummary matches a short-summary (-rA) line:
	// "FAILED tests/test_a.py::test_z - AssertionError: ...".
	rePytestSummary = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS) (\S+?\.py(?:::.+?)?)(?: - .*)?$`)
	})
	rePytestSumHead = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^=+ short test summary info =+$`) })
	rePytestRule    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^=+ .* =+$`) })
)

// pytestStatus maps a pytest outcome word to a Status. XPASS (an
// unexpectedly passing non-strict xfail) is XPass; pytest reports a strict
// xfail that passed as FAILED itself.
func pytestStatus(word string) Status {
	switch word {
	case "PASSED":
		return Passed
	case "XPASS":
		return XPass
	case "FAILED":
		return Failed
	case "SKIPPED":
		return Skipped
	case "ERROR":
		return Error
	case "XFAIL":
		return XFail
	}
	return ""
}

// parsePytest reads a pytest log. The short test summary (pytest -rA) is
// authoritative: every node id it lists is reported with the summary's
// status (twice if listed twice, e.g. PASSED and ERROR for a test whose
// teardown failed). Verbose progress lines (pytest -v) add the tests the
// summary does not name, such as skipped tests, whose -rA line carries a
// file:line location instead of a node id. Without a summary the verbose
// lines are used alone. Collection errors of a whole file ("ERROR
// tests/test_x.py - ...") are reported with the file path as id.
func parsePytest(log []byte) []Result {
	var verbose, summary []Result
	inSummary := false
	for _, raw := range splitLines(log) {
		line := strings.TrimRight(stripANSI(raw), " \t")
		if rePytestSumHead().MatchString(line) {
			inSummary = true
			continue
		}
		if inSummary {
			if rePytestRule().MatchString(line) {
				inSummary = false
				continue
			}
			if m := rePytestSummary().FindStringSubmatch(line); m != nil {
				summary = append(summary, Result{ID: PolyBenchPytestID(m[2]), Status: pytestStatus(m[1])})
			}
			continue
		}
		if m := rePytestVerbose().FindStringSubmatch(line); m != nil {
			verbose = append(verbose, Result{ID: PolyBenchPytestID(m[1]), Status: pytestStatus(m[2])})
		}
	}
	if len(summary) == 0 {
		return verbose
	}
	named := make(map[string]bool, len(summary))
	for _, r := range summary {
		named[r.ID] = true
	}
	out := summary
	for _, r := range verbose {
		if !named[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// PolyBenchPytestID converts a pytest node id ("tests/t.py::TestA::test_b[x]",
// the SWE-bench form) into SWE-PolyBench's "tests/t.py:TestA:test_b[x]";
// a module-level test gets class "None" ("tests/t.py:None:test_b"), nested
// classes are joined with "." ("tests/t.py:A.B:test_c"). A node id without
// "::" (a whole file) is returned unchanged.
//
// Source: SWE-PolyBench src/poly_bench_evaluation/parsers/python_parsers.py
// (file, class, test joined with ":", class "None" when absent).
func PolyBenchPytestID(nodeID string) string {
	head, params := nodeID, ""
	if i := strings.IndexByte(nodeID, '['); i >= 0 {
		head, params = nodeID[:i], nodeID[i:]
	}
	parts := strings.Split(head, "::")
	if len(parts) < 2 {
		return nodeID
	}
	file, test := parts[0], parts[len(parts)-1]
	class := "None"
	if len(parts) > 2 {
		class = strings.Join(parts[1:len(parts)-1], ".")
	}
	return file + ":" + class + ":" + test + params
}

// PytestNodeID converts a SWE-PolyBench pytest id ("tests/t.py:TestA:test_b")
// back into pytest's node id ("tests/t.py::TestA::test_b", the form SWE-bench
// datasets use); class "None" is dropped, "." in the class becomes "::". An
// id that does not have the three-part form is returned unchanged.
func PytestNodeID(polybenchID string) string {
	head, params := polybenchID, ""
	if i := strings.IndexByte(polybenchID, '['); i >= 0 {
		head, params = polybenchID[:i], polybenchID[i:]
	}
	parts := strings.Split(head, ":")
	if len(parts) != 3 || !strings.HasSuffix(parts[0], ".py") {
		return polybenchID
	}
	file, class, test := parts[0], parts[1], parts[2]
	if class == "None" {
		return file + "::" + test + params
	}
	return file + "::" + strings.ReplaceAll(class, ".", "::") + "::" + test + params
}
