package testlog

import (
	"regexp"
	"strings"
	"sync"
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
		m := reAutomakeLine().FindStringSubmatch(strings.TrimSpace(stripANSI(raw)))
		if m == nil {
			continue
		}
		st := map[string]Status{"PASS": Passed, "FAIL": Failed, "SKIP": Skipped, "XFAIL": XFail, "XPASS": XPass, "ERROR": Error}[m[1]]
		out = append(out, Result{ID: m[2], Status: st})
	}
	return out
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
		if g := reSWEBJq().FindStringSubmatch(pyStrip(line)); g != nil {
			if g[1] == "PASS" {
				m.set(g[2], Passed)
			} else {
				m.set(g[2], Failed)
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
		if g := reMSWEJqPass().FindStringSubmatch(line); g != nil {
			s.passed.add(g[1])
		}
		if g := reMSWEJqFail().FindStringSubmatch(line); g != nil {
			s.failed.add(g[1])
		}
		if g := reMSWEJqSkip().FindStringSubmatch(line); g != nil {
			s.skipped.add(g[1])
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
