package testlog

import (
	"regexp"
	"strings"
	"sync"
)

// Cucumber: SWE-bench 5.0.2's parse_log_cucumber (jekyll's features run
// with --format progress). polynfi has no reading of its own: Cucumber's
// JUnit formatter (--format junit) is read as JUnit XML.

var reSWEBCucumber = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^(.*) \.+(\.|F)`) })

// parseSWEBCucumber is SWE-bench's parse_log_cucumber: a stripped line
// "name ...." whose run of dots is followed by one more "." (PASSED) or by
// "F" (FAILED), the name being everything before the last " ." that such
// a tail follows.
func parseSWEBCucumber(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, " .") {
			continue
		}
		name, passed, ok := swebCucumberLine(pyStrip(line))
		if !ok {
			continue
		}
		if passed {
			m.set(name, Passed)
		} else {
			m.set(name, Failed)
		}
	}
	return m, nil
}

// swebCucumberLine is reSWEBCucumber written out
// (TestCucumberMatcherAgreesWithPattern): the greedy "(.*)" ends at the
// last " " followed by dots and then "F" (failed), or by two dots or more
// (passed, the last dot the group's).
func swebCucumberLine(line string) (name string, passed, ok bool) {
	if k := strings.IndexByte(line, '\n'); k >= 0 {
		line = line[:k] // no part of the pattern matches a newline
	}
	for i := strings.LastIndex(line, " ."); i >= 0; i = strings.LastIndex(line[:i], " .") {
		j := i + 1
		for j < len(line) && line[j] == '.' {
			j++
		}
		switch {
		case j < len(line) && line[j] == 'F':
			return line[:i], false, true
		case j-i-1 >= 2:
			return line[:i], true, true
		}
	}
	return "", false, false
}

func init() {
	swebParsers["parse_log_cucumber"] = parseSWEBCucumber
}
