package testlog

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Automake's test harness (make check): "PASS: name", "FAIL: name" lines
// (jq, and every autotools project), read by polynfi (Parse(Automake,
// ...)), SWE-bench 5.0.2's parse_log_jq and Multi-SWE-bench 1.1.2's jq
// reader.

var reAutomakeLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): (.+)$`) })

// parseAutomake reads the per-test lines of automake's parallel test
// harness (colour codes removed): PASS Passed, FAIL Failed, SKIP Skipped,
// XFAIL XFail, XPASS XPass (automake counts it a failure), ERROR Error (a
// hard error: the test could not run, or exited 99). The id is the rest of
// the line ("tests/foo.test", or for a TAP test "tests/foo.test 3 -
// name"). The summary lines ("# PASS:  3") are not read.
//
// Source: GNU Automake manual, "Parallel Test Harness" and
// "Using the TAP test protocol" (lib/test-driver, lib/tap-driver.sh).
func parseAutomake(log []byte) []Result {
	var out []Result
	for _, raw := range splitLines(log) {
		if !strings.Contains(raw, ": ") {
			continue
		}
		word, name, ok := automakeLine(strings.TrimSpace(stripANSI(raw)))
		if !ok {
			continue
		}
		out = append(out, Result{ID: name, Status: automakeStatus[word]})
	}
	return out
}

var automakeStatus = map[string]Status{"PASS": Passed, "FAIL": Failed, "SKIP": Skipped, "XFAIL": XFail, "XPASS": XPass, "ERROR": Error}

// automakeLine is reAutomakeLine written out
// (TestAutomakeMatchersAgreeWithPatterns): the word and the name.
func automakeLine(line string) (word, name string, ok bool) {
	i := strings.IndexByte(line, ':')
	if i < 0 || automakeStatus[line[:i]] == "" || !strings.HasPrefix(line[i:], ": ") {
		return "", "", false
	}
	name = line[i+2:]
	if !validName(name) {
		return "", "", false
	}
	return line[:i], name, true
}

// swebJqLine is reSWEBJq written out (TestAutomakeMatchersAgreeWithPatterns).
func swebJqLine(line string) (word, name string, ok bool) {
	i := pySpaces(line, 0)
	if !strings.HasPrefix(line[i:], "PASS:") && !strings.HasPrefix(line[i:], "FAIL:") {
		return "", "", false
	}
	word = line[i : i+4]
	r, n := utf8.DecodeRuneInString(line[i+5:])
	if n == 0 || !pyReSpace(r) {
		return "", "", false
	}
	name = line[i+5+n:]
	if !validName(name) {
		return "", "", false
	}
	return word, name, true
}

// msweJqLine is "^<word>: (\S+)$" written out
// (TestAutomakeMatchersAgreeWithPatterns).
func msweJqLine(line, word string) (string, bool) {
	if !strings.HasPrefix(line, word) || !strings.HasPrefix(line[len(word):], ": ") {
		return "", false
	}
	i := len(word) + 2
	if j := pyNonSpaces(line, i); j == i || j != len(line) {
		return "", false
	}
	return line[i:], true
}

var reSWEBJq = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\s*(PASS|FAIL):\s(.+)$`) })

// parseSWEBJq is SWE-bench's parse_log_jq: stripped "PASS: name" lines
// PASSED, "FAIL: name" FAILED; SKIP, XFAIL, XPASS and ERROR lines are not
// read.
func parseSWEBJq(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if !containsAny(line, "PASS:", "FAIL:") {
			continue
		}
		if word, name, ok := swebJqLine(pyStrip(line)); ok {
			if word == "PASS" {
				m.set(name, Passed)
			} else {
				m.set(name, Failed)
			}
		}
	}
	return m, nil
}

var (
	reMSWEJqPass = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^PASS: (\S+)$`) })
	reMSWEJqFail = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^FAIL: (\S+)$`) })
	reMSWEJqSkip = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^SKIP: (\S+)$`) })
)

// msweJq is Multi-SWE-bench's parse_log for jqlang/jq: "PASS: name",
// "FAIL: name", "SKIP: name" lines whose name has no white space (a TAP
// test's "name 3 - title" is not read); XFAIL, XPASS and ERROR are not read.
func msweJq(log string) *msweSets {
	s := newMSWESets()
	for _, line := range msweLines(log) {
		if !containsAny(line, "PASS: ", "FAIL: ", "SKIP: ") {
			continue
		}
		if name, ok := msweJqLine(line, "PASS"); ok {
			s.passed.add(name)
		}
		if name, ok := msweJqLine(line, "FAIL"); ok {
			s.failed.add(name)
		}
		if name, ok := msweJqLine(line, "SKIP"); ok {
			s.skipped.add(name)
		}
	}
	return s
}

var reSWEBMicropython = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^(pass|FAIL|skip)\s+(.+)$`) })

// parseSWEBMicropython is SWE-bench's parse_log_micropython_test, for
// micropython's run-tests.py: stripped "pass name", "FAIL name", "skip
// name" lines.
func parseSWEBMicropython(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if !containsAny(line, "pass", "FAIL", "skip") {
			continue
		}
		g := reSWEBMicropython().FindStringSubmatch(pyStrip(line))
		if g == nil {
			continue
		}
		switch g[1] {
		case "pass":
			m.set(g[2], Passed)
		case "FAIL":
			m.set(g[2], Failed)
		case "skip":
			m.set(g[2], Skipped)
		}
	}
	return m, nil
}

func init() {
	swebParsers["parse_log_jq"] = parseSWEBJq
	swebParsers["parse_log_micropython_test"] = parseSWEBMicropython
	registerMSWE("automake_jq", msweJq, "jqlang/jq")
}
