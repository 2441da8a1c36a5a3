package testlog

import (
	"encoding/json"
	"regexp"
	"strings"
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
	if reGoTestJSON.Match(log) {
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
	reGoRun    = regexp.MustCompile(`^=== RUN\s+(\S+)`)
	reGoResult = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+) \(\d+(?:\.\d+)?s\)`)
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
		if m := reGoRun.FindStringSubmatch(line); m != nil {
			if !open[m[1]] {
				open[m[1]] = true
				started = append(started, m[1])
			}
			continue
		}
		m := reGoResult.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		st := Passed
		switch m[1] {
		case "FAIL":
			st = Failed
		case "SKIP":
			st = Skipped
		}
		delete(open, m[2])
		out = append(out, Result{ID: m[2], Status: st})
	}
	return appendCrashed(out, started, open)
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

var reSWEBGoTest = MustCompilePython(`^--- (PASS|FAIL|SKIP): (.+) \((.+)\)$`)

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
		g := reSWEBGoTest.FindStringSubmatch(pyStrip(line))
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
	reMSWEGoPass = MustCompilePython(`^--- PASS: (\S+)`)
	reMSWEGoFail = []*regexp.Regexp{MustCompilePython(`^--- FAIL: (\S+)`), MustCompilePython(`^FAIL:?\s?(.+?)\s`)}
	reMSWEGoSkip = MustCompilePython(`^--- SKIP: (\S+)`)
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
			if g := reMSWEGoPass.FindStringSubmatch(line); g != nil {
				name := g[1]
				if !s.failed.has(name) {
					delete(s.skipped, name)
					s.passed.add(base(name))
				}
			}
			for _, re := range reMSWEGoFail {
				if g := re.FindStringSubmatch(line); g != nil {
					name := g[1]
					delete(s.passed, name)
					delete(s.skipped, name)
					s.failed.add(base(name))
				}
			}
			if g := reMSWEGoSkip.FindStringSubmatch(line); g != nil {
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
