package testlog

import (
	"regexp"
	"strings"
	"sync"
)

// PHPUnit: its --testdox console output ("Calculator (Tests\Calculator)",
// " ✔ Adds numbers"), read by polynfi (Parse(PHPUnit, ...)), SWE-bench
// 5.0.2's parse_log_phpunit and Multi-SWE-bench 1.1.2's reader for Carbon
// and laravel; its --log-junit report is read as JUnit XML (ids
// "Class.testMethod").

var (
	reTestdoxSuite = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\S.*?)(?: \((\S+)\))?$`) })
	reTestdoxTest  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+([✔✘↩∅☢⚠])\s*(.*)$`) })
)

// parseTestdox reads PHPUnit's testdox output: a line starting in column 0
// that is not PHPUnit's own (version, time, summary) opens a class
// ("Calculator", or "Calculator (Tests\Calculator)" when it has a
// namespace); each indented " ✔ title" under it is one test with id
// "<class title> > <test title>" (SWE-bench's id): ✔ Passed, ✘ Failed
// (failure or error), ↩ Skipped, ∅ (incomplete) Skipped, ☢ (risky) and ⚠
// (warning) Passed. A test line before any class is read with class
// "None", as SWE-bench reads it. Colour codes are removed.
//
// Source: PHPUnit 9.6 TestDox CliTestDoxPrinter (the symbols).
func parseTestdox(log []byte) []Result {
	var out []Result
	suite := "None"
	for _, raw := range splitLines(log) {
		line := strings.TrimRight(stripANSI(raw), " \t")
		if m := reTestdoxTest().FindStringSubmatch(line); containsAny(line, "✔", "✘", "↩", "∅", "☢", "⚠") && m != nil {
			var st Status
			switch m[1] {
			case "✔", "☢", "⚠":
				st = Passed
			case "✘":
				st = Failed
			default:
				st = Skipped
			}
			out = append(out, Result{ID: suite + " > " + m[2], Status: st})
			continue
		}
		if line == "" || line[0] == ' ' || line[0] == '\t' || testdoxChrome(line) {
			continue
		}
		suite = line
		if strings.HasSuffix(line, ")") {
			if i := strings.LastIndex(line, " ("); i > 0 && !strings.ContainsAny(line[i+2:len(line)-1], " \t") {
				suite = line[:i]
			}
		}
	}
	return out
}

// testdoxChrome reports whether a column-0 line is PHPUnit's own.
func testdoxChrome(line string) bool {
	for _, p := range []string{"PHPUnit ", "Runtime:", "Configuration:", "Time:", "Tests:", "OK (", "OK, but", "ERRORS!", "FAILURES!", "WARNINGS!", "There w", "Random Seed:", "No tests executed!", "Warning:", "--"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

var (
	reSWEBPHPUnitSuite = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^(\w.+) \(.+\)$`) })
	reSWEBPHPUnitTest  = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\s*([✔✘↩])\s*(.*)$`) })
)

// parseSWEBPHPUnit is SWE-bench's parse_log_phpunit: a line (not
// stripped) "Title (anything)" starting with a word character sets the
// suite; a line "✔|✘|↩ title" gives "<suite> > <title>" PASSED, FAILED or
// SKIPPED, the suite "None" until one is set. PHPUnit prints a class
// without a namespace as its title alone, which never sets the suite;
// incomplete (∅) and risky (☢) tests are not read.
func parseSWEBPHPUnit(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	suite := "None"
	for _, line := range strings.Split(log, "\n") {
		suiteLike := strings.HasSuffix(line, ")") && strings.Contains(line, " (")
		if !suiteLike && !containsAny(line, "✔", "✘", "↩") {
			continue
		}
		if g := reSWEBPHPUnitSuite().FindStringSubmatch(line); suiteLike && g != nil {
			suite = g[1]
			continue
		}
		g := reSWEBPHPUnitTest().FindStringSubmatch(line)
		if g == nil {
			continue
		}
		id := suite + " > " + g[2]
		switch g[1] {
		case "✔":
			m.set(id, Passed)
		case "✘":
			m.set(id, Failed)
		case "↩":
			m.set(id, Skipped)
		}
	}
	return m, nil
}

var (
	reMSWEPHPProgress = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^[.s]+\s+\d+\s*/\s*\d+\s*\(\s*\d+%\)$`) })
	reMSWEPHPSuite    = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^(.*?) \((.*?)\)$`) })
	reMSWEPHPPass     = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^✔\s+(.*)$`) })
	reMSWEPHPFail     = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^✘\s+(.*)$`) })
	reMSWEPHPSkip     = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^↩\s+(.*)$`) })
)

// msweTestdox is Multi-SWE-bench's parse_log for briannesbitt/Carbon and
// laravel/framework: on stripped lines, any line ending "title (x)" sets
// the suite to "x::title" (a test line ending in parentheses too, which is
// then not read as a test); "✔ title", "✘ title" and "↩ title" under a
// suite give "<suite>::<title>"; tests before the first suite, and every
// test of a class printed without a namespace (no parentheses), are not
// read; incomplete (∅) tests are not read.
func msweTestdox(log string) *msweSets {
	s := newMSWESets()
	suite := ""
	for _, line := range msweLines(log) {
		suiteLike := strings.HasSuffix(line, ")") && strings.Contains(line, " (")
		if !suiteLike && !containsAny(line, "✔", "✘", "↩") {
			continue
		}
		if suiteLike && reMSWEPHPProgress().MatchString(line) {
			continue
		}
		if g := reMSWEPHPSuite().FindStringSubmatch(line); suiteLike && g != nil {
			suite = g[2] + "::" + pyStrip(g[1])
			continue
		}
		for _, c := range []struct {
			re  *regexp.Regexp
			set strSet
		}{{reMSWEPHPPass(), s.passed}, {reMSWEPHPFail(), s.failed}, {reMSWEPHPSkip(), s.skipped}} {
			if g := c.re.FindStringSubmatch(line); g != nil && suite != "" {
				c.set.add(suite + "::" + pyStrip(g[1]))
				break
			}
		}
	}
	return s
}

func init() {
	swebParsers["parse_log_phpunit"] = parseSWEBPHPUnit
	registerMSWE("phpunit_testdox", msweTestdox, "briannesbitt/Carbon", "laravel/framework")
}
