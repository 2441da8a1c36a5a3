package testlog

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// SWE-bench log parsers.
//
// A SWE-bench row of harness release 5.x names the parser that reads its
// log (log_parser, a key of SWE-bench's PARSER_REGISTRY). ParseSWEBench
// reads a log the way that parser does, so that grading matches SWE-bench
// on its own logs: ids are spelled as SWE-bench spells them (pytest node
// ids as printed, Django's "test_x (pkg.mod.Class)", Jest titles, Maven's
// -Dtest argument), and the result is SWE-bench's status map: one entry per
// id, the last status read winning, ids in order of first appearance (a
// Python dict).
//
// Faithful down to the quirks that decide published results: a pytest
// summary line "PASSED [100%]" (the wrapped tail of a progress line) maps
// the id "[100%]" to PASSED, which some published PASS_TO_PASS lists
// expect (pytest-dev__pytest-5227, -5262, -7521); "SKIPPED [2] file:line:
// reason" is not read (the count is not a test); only FAILED lines have
// " - " removed; the status word is the line's first field as written.
//
// Source: SWE-bench 5.0.2 swebench/harness/log_parsers/{python,java,
// javascript}.py and __init__.py (PARSER_REGISTRY). polynfi's own code.

// The classes of Python's re module for str patterns, which are Unicode:
// \s is any character str.isspace() accepts, \d any decimal digit (Nd),
// \w any character str.isalnum() accepts or "_". Go's are ASCII.
const (
	pySpace    = `\t\n\v\f\r \x{1c}-\x{1f}\x{85}\p{Z}`
	pyDigit    = `\p{Nd}`
	pyWordChar = `\p{L}\p{N}_`
)

var pyClasses = strings.NewReplacer(`\s`, `[`+pySpace+`]`, `\S`, `[^`+pySpace+`]`, `\d`, pyDigit, `\w`, `[`+pyWordChar+`]`)

// MustCompilePython compiles a regular expression written for Python's re
// module with its Unicode meaning of \s, \S, \d and \w (pattern must not
// use them inside brackets or after another backslash). It panics when
// the pattern does not compile.
func MustCompilePython(pattern string) *regexp.Regexp {
	return regexp.MustCompile(pyClasses.Replace(pattern))
}

// SWEBenchContext is what some SWE-bench parsers read besides the log.
type SWEBenchContext struct {
	InstanceID string // immutable-js chooses its parser by PR number
	Version    string
}

type swebParser func(log string, c SWEBenchContext) (*statusMap, error)

// swebParsers maps SWE-bench parser names to polynfi's implementations:
// the pytest family (with SWE-bench's per-repository aliases), Django,
// sympy, seaborn, matplotlib, and the Java, JavaScript and TypeScript
// parsers of SWE-bench Multilingual (Maven, Ant, Gradle; Jest, Jest JSON,
// Vitest, Karma, TAP, immutable-js).
var swebParsers = map[string]swebParser{
	"parse_log_pytest":         parseSWEBPytest,
	"parse_log_pytest_options": parseSWEBPytestOptions,
	"parse_log_pytest_v2":      parseSWEBPytestV2,
	"parse_log_django":         parseSWEBDjango,
	"parse_log_sympy":          parseSWEBSympy,
	"parse_log_seaborn":        parseSWEBSeaborn,
	"parse_log_matplotlib":     parseSWEBMatplotlib,
	// Repository aliases of SWE-bench's log_parsers/python.py.
	"parse_log_astroid":     parseSWEBPytest,
	"parse_log_flask":       parseSWEBPytest,
	"parse_log_marshmallow": parseSWEBPytest,
	"parse_log_pvlib":       parseSWEBPytest,
	"parse_log_pyvista":     parseSWEBPytest,
	"parse_log_sqlfluff":    parseSWEBPytest,
	"parse_log_xarray":      parseSWEBPytest,
	"parse_log_pydicom":     parseSWEBPytestOptions,
	"parse_log_requests":    parseSWEBPytestOptions,
	"parse_log_pylint":      parseSWEBPytestOptions,
	"parse_log_astropy":     parseSWEBPytestV2,
	"parse_log_scikit":      parseSWEBPytestV2,
	"parse_log_sphinx":      parseSWEBPytestV2,
	// Java (SWE-bench Multilingual).
	"parse_log_maven":         parseSWEBMaven,
	"parse_log_ant":           parseSWEBAnt,
	"parse_log_gradle_custom": parseSWEBGradle,
	// JavaScript and TypeScript (SWE-bench Multilingual).
	"parse_log_jest":         parseSWEBJest,
	"parse_log_jest_json":    parseSWEBJestJSON,
	"parse_log_vitest":       parseSWEBVitest,
	"parse_log_karma":        parseSWEBKarma,
	"parse_log_tap":          parseSWEBTAP,
	"parse_log_immutable_js": parseSWEBImmutableJS,
}

