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
		g := reSWEBCucumber().FindStringSubmatch(pyStrip(line))
		if g == nil {
			continue
		}
		if g[2] == "." {
			m.set(g[1], Passed)
		} else {
			m.set(g[1], Failed)
		}
	}
	return m, nil
}

func init() {
	swebParsers["parse_log_cucumber"] = parseSWEBCucumber
}
