package testlog

import (
	"regexp"
	"strings"
	"sync"
)

var (
	// reUnittestStart matches the start of a verbose result line:
	// "test_x (pkg.mod.Class.test_x) ..." (3.11+) or "test_x (pkg.mod.Class) ...",
	// indented and followed by "(params)" for a subtest.
	reUnittestStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(\w+) \(([\w.]+)\)(.*)$`) })
	// reUnittestStatus matches the status at the end of a verbose line.
	reUnittestStatus = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|\.\.\. ?)(ok|FAIL|ERROR|skipped(?: .*)?|expected failure|unexpected success)$`)
	})
	// reUnittestHeader matches a failure header: "FAIL: test_x (pkg.Class.test_x) (i=1)"
	// or "FAIL: test_x (pkg.Class) [label] (i=1)".
	reUnittestHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(FAIL|ERROR): (\w+) \(([\w.]+)\)(.*)$`) })
)

// unittestParams returns the subtest parameters written after a test's class
// path, "(i=1)" or "[label] (i=1)", without the outer brackets.
func unittestParams(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '(' && s[len(s)-1] == ')' || s[0] == '[' && s[len(s)-1] == ']') {
		return s[1 : len(s)-1]
	}
	return s
}

func unittestStatus(word string) Status {
	switch {
	case word == "ok":
		return Passed
	case word == "FAIL":
		return Failed
	case word == "unexpected success":
		return XPass
	case word == "ERROR":
		return Error
	case strings.HasPrefix(word, "skipped"):
		return Skipped
	case word == "expected failure":
		return XFail
	}
	return ""
}

// unittestID builds PolyBench's "classpath:test:params" id, dropping the
// method name that Python 3.11+ appends to the class path.
func unittestID(name, classPath, params string) string {
	classPath = strings.TrimSuffix(classPath, "."+name)
	return classPath + ":" + name + ":" + params
}

// parseUnittest reads the verbose output of python -m unittest -v (or
// Django's and pytest-less runners that print the same lines). A result line
// may be split by the test's docstring or its own output; the status is
// taken from the first line after the test's start line that ends in a
// status. An unexpected success is XPass (unittest reports the run as
// unsuccessful; the graders decide what it means). Failed subtests, named
// only in the "FAIL: ... [params]" headers, are added with their parameters
// as the id's third part.
//
// Source: SWE-PolyBench python_parsers.py PythonPyUnit (id format).
func parseUnittest(log []byte) []Result {
	var out []Result
	seen := map[string]bool{}
	pendingName, pendingClass, pendingParams := "", "", ""
	for _, raw := range splitLines(log) {
		line := strings.TrimRight(stripANSI(raw), " \t")
		if m := reUnittestHeader().FindStringSubmatch(line); m != nil {
			id := unittestID(m[2], m[3], unittestParams(m[4]))
			if !seen[id] {
				out = append(out, Result{ID: id, Status: unittestStatus(m[1])})
				seen[id] = true
			}
			pendingName = ""
			continue
		}
		if m := reUnittestStart().FindStringSubmatch(line); m != nil {
			pendingName, pendingClass, line = m[1], m[2], m[3]
			i := strings.LastIndex(line, " ...")
			if i < 0 {
				pendingParams = ""
				continue
			}
			pendingParams = unittestParams(line[:i])
			line = line[i:]
		}
		if pendingName == "" {
			continue
		}
		if m := reUnittestStatus().FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			id := unittestID(pendingName, pendingClass, pendingParams)
			out = append(out, Result{ID: id, Status: unittestStatus(m[1])})
			seen[id] = true
			pendingName = ""
		}
	}
	return out
}