// SWEBenchParserKnown reports whether ParseSWEBench implements the SWE-bench
// parser called name.
func SWEBenchParserKnown(name string) bool {
	_, ok := swebParsers[name]
	return ok
}

// ParseSWEBench reads log with the SWE-bench parser called name and
// returns its status map as results (one per id, in order of first
// appearance, with the last status read). The error is non-nil for an
// unknown name (check SWEBenchParserKnown) and where SWE-bench's parser
// itself raises (immutable-js for an instance it has no parser for).
func ParseSWEBench(name string, log []byte, c SWEBenchContext) ([]Result, error) {
	p, ok := swebParsers[name]
	if !ok {
		return nil, fmt.Errorf("unknown SWE-bench log parser %q", name)
	}
	m, err := p(string(log), c)
	if err != nil {
		return nil, err
	}
	return m.results(), nil
}

// statusMap is a Python dict from test id to status: insertion order of
// first appearance, last write wins.
type statusMap struct {
	res []Result       // one per id, in order of first appearance
	idx map[string]int // id -> its place in res
}

func newStatusMap() *statusMap { return &statusMap{idx: map[string]int{}} }

// set is Python's test_status_map[id] = s: an id keeps its first place and
// takes the last status.
func (m *statusMap) set(id string, s Status) {
	if i, ok := m.idx[id]; ok {
		m.res[i].Status = s
		return
	}
	m.idx[id] = len(m.res)
	m.res = append(m.res, Result{ID: id, Status: s})
}

func (m *statusMap) results() []Result {
	out := make([]Result, len(m.res))
	copy(out, m.res)
	return out
}

// pyIsSpace is Python's str.isspace for one character: Unicode white
// space plus the separators \x1c-\x1f, which Go's unicode.IsSpace leaves
// out.
func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// pySplit is Python's str.split() without arguments.
func pySplit(s string) []string { return strings.FieldsFunc(s, pyIsSpace) }

// pyStrip is Python's str.strip() without arguments.
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }

// swebStatuses are SWE-bench's TestStatus values, in its enum order.
var swebStatuses = []string{"FAILED", "PASSED", "SKIPPED", "ERROR", "XFAIL"}

func startsWithStatus(line string) bool {
	for _, s := range swebStatuses {
		if strings.HasPrefix(line, s) {
			return true
		}
	}
	return false
}

func endsWithStatus(line string) bool {
	for _, s := range swebStatuses {
		if strings.HasSuffix(line, s) {
			return true
		}
	}
	return false
}

