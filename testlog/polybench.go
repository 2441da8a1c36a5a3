package testlog

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// PolyBenchTAP reads a TAP stream the way SWE-PolyBench's generic
// JavaScript parser does, for datasets whose test ids were recorded by it:
// only test points that start a line ("ok " or "not ok " in column 0; the
// indented points of subtests are not read) are results, and the id is the
// rest of the line verbatim, test number and directive included ("ok 3 -
// adds # SKIP slow" has id "3 - adds # SKIP slow"). A trailing "\r" is
// dropped. Statuses follow the directive as in the TAP parser ("# SKIP" is
// Skipped, "not ok ... # TODO" XFail); SWE-PolyBench itself counts every
// "ok" line as passed and every "not ok" line as failed, which its grading
// mode reproduces from these statuses.
//
// Source: SWE-PolyBench src/poly_bench_evaluation/parsers/
// javascript_parsers.py JavascriptGenericParser._get_json_report_tap.
func PolyBenchTAP(log []byte) []Result {
	var out []Result
	for _, line := range strings.Split(string(log), "\n") {
		line = strings.TrimSuffix(line, "\r")
		var id string
		status := Passed
		switch {
		case strings.HasPrefix(line, "ok "):
			id = line[3:]
		case strings.HasPrefix(line, "not ok "):
			id, status = line[7:], Failed
		default:
			continue
		}
		if d := reTAPDirective().FindStringSubmatch(id); d != nil {
			switch dir := strings.ToUpper(d[1]); {
			case dir == "SKIP":
				status = Skipped
			case dir == "TODO" && status == Failed:
				status = XFail
			}
		}
		out = append(out, Result{ID: id, Status: status})
	}
	return out
}

// PolyBenchPytestAlias returns the id SWE-PolyBench's pytest parser gives
// the test whose id (in the "file.py:Class:test[params]" form of this
// package) is id. Its pattern reads the file as the longest run of word
// characters and "/" before ".py" (a directory with "-" or "." in its name
// loses everything up to that character: "tests/my-pkg/test_a.py" is read
// as "pkg/test_a.py"), only one class level (for nested classes "A.B" the
// id becomes "file:A:B"), and keeps parameters only when they are word
// characters and "-" ("test_x[1-2]" keeps them, "test_x[0.5]" is read as
// "test_x"). Ids that need no change, and ids not in this form, are
// returned unchanged.
//
// Source: SWE-PolyBench src/poly_bench_evaluation/parsers/python_parsers.py
// PythonPyUnit._parse_pytest_output (standard_pattern).
func PolyBenchPytestAlias(id string) string {
	i := strings.Index(id, ".py:")
	if i < 0 {
		return id
	}
	stem, rest := id[:i], id[i+4:]
	class, test, ok := strings.Cut(rest, ":")
	if !ok || class == "" || test == "" {
		return id
	}
	j := len(stem)
	for j > 0 {
		r, size := utf8.DecodeLastRuneInString(stem[:j])
		if !isWordRune(r) && r != '/' {
			break
		}
		j -= size
	}
	if j == len(stem) {
		return id
	}
	file := stem[j:] + ".py"
	name, params := test, ""
	if k := strings.IndexByte(test, '['); k >= 0 {
		name, params = test[:k], test[k:]
	}
	if outer, inner, nested := strings.Cut(class, "."); nested {
		class, params = outer, ""
		name, _, _ = strings.Cut(inner, ".")
	}
	if params != "" && !polyBenchParams(params) {
		params = ""
	}
	return file + ":" + class + ":" + name + params
}

// polyBenchParams reports whether p is "[" word characters or "-" "]".
func polyBenchParams(p string) bool {
	if len(p) < 3 || p[0] != '[' || p[len(p)-1] != ']' {
		return false
	}
	for _, r := range p[1 : len(p)-1] {
		if !isWordRune(r) && r != '-' {
			return false
		}
	}
	return true
}

// isWordRune is Python's \w for str patterns: letters, digits and "_".
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// reUnittestVerboseID matches a unittest test named as its verbose output
// names it: "test_x (pkg.mod.Class)" or, from Python 3.11,
// "test_x (pkg.mod.Class.test_x)".
var reUnittestVerboseID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\w+) \(([\w.]+)\)$`) })

// UnittestIDFromVerbose converts a unittest test named the way its verbose
// output (and SWE-bench's Django and unittest datasets) names it,
// "test_x (pkg.mod.Class)", into this package's SWE-PolyBench form
// "pkg.mod.Class:test_x:". Other strings are returned unchanged.
func UnittestIDFromVerbose(id string) string {
	m := reUnittestVerboseID().FindStringSubmatch(id)
	if m == nil {
		return id
	}
	return unittestID(m[1], m[2], "")
}
