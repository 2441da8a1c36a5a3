package testlog

import (
	"regexp"
	"strings"
	"sync"
)

var (
	// reSurefire3Case matches Surefire 3's per-test problem line:
	// "[ERROR] pkg.Class.method -- Time elapsed: 0.01 s <<< FAILURE!".
	reSurefire3Case = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:\[\w+\]\s+)?(\S+)\s+--\s+Time elapsed:.*<<< (FAILURE|ERROR|SKIPPED)!`)
	})
	// reSurefire2Case matches Surefire 2's per-test problem line:
	// "[ERROR] method(pkg.Class)  Time elapsed: 0.01 s  <<< FAILURE!".
	reSurefire2Case = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:\[\w+\]\s+)?([^\s(]+)\(([^)\s]+)\)\s+Time elapsed:.*<<< (FAILURE|ERROR|SKIPPED)!`)
	})
)

// parseSurefire reads the console output of a Maven build that ran Maven
// Surefire. When the log contains Surefire XML reports (a test command that
// prints target/surefire-reports/TEST-*.xml, as PolyBench's Java commands
// do), those reports are authoritative and are parsed with ParseJUnitXML
// (ids "pkg.Class.method"). Otherwise the console's per-test problem lines
// are used: "<<< FAILURE!" is Failed, "<<< ERROR!" Error, "<<< SKIPPED!"
// Skipped. Surefire's console does not name passing tests, so a console-only
// log yields no Passed results; prefer the XML reports (FindJUnitReports).
//
// Source: Maven Surefire console reporter output (2.x and 3.x forms);
// SWE-PolyBench java_parsers.py (XML reports embedded in the log).
func parseSurefire(log []byte) []Result {
	if rs := parseEmbeddedJUnit(log); len(rs) > 0 {
		return rs
	}
	return SurefireConsole(log)
}

// SurefireConsole reads only the per-test problem lines of Maven
// Surefire's console output in log ("<<< FAILURE!" Failed, "<<< ERROR!"
// Error, "<<< SKIPPED!" Skipped; ids "pkg.Class.method"), whatever XML
// reports the log also holds: the runner's own account of what failed,
// which a report file rewritten after Surefire wrote it (or printed by
// the code under test) cannot change.
func SurefireConsole(log []byte) []Result {
	var out []Result
	for _, raw := range splitLines(log) {
		line := strings.TrimSpace(stripANSI(raw))
		if m := reSurefire3Case().FindStringSubmatch(line); m != nil {
			out = append(out, Result{ID: m[1], Status: surefireStatus(m[2])})
			continue
		}
		if m := reSurefire2Case().FindStringSubmatch(line); m != nil {
			out = append(out, Result{ID: m[2] + "." + m[1], Status: surefireStatus(m[3])})
		}
	}
	return out
}

func surefireStatus(word string) Status {
	switch word {
	case "FAILURE":
		return Failed
	case "ERROR":
		return Error
	}
	return Skipped
}