var reSkipSummaryCount = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\[\d+\]$`) })

// isSkipSummary: pytest's "SKIPPED [N] path:line: reason" line, whose [N]
// is a count, not a test. Only for SKIPPED: "PASSED [100%]" is read.
func isSkipSummary(status, name string) bool {
	return status == "SKIPPED" && reSkipSummaryCount().MatchString(name)
}

// pytestLine reads one line the way parse_log_pytest and its variants do:
// a line starting with a status word, " - " removed from FAILED lines, the
// first field the status and the second the id.
func pytestLine(line string) (id, status string, ok bool) {
	if !startsWithStatus(line) {
		return "", "", false
	}
	if strings.HasPrefix(line, "FAILED") {
		line = strings.ReplaceAll(line, " - ", " ")
	}
	f := pySplit(line)
	if len(f) <= 1 || isSkipSummary(f[0], f[1]) {
		return "", "", false
	}
	return f[1], f[0], true
}

func parseSWEBPytest(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if id, st, ok := pytestLine(line); ok {
			m.set(id, Status(st))
		}
	}
	return m, nil
}

var reOption = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`(.*?)\[(.*)\]`) })

// parseSWEBPytestOptions is parse_log_pytest with a parametrized id's
// parameter cut to its last path component when it is an absolute path
// ("test_x[/tmp/a/b.txt]" → "test_x[/b.txt]"), for repositories whose
// parameters hold machine-specific paths.
func parseSWEBPytestOptions(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		id, st, ok := pytestLine(line)
		if !ok {
			continue
		}
		if g := reOption().FindStringSubmatch(id); g != nil {
			main, option := g[1], g[2]
			if strings.HasPrefix(option, "/") && !strings.HasPrefix(option, "//") && !strings.Contains(option, "*") {
				option = "/" + option[strings.LastIndex(option, "/")+1:]
			}
			id = main + "[" + option + "]"
		}
		m.set(id, Status(st))
	}
	return m, nil
}

var reBareColour = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`\[(\d+)m`) })

// parseSWEBPytestV2: colour codes and control characters (1-31) removed;
// a line starting with a status gives the status and the rest of the line
// as id (FAILED lines cut at " - "); otherwise a line ending with a status
// (older pytest's verbose lines) gives the id before it.
func parseSWEBPytestV2(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		line = reBareColour().ReplaceAllString(line, "")
		line = strings.Map(func(r rune) rune {
			if r >= 1 && r < 32 {
				return -1
			}
			return r
		}, line)
		if startsWithStatus(line) {
			if strings.HasPrefix(line, "FAILED") {
				line, _, _ = strings.Cut(line, " - ")
			}
			f := pySplit(line)
			if len(f) >= 2 && !isSkipSummary(f[0], f[1]) {
				m.set(strings.Join(f[1:], " "), Status(f[0]))
			}
		} else if endsWithStatus(line) {
			f := pySplit(line)
			if len(f) >= 2 {
				m.set(strings.Join(f[:len(f)-1], " "), Status(f[len(f)-1]))
			}
		}
	}
	return m, nil
}

func parseSWEBMatplotlib(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	r := strings.NewReplacer("MouseButton.LEFT", "1", "MouseButton.RIGHT", "3")
	for _, line := range strings.Split(log, "\n") {
		if id, st, ok := pytestLine(r.Replace(line)); ok {
			m.set(id, Status(st))
		}
	}
	return m, nil
}

func parseSWEBSeaborn(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		f := pySplit(line)
		if len(f) < 2 {
			continue
		}
		switch {
		case strings.HasPrefix(line, "FAILED"):
			m.set(f[1], Failed)
		case strings.Contains(line, " PASSED "):
			if f[1] == "PASSED" {
				m.set(f[0], Passed)
			}
		case strings.HasPrefix(line, "PASSED"):
			m.set(f[1], Passed)
		}
	}
	return m, nil
}

var djangoPassSuffixes = []string{" ... ok", " ... OK", " ...  OK"}

// djangoInterrupted are the multi-line shapes in which Django's output
// interrupts a test's "... ok" (SWE-bench's parse_log_django patterns).
var djangoInterrupted = []*regexp.Regexp{
	MustCompilePython(`(?m)^(.*?)\s\.\.\.\sTesting against Django installed in ((?s:.*?)) silenced\)\.\nok$`),
	MustCompilePython(`(?m)^(.*?)\s\.\.\.\sInternal Server Error: /(.*)/\nok$`),
	MustCompilePython(`(?m)^(.*?)\s\.\.\.\sSystem check identified no issues \(0 silenced\)\nok$`),
}

// parseSWEBDjango reads Django's runtests.py verbose output: "test_x
// (pkg.mod.Class) ... ok|skipped|FAIL|ERROR", "FAIL: test_x (...)" and
// "ERROR: test_x (...)" headers, an "ok" on its own line after other output
// for the last test started, and three interrupted shapes. A "FAIL:" or
// "ERROR:" line with nothing after it is an error, as SWE-bench's parser
// raises there (the instance is then not graded).
func parseSWEBDjango(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	prev, hasPrev := "", false
	for n, line := range strings.Split(log, "\n") {
		line = pyStrip(line)
		if strings.Contains(line, "--version is equivalent to version") {
			m.set("--version is equivalent to version", Passed)
		}
		if i := strings.Index(line, " ... "); i >= 0 {
			prev, hasPrev = line[:i], true
		}
		for _, suf := range djangoPassSuffixes {
			if strings.HasSuffix(line, suf) {
				if strings.HasPrefix(pyStrip(line), "Applying sites.0002_alter_domain_unique...test_no_migrations") {
					if _, after, ok := strings.Cut(line, "..."); ok {
						line = pyStrip(after)
					}
				}
				m.set(line[:strings.LastIndex(line, suf)], Passed)
				break
			}
		}
		if i := strings.Index(line, " ... skipped"); i >= 0 {
			m.set(line[:i], Skipped)
		}
		if strings.HasSuffix(line, " ... FAIL") {
			m.set(line[:strings.Index(line, " ... FAIL")], Failed)
		}
		if strings.HasPrefix(line, "FAIL:") {
			f := pySplit(line)
			if len(f) < 2 {
				return nil, fmt.Errorf("line %d: %q names no test (SWE-bench's parse_log_django raises IndexError here)", n+1, line)
			}
			m.set(pyStrip(f[1]), Failed)
		}
		if strings.HasSuffix(line, " ... ERROR") {
			m.set(line[:strings.Index(line, " ... ERROR")], Error)
		}
		if strings.HasPrefix(line, "ERROR:") {
			f := pySplit(line)
			if len(f) < 2 {
				return nil, fmt.Errorf("line %d: %q names no test (SWE-bench's parse_log_django raises IndexError here)", n+1, line)
			}
			m.set(pyStrip(f[1]), Error)
		}
		if strings.HasPrefix(strings.TrimLeftFunc(line, pyIsSpace), "ok") && hasPrev {
			m.set(prev, Passed)
		}
	}
	for _, re := range djangoInterrupted {
		for _, g := range re.FindAllStringSubmatch(log, -1) {
			m.set(g[1], Passed)
		}
	}
	return m, nil
}

var reSympyFailure = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`(_*) (.*)\.py:(.*) (_*)`) })

// parseSWEBSympy reads sympy's bin/test output: a "___ path.py:test_x ___"
// header fails "path.py:test_x"; a line "test_x ok|F|E" gives its status.
func parseSWEBSympy(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, g := range reSympyFailure().FindAllStringSubmatch(log, -1) {
		m.set(g[2]+".py:"+g[3], Failed)
	}
	for _, line := range strings.Split(log, "\n") {
		line = pyStrip(line)
		if !strings.HasPrefix(line, "test_") {
			continue
		}
		name := pySplit(line)[0]
		if strings.HasSuffix(line, " E") {
			m.set(name, Error)
		}
		if strings.HasSuffix(line, " F") {
			m.set(name, Failed)
		}
		if strings.HasSuffix(line, " ok") {
			m.set(name, Passed)
		}
	}
	return m, nil
}

var (
	reMavenTest   = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^.*-Dtest=(\S+).*$`) })
	reMavenResult = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^.*BUILD (SUCCESS|FAILURE)$`) })
)

// parseSWEBMaven pairs each traced "mvn ... -Dtest=X" command (set -x) with
// the next "BUILD SUCCESS|FAILURE", first in first out; results before
// their command are paired at the end.
func parseSWEBMaven(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	var pending, unmatched []string
	put := func(name, st string) {
		if st == "SUCCESS" {
			m.set(name, Passed)
		} else {
			m.set(name, Failed)
		}
	}
	for _, line := range strings.Split(log, "\n") {
		line = pyStrip(line)
		if g := reMavenTest().FindStringSubmatch(line); g != nil {
			pending = append(pending, g[1])
		}
		if g := reMavenResult().FindStringSubmatch(line); g != nil {
			if len(pending) > 0 {
				put(pending[0], g[1])
				pending = pending[1:]
			} else {
				unmatched = append(unmatched, g[1])
			}
		}
	}
	for len(pending) > 0 && len(unmatched) > 0 {
		put(pending[0], unmatched[0])
		pending, unmatched = pending[1:], unmatched[1:]
	}
	return m, nil
}

var reAnt = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\s*\[junit\]\s+\[(PASS|FAIL|ERR)\]\s+(.*)$`) })

