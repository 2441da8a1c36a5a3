package testlog

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
)

// go test: its -json events (test2json) and its verbose text ("=== RUN",
// "--- PASS: name (0.00s)"), read three ways: polynfi's own reading
// (Parse(GoTest, ...)), SWE-bench 5.0.2's parse_log_gotest and the two
// families of Multi-SWE-bench 1.1.2's go readers.

// goTestEvent is one line of go test -json (test2json).
type goTestEvent struct {
	Action  string `json:"Action"`
	Package string `json:"Package"`
	Test    string `json:"Test"`
}

// parseGoTest reads go test output. When the log holds -json events (one
// JSON object per line; other lines are ignored), each test's "pass",
// "fail" or "skip" event gives one Result with id "<package>.<Test>"
// (subtests keep their "/" path); package-level events (no Test) are not
// tests. Otherwise the verbose text is read: "--- PASS|FAIL|SKIP: name
// (0.00s)" lines (indented for subtests, colour codes removed) with the
// test's name as id, the package being named only after its tests.
//
// In both forms a test that was started ("run" event, "=== RUN name" line)
// and never reported an outcome is Error: the test binary died under it
// (a panic, os.Exit, the -timeout alarm, a signal), which go test reports
// only as the package's FAIL line.
//
// Source: cmd/test2json documentation (event Actions); testing package
// (the "=== RUN" and "--- PASS:" lines of -v output).
func parseGoTest(log []byte) []Result {
	if bytes.Contains(log, []byte(`{"Time":"`)) && reGoTestJSON().Match(log) {
		return parseGoTestJSON(log)
	}
	return parseGoTestText(log)
}

func parseGoTestJSON(log []byte) []Result {
	var out []Result
	open := map[string]bool{}
	var started []string
	for _, line := range splitLines(log) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var ev goTestEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.Test == "" {
			continue
		}
		id := ev.Test
		if ev.Package != "" {
			id = ev.Package + "." + ev.Test
		}
		var st Status
		switch ev.Action {
		case "run":
			if !open[id] {
				open[id] = true
				started = append(started, id)
			}
			continue
		case "pass":
			st = Passed
		case "fail":
			st = Failed
		case "skip":
			st = Skipped
		default:
			continue
		}
		delete(open, id)
		out = append(out, Result{ID: id, Status: st})
	}
	return appendCrashed(out, started, open)
}

var (
	reGoRun    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^=== RUN\s+(\S+)`) })
	reGoResult = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+) \(\d+(?:\.\d+)?s\)`) })
)

func parseGoTestText(log []byte) []Result {
	var out []Result
	open := map[string]bool{}
	var started []string
	for _, raw := range splitLines(log) {
		if !containsAny(raw, "=== RUN", "--- ", "\x1b") {
			continue
		}
		line := strings.TrimSpace(stripANSI(raw))
		if name, ok := goRunLine(line); ok {
			if !open[name] {
				open[name] = true
				started = append(started, name)
			}
			continue
		}
		word, name, ok := goResultLine(line)
		if !ok {
			continue
		}
		st := Passed
		switch word {
		case "FAIL":
			st = Failed
		case "SKIP":
			st = Skipped
		}
		delete(open, name)
		out = append(out, Result{ID: name, Status: st})
	}
	return appendCrashed(out, started, open)
}

// isRESpace is Go regexp's \s: tab, newline, form feed, carriage return,
// space.
func isRESpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// goRunLine is reGoRun written out (the readers' hot path): "=== RUN",
// white space, then a name up to the next white space.
func goRunLine(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "=== RUN")
	if !ok || rest == "" || !isRESpace(rest[0]) {
		return "", false
	}
	i := 0
	for i < len(rest) && isRESpace(rest[i]) {
		i++
	}
	j := i
	for j < len(rest) && !isRESpace(rest[j]) {
		j++
	}
	if j == i {
		return "", false
	}
	return rest[i:j], true
}

