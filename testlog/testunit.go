package testlog

import (
	"regexp"
	"strings"
	"sync"
)

// test-unit (Ruby): its verbose output ("CalcTest: " then
// "  test_adds:\t\t.: (0.000351)"), read by polynfi (Parse(TestUnit,
// ...)) and SWE-bench 5.0.2's parse_log_ruby_unit.

var (
	reTestUnitClass = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)([A-Z][\w:]*):\s*$`) })
	reTestUnitTest  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+(\S.*?):\s+([.FEOPN])(?:: \([\d.]+\))?$`) })
)

// parseTestUnit reads test-unit's verbose lines (colour codes removed):
// a class line "Name: " opens a test case (nested ones indented), each
// "  test_x:<tabs>S" under it is one test with id "test_x(Name)" (the
// name test-unit gives it in its failure reports): "." Passed, F Failed,
// E Error, O (omission) and P (pending) Skipped, N (notification) Passed.
//
// Source: test-unit's console runner (test/unit/ui/console/testrunner.rb,
// 3.5, verbose output level).
func parseTestUnit(log []byte) []Result {
	var out []Result
	class := ""
	for _, raw := range splitLines(log) {
		if !strings.Contains(raw, ":") {
			continue
		}
		line := stripANSI(raw)
		if m := reTestUnitClass().FindStringSubmatch(line); m != nil {
			class = m[2]
			continue
		}
		m := reTestUnitTest().FindStringSubmatch(line)
		if m == nil || class == "" {
			continue
		}
		st := map[string]Status{".": Passed, "F": Failed, "E": Error, "O": Skipped, "P": Skipped, "N": Passed}[m[2]]
		out = append(out, Result{ID: m[1] + "(" + class + ")", Status: st})
	}
	return out
}

// reSWEBRubyUnit is SWE-bench's `^\s*(?:test: )?(.+):\s+(\.|E\b|F\b|O\b)`,
// Python's Unicode \b after E, F and O written as "a character that is
// not a word character, or the end" (the match is not anchored at the
// end, so consuming it changes neither group).
var reSWEBRubyUnit = sync.OnceValue(func() *regexp.Regexp {
	return MustCompilePython(`^\s*(?:test: )?(.+):\s+(\.|[EFO](?:$|[^\p{L}\p{N}_]))`)
})

// parseSWEBRubyUnit is SWE-bench's parse_log_ruby_unit: a stripped line
// "[test: ]name:<space>S" (the last such ": S" of the line) with "." PASSED,
// E and F FAILED, O SKIPPED; pending (P) tests are not read. The id is
// the method name without its class.
func parseSWEBRubyUnit(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, ":") {
			continue
		}
		g := reSWEBRubyUnit().FindStringSubmatch(pyStrip(line))
		if g == nil {
			continue
		}
		switch g[2][:1] {
		case ".":
			m.set(g[1], Passed)
		case "E", "F":
			m.set(g[1], Failed)
		case "O":
			m.set(g[1], Skipped)
		}
	}
	return m, nil
}

func init() {
	swebParsers["parse_log_ruby_unit"] = parseSWEBRubyUnit
}