func parseSWEBAnt(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if g := reAnt().FindStringSubmatch(pyStrip(line)); g != nil {
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
	reGradleFull   = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^([^>].+)\s+(PASSED|FAILED)$`) })
	reGradleName   = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^([^>]\S*\s+>\s+\S+)$`) })
	reGradleStatus = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^(PASSED|FAILED)$`) })
)

// parseSWEBGradle reads "pkg.Class > method PASSED|FAILED" lines, and a
// name line whose status comes on a later line of its own.
func parseSWEBGradle(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	pending := ""
	put := func(name, st string) {
		if st == "PASSED" {
			m.set(name, Passed)
		} else {
			m.set(name, Failed)
		}
	}
	for _, line := range strings.Split(log, "\n") {
		s := pyStrip(line)
		if g := reGradleFull().FindStringSubmatch(s); g != nil {
			put(g[1], g[2])
			pending = ""
			continue
		}
		if g := reGradleName().FindStringSubmatch(s); g != nil {
			pending = g[1]
			continue
		}
		if pending != "" {
			if g := reGradleStatus().FindStringSubmatch(s); g != nil {
				put(pending, g[1])
				pending = ""
			}
		}
	}
	return m, nil
}

var reJestVerbose = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\s*(✓|✕|○)\s(.+?)(?:\s\((\d+\s*m?s)\))?$`) })