// goResultLine is reGoResult written out: "--- PASS|FAIL|SKIP: ", a name
// up to the next white space, " (", digits, optionally "." and digits,
// "s)".
func goResultLine(line string) (word, name string, ok bool) {
	if len(line) < 11 || !strings.HasPrefix(line, "--- ") || line[8] != ':' || line[9] != ' ' {
		return "", "", false
	}
	word = line[4:8]
	if word != "PASS" && word != "FAIL" && word != "SKIP" {
		return "", "", false
	}
	rest := line[10:]
	j := 0
	for j < len(rest) && !isRESpace(rest[j]) {
		j++
	}
	if j == 0 {
		return "", "", false
	}
	name, rest = rest[:j], rest[j:]
	rest, ok = strings.CutPrefix(rest, " (")
	if !ok {
		return "", "", false
	}
	k := 0
	for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	if k == 0 {
		return "", "", false
	}
	rest = rest[k:]
	if strings.HasPrefix(rest, ".") {
		k = 1
		for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
			k++
		}
		if k == 1 {
			return "", "", false
		}
		rest = rest[k:]
	}
	if !strings.HasPrefix(rest, "s)") {
		return "", "", false
	}
	return word, name, true
}

// appendCrashed adds an Error result for each test of started (in start
// order) still open.
func appendCrashed(out []Result, started []string, open map[string]bool) []Result {
	for _, id := range started {
		if open[id] {
			out = append(out, Result{ID: id, Status: Error})
		}
	}
	return out
}

var reSWEBGoTest = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^--- (PASS|FAIL|SKIP): (.+) \((.+)\)$`) })

// parseSWEBGoTest is SWE-bench's parse_log_gotest: each stripped line
// "--- PASS|FAIL|SKIP: name (duration)" sets name's status. A test the
// binary died under has no such line and is missing; package FAIL lines
// are not read.
func parseSWEBGoTest(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, "--- ") {
			continue
		}
		g := reSWEBGoTest().FindStringSubmatch(pyStrip(line))
		if g == nil {
			continue
		}
		switch g[1] {
		case "PASS":
			m.set(g[2], Passed)
		case "FAIL":
			m.set(g[2], Failed)
		case "SKIP":
			m.set(g[2], Skipped)
		}
	}
	return m, nil
}

var (
	reMSWEGoPass = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^--- PASS: (\S+)`) })
	reMSWEGoFail = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{MustCompilePython(`^--- FAIL: (\S+)`), MustCompilePython(`^FAIL:?\s?(.+?)\s`)}
	})
	reMSWEGoSkip = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^--- SKIP: (\S+)`) })
)

// msweGoTest is the parse_log of most of Multi-SWE-bench's go
// repositories, base(name) the name as it is added to a set (the name
// itself, or for the grpc family the name up to its last "/": a subtest
// counts as its parent). Per stripped line: "--- PASS: name" passes name
// unless it already failed; "--- FAIL: name" and any line starting "FAIL"
// (the package's "FAIL\tpkg\t0.1s" line reads as a failed test "pkg",
// "FAILED x" as a failed test "ED") fail it; "--- SKIP: name" is kept only
// for a test that already failed, which then sits in two sets and makes
// the reading invalid. Membership is checked on the full name, additions
// use base(name).
func msweGoTest(base func(string) string) msweReader {
	return func(log string) *msweSets {
		s := newMSWESets()
		for _, line := range msweLines(log) {
			if !containsAny(line, "--- ", "FAIL") {
				continue
			}
			if g := reMSWEGoPass().FindStringSubmatch(line); g != nil {
				name := g[1]
				if !s.failed.has(name) {
					delete(s.skipped, name)
					s.passed.add(base(name))
				}
			}
			for _, re := range reMSWEGoFail() {
				if g := re.FindStringSubmatch(line); g != nil {
					name := g[1]
					delete(s.passed, name)
					delete(s.skipped, name)
					s.failed.add(base(name))
				}
			}
			if g := reMSWEGoSkip().FindStringSubmatch(line); g != nil {
				name := g[1]
				if !s.passed.has(name) && s.failed.has(name) {
					s.skipped.add(base(name))
				}
			}
		}
		return s
	}
}

func init() {
	swebParsers["parse_log_gotest"] = parseSWEBGoTest
	registerMSWE("gotest", msweGoTest(func(n string) string { return n }),
		"caddyserver/caddy", "prometheus/prometheus", "fatedier/frp", "nektos/act", "nats-io/nats-server",
		"gohugoio/hugo", "beego/beego", "labstack/echo", "istio/istio", "cli/cli", "jesseduffield/lazygit",
		"junegunn/fzf", "concourse/concourse", "syncthing/syncthing")
	registerMSWE("gotest_parent", msweGoTest(func(n string) string {
		if i := strings.LastIndex(n, "/"); i >= 0 {
			return n[:i]
		}
		return n
	}), "grpc/grpc-go", "etcd-io/etcd", "zeromicro/go-zero", "go-gorm/gorm", "gin-gonic/gin")
}
