package testlog

import (
	"regexp"
	"strings"
	"sync"
)

// Redis-style Tcl test suites (redis, valkey): "[ok]: name (N ms)", "[err]:
// name in tests/unit/x.tcl", "[skip]:", "[ignore]:", "[exception]:" lines,
// read by polynfi (Parse(Redis, ...)), SWE-bench 5.0.2's parse_log_redis
// and Multi-SWE-bench 1.1.2's redis reader.

var (
	reRedisLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\[(ok|err|exception|skip|ignore)\]: (.+?)(?: \(\d+ ms\))?$`)
	})
	reRedisIn = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s+in\s+\S+$`) })
)

// parseRedis reads the result lines of a Redis-style test run (colour
// codes removed): ok Passed, err Failed, exception Error (the test raised
// or the server died), skip and ignore Skipped. The id is the name
// without its time, and for err and exception lines without the " in
// <file>" the runner appends.
//
// Source: redis tests/support/test.tcl (the [ok]/[err]/[skip]/[ignore]
// lines), tests/test_helper.tcl ([exception]).
func parseRedis(log []byte) []Result {
	var out []Result
	for _, raw := range splitLines(log) {
		if !strings.Contains(raw, "]: ") {
			continue
		}
		m := reRedisLine().FindStringSubmatch(strings.TrimSpace(stripANSI(raw)))
		if m == nil {
			continue
		}
		id := m[2]
		var st Status
		switch m[1] {
		case "ok":
			st = Passed
		case "err":
			st, id = Failed, reRedisIn().ReplaceAllString(id, "")
		case "exception":
			st, id = Error, reRedisIn().ReplaceAllString(id, "")
		default:
			st = Skipped
		}
		out = append(out, Result{ID: id, Status: st})
	}
	return out
}

var (
	reSWEBRedis = sync.OnceValue(func() *regexp.Regexp {
		return MustCompilePython(`^\[(ok|err|skip|ignore)\]:\s(.+?)(?:\s\((\d+\s*m?s)\))?$`)
	})
	reSWEBRedisIn = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`\s+in\s+\S+$`) })
)

// parseSWEBRedis is SWE-bench's parse_log_redis: stripped "[ok]: name"
// lines PASSED, "[err]: name" FAILED with a trailing " in <file>" removed,
// "[skip]:" and "[ignore]:" SKIPPED, a trailing "(N ms)" dropped.
// "[exception]:" lines (a test that raised) are not read.
func parseSWEBRedis(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, "]:") {
			continue
		}
		g := reSWEBRedis().FindStringSubmatch(pyStrip(line))
		if g == nil {
			continue
		}
		switch g[1] {
		case "ok":
			m.set(g[2], Passed)
		case "err":
			m.set(reSWEBRedisIn().ReplaceAllString(g[2], ""), Failed)
		default:
			m.set(g[2], Skipped)
		}
	}
	return m, nil
}

var (
	reMSWERedisPass = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\[ok\]: (.+?)( \(.+\))?$`) })
	reMSWERedisFail = []*regexp.Regexp{MustCompilePython(`^\[err\]: (.+?)( \(.+\))?$`), MustCompilePython(`^\[exception\]: (.+?)( \(.+\))?$`)}
	reMSWERedisSkip = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\[ignore\]: (.+?)( \(.+\))?$`) })
)

// msweRedis is Multi-SWE-bench's parse_log for redis/redis: "[ok]:"
// passed, "[err]:" and "[exception]:" failed, "[ignore]:" skipped, a
// trailing parenthesised text dropped; the " in <file>" of a failure is
// kept in its id, and "[skip]:" lines are not read.
func msweRedis(log string) *msweSets {
	s := newMSWESets()
	for _, line := range msweLines(log) {
		if !strings.Contains(line, "]: ") {
			continue
		}
		if g := reMSWERedisPass().FindStringSubmatch(line); g != nil {
			s.passed.add(g[1])
		}
		for _, re := range reMSWERedisFail {
			if g := re.FindStringSubmatch(line); g != nil {
				s.failed.add(g[1])
			}
		}
		if g := reMSWERedisSkip().FindStringSubmatch(line); g != nil {
			s.skipped.add(g[1])
		}
	}
	return s
}

func init() {
	swebParsers["parse_log_redis"] = parseSWEBRedis
	registerMSWE("redis", msweRedis, "redis/redis")
}