// parseSWEBJest reads Jest's --verbose lines: "✓ title (5 ms)" passed,
// "✕" failed, "○" skipped; the id is the test's title alone.
func parseSWEBJest(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		g := reJestVerbose().FindStringSubmatch(pyStrip(line))
		if g == nil {
			continue
		}
		name := pyStrip(g[2])
		switch g[1] {
		case "✓":
			m.set(name, Passed)
		case "✕":
			m.set(name, Failed)
		case "○":
			m.set(name, Skipped)
		}
	}
	return m, nil
}

var reSWEBJestJSON = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\[(PASSED|FAILED)\]\s(.+)$`) })

// parseSWEBJestJSON reads "[PASSED] full name" lines (Jest's --json output
// turned into lines by the eval script).
func parseSWEBJestJSON(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if g := reSWEBJestJSON().FindStringSubmatch(pyStrip(line)); g != nil {
			m.set(g[2], Status(g[1]))
		}
	}
	return m, nil
}

var reVitest = sync.OnceValue(func() *regexp.Regexp {
	return MustCompilePython(`^\s*(✓|×|↓)\s(.+?)(?:\s(\d+\s*m?s?|\[skipped\]))?$`)
})

// parseSWEBVitest reads Vitest's verbose reporter: "✓ file > suite > test
// 3ms" passed, "×" failed, "↓ ... [skipped]" skipped.
func parseSWEBVitest(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		g := reVitest().FindStringSubmatch(pyStrip(line))
		if g == nil {
			continue
		}
		switch g[1] {
		case "✓":
			m.set(g[2], Passed)
		case "×":
			m.set(g[2], Failed)
		case "↓":
			m.set(g[2], Skipped)
		}
	}
	return m, nil
}

var reKarma = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^(\s*)?([✔✖])?\s(.*)$`) })

// parseSWEBKarma reads Karma's spec reporter after "Starting browser" and
// before "SUMMARY:": indented suite lines build the suite path (one level
// per deeper indent, one popped per shallower one), "✔ name" passes and
// "✖ name" fails as "suite > ... > name". A dedent with no suite open is
// an error, as SWE-bench's parser raises there.
func parseSWEBKarma(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	indent := -1
	var suite []string
	started := false
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, "SUMMARY:") {
			return m, nil
		}
		if strings.Contains(line, "Starting browser") {
			started = true
			continue
		}
		if !started {
			continue
		}
		g := reKarma().FindStringSubmatch(line)
		if g == nil {
			continue
		}
		ind, status, name := g[1], g[2], g[3]
		if ind != "" && status == "" {
			n := len([]rune(ind))
			if n > indent {
				indent = n
				suite = append(suite, name)
			} else if n < indent {
				indent = n
				if len(suite) == 0 {
					return nil, errors.New("a suite line shallower than every open suite (SWE-bench's parse_log_karma raises IndexError here)")
				}
				suite = suite[:len(suite)-1]
				continue
			}
		}
		if status == "✔" || status == "✖" {
			full := strings.Join(append(append([]string{}, suite...), name), " > ")
			if status == "✔" {
				m.set(full, Passed)
			} else {
				m.set(full, Failed)
			}
		}
	}
	return m, nil
}

var reSWEBTAP = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^(ok|not ok) (\d+) (.+)$`) })

// parseSWEBTAP reads "ok N name" (passed) and "not ok N name" (failed)
// lines; the id is the name with any directive ("# SKIP") kept.
func parseSWEBTAP(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if g := reSWEBTAP().FindStringSubmatch(pyStrip(line)); g != nil {
			if g[1] == "ok" {
				m.set(g[3], Passed)
			} else {
				m.set(g[3], Failed)
			}
		}
	}
	return m, nil
}

// parseSWEBImmutableJS picks the parser by the instance's PR number, as
// SWE-bench does: 2006 Jest verbose, 2005 Jest JSON, any other an error.
func parseSWEBImmutableJS(log string, c SWEBenchContext) (*statusMap, error) {
	pr := c.InstanceID[strings.LastIndex(c.InstanceID, "-")+1:]
	switch pr {
	case "2006":
		return parseSWEBJest(log, c)
	case "2005":
		return parseSWEBJestJSON(log, c)
	}
	return nil, fmt.Errorf("parse_log_immutable_js has no parser for instance %q", c.InstanceID)
}
