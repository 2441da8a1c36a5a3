package testlog

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Minitest: its verbose output ("CalcTest#test_adds = 0.00 s = ."), read
// by polynfi (Parse(Minitest, ...)), SWE-bench 5.0.2's parse_log_minitest
// (and parse_log_jekyll, which picks minitest or cucumber by instance) and
// Multi-SWE-bench 1.1.2's reader for asciidoctor and jekyll, which also
// reads test-unit's verbose lines.

var reMinitestLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\S+#\S+) = [\d.]+ s = ([.FES])$`) })

// parseMinitest reads minitest's verbose lines (-v; colour codes
// removed): "Class#test_name = 0.00 s = ." Passed, "F" Failed, "E" Error,
// "S" Skipped. The id is "Class#test_name".
//
// Source: minitest ProgressReporter (minitest.rb, 5.x, verbose mode).
func parseMinitest(log []byte) []Result {
	var out []Result
	for _, raw := range splitLines(log) {
		if !strings.Contains(raw, " s = ") {
			continue
		}
		m := reMinitestLine().FindStringSubmatch(strings.TrimSpace(stripANSI(raw)))
		if m == nil {
			continue
		}
		st := map[string]Status{".": Passed, "F": Failed, "E": Error, "S": Skipped}[m[2]]
		out = append(out, Result{ID: m[1], Status: st})
	}
	return out
}

var reSWEBMinitest = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^(.+)\. .*=.*(\.|F|E).*$`) })

// parseSWEBMinitest is SWE-bench's parse_log_minitest: a stripped line
// "<name>. <anything>=<anything>(.|F|E)<anything>", the name before the
// last ". " that such a tail follows; "." PASSED, F and E FAILED. Plain
// verbose minitest lines ("Class#test = 0.00 s = .") hold no ". " and are
// not read.
func parseSWEBMinitest(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, ". ") || !strings.Contains(line, "=") {
			continue
		}
		g := reSWEBMinitest().FindStringSubmatch(pyStrip(line))
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

// parseSWEBJekyll is SWE-bench's parse_log_jekyll: the instance's number
// (the second "-"-separated field of its id) picks minitest (9141, 8047,
// 8167) or cucumber (8761, 8771); any other instance is an error, as
// SWE-bench raises.
func parseSWEBJekyll(log string, c SWEBenchContext) (*statusMap, error) {
	f := strings.Split(c.InstanceID, "-")
	if len(f) < 2 {
		return nil, fmt.Errorf("parse_log_jekyll cannot read the number of instance %q (IndexError)", c.InstanceID)
	}
	switch f[1] {
	case "9141", "8047", "8167":
		return parseSWEBMinitest(log, c)
	case "8761", "8771":
		return parseSWEBCucumber(log, c)
	}
	return nil, fmt.Errorf("parse_log_jekyll has no parser for instance %q", c.InstanceID)
}

var (
	reMSWERubyPass = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			MustCompilePython(`^(.+?)\s+=?\s*[\d.]+\s*(?:s\s*)?=\s*\.$`),
			MustCompilePython(`^\s*(.+?):\s+\.: \([\d.]+\)$`),
		}
	})
	reMSWERubyFail = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			MustCompilePython(`^(.+?)\s+=?\s*[\d.]+\s*(?:s\s*)?=\s*[FE]$`),
			MustCompilePython(`^\s*(.+?):\s+([.FE])$`),
		}
	})
)

// msweMinitest is Multi-SWE-bench's parse_log for asciidoctor and jekyll:
// minitest's verbose "name = 0.00 s = ." passed and "= F|E" failed, and
// test-unit's verbose "test_x: .: (0.0001)" passed and "test_x: F|E"
// failed (its id the method name alone, without the class; a bare "." is
// failed too). Skips, omissions and pendings are not read.
func msweMinitest(log string) *msweSets {
	s := newMSWESets()
	for _, line := range msweLines(log) {
		if !strings.Contains(line, ":") && !strings.Contains(line, "=") {
			continue
		}
		for _, re := range reMSWERubyPass() {
			if g := re.FindStringSubmatch(line); g != nil {
				s.passed.add(g[1])
			}
		}
		for _, re := range reMSWERubyFail() {
			if g := re.FindStringSubmatch(line); g != nil {
				s.failed.add(g[1])
			}
		}
	}
	return s
}

func init() {
	swebParsers["parse_log_minitest"] = parseSWEBMinitest
	swebParsers["parse_log_jekyll"] = parseSWEBJekyll
	registerMSWE("minitest", msweMinitest, "asciidoctor/asciidoctor", "jekyll/jekyll")
}
