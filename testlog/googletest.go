package testlog

import (
	"regexp"
	"strings"
	"sync"
)

// GoogleTest: the console output of a googletest binary ("[ RUN      ]",
// "[       OK ] Suite.Test (0 ms)"), read by polynfi (Parse(GoogleTest,
// ...)), by SWE-bench 5.0.2's parse_log_googletest and by Multi-SWE-bench
// 1.1.2's googletest reader (ponyc, cpp-httplib).

var (
	reGTestRun    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[ RUN      \] (\S+)`) })
	reGTestResult = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\[\s*(OK|FAILED|SKIPPED)\s*\] (\S+?)(?:, where .*)? \(\d+ ms\)$`)
	})
)

// parseGoogleTest reads googletest's console output: "[       OK ] S.T (N
// ms)" Passed, "[  FAILED  ] S.T (N ms)" Failed (a parameterized test's
// ", where GetParam() = ..." cut), "[  SKIPPED ] S.T (N ms)" Skipped; a
// test whose "[ RUN      ]" line has no result line is Error (the binary
// died in it). Only lines with a time are results: the summary at the end
// names failed tests a second time without one. Colour codes are removed.
// Ids are "Suite.Test" ("Instance/Suite.Test/N" for parameterized tests).
//
// Source: googletest's PrettyUnitTestResultPrinter (gtest.cc, 1.12).
func parseGoogleTest(log []byte) []Result {
	var out []Result
	open := map[string]bool{}
	var started []string
	for _, raw := range splitLines(log) {
		if !containsAny(raw, "RUN", "OK", "FAILED", "SKIPPED") {
			continue
		}
		line := strings.TrimSpace(stripANSI(raw))
		if m := reGTestRun().FindStringSubmatch(line); m != nil {
			if !open[m[1]] {
				open[m[1]] = true
				started = append(started, m[1])
			}
			continue
		}
		m := reGTestResult().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		st := Passed
		switch m[1] {
		case "FAILED":
			st = Failed
		case "SKIPPED":
			st = Skipped
		}
		delete(open, m[2])
		out = append(out, Result{ID: m[2], Status: st})
	}
	return appendCrashed(out, started, open)
}

var reSWEBGoogleTest = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^.*\[\s*(OK|FAILED)\s*\]\s(.*)\s\(.*\)$`) })

// parseSWEBGoogleTest is SWE-bench's parse_log_googletest: a stripped line
// holding "[ OK ]" or "[ FAILED ]" (the last such bracket of the line)
// followed by a name and a parenthesised time sets the name's status.
// Skipped tests are not read; a parameterized test's id keeps its ",
// where GetParam() = ..." text; a test the binary died in is missing.
func parseSWEBGoogleTest(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if !containsAny(line, "OK", "FAILED") {
			continue
		}
		g := reSWEBGoogleTest().FindStringSubmatch(pyStrip(line))
		if g == nil {
			continue
		}
		if g[1] == "OK" {
			m.set(g[2], Passed)
		} else {
			m.set(g[2], Failed)
		}
	}
	return m, nil
}

var (
	reMSWEGTestPass = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			MustCompilePython(`^\[       OK \] (\S+?)( \(.+\))?$`),
			MustCompilePython(`^\x1b\[0;32m\[       OK \] \x1b\[0m(\S+?)( \(.+\))?$`),
			MustCompilePython(`^\x1b\[92m---- Passed: (\S+?)\x1b\[0m$`),
		}
	})
	reMSWEGTestFail = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			MustCompilePython(`^\[  FAILED  \] (\S+?)( \(.+\))?$`),
			MustCompilePython(`^\x1b\[0;31m\[  FAILED  \] \x1b\[0m(\S+?)( \(.+\))?$`),
			MustCompilePython(`^\x1b\[91m\*\*\*\* FAILED: (\S+?)\x1b\[0m$`),
		}
	})
)

// msweGoogleTest is the parse_log of Multi-SWE-bench's ponyc and
// cpp-httplib: "[       OK ] name" and "[  FAILED  ] name" lines, plain or
// in googletest's colours, with an optional parenthesised tail, and
// ponyc's own "---- Passed:" and "**** FAILED:" lines. Skipped tests are
// not read; a parameterized failure with ", where ..." is not read.
func msweGoogleTest(log string) *msweSets {
	s := newMSWESets()
	for _, line := range msweLines(log) {
		if !containsAny(line, "OK", "FAILED", "Passed") {
			continue
		}
		for _, re := range reMSWEGTestPass() {
			if g := re.FindStringSubmatch(line); g != nil {
				s.passed.add(g[1])
			}
		}
		for _, re := range reMSWEGTestFail() {
			if g := re.FindStringSubmatch(line); g != nil {
				s.failed.add(g[1])
			}
		}
	}
	return s
}

func init() {
	swebParsers["parse_log_googletest"] = parseSWEBGoogleTest
	registerMSWE("googletest", msweGoogleTest, "ponylang/ponyc", "yhirose/cpp-httplib")
}
