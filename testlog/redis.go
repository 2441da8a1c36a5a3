package testlog

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
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
		word, id, ok := redisLine(strings.TrimSpace(stripANSI(raw)))
		if !ok {
			continue
		}
		var st Status
		switch word {
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

// redisLine is reRedisLine written out (TestRedisMatchersAgreeWithPatterns
// checks them against each other): the word in brackets and the name.
func redisLine(line string) (word, name string, ok bool) {
	if len(line) < 4 || line[0] != '[' {
		return "", "", false
	}
	end := strings.Index(line, "]: ")
	if end < 0 {
		return "", "", false
	}
	switch word = line[1:end]; word {
	case "ok", "err", "exception", "skip", "ignore":
	default:
		return "", "", false
	}
	rest := line[end+3:]
	// (.+?)(?: \(\d+ ms\))?$: the shortest name of at least one character
	// that leaves nothing or " (<digits> ms)".
	if !validName(rest) {
		return "", "", false
	}
	if strings.HasSuffix(rest, " ms)") {
		i := len(rest) - len(" ms)")
		j := i
		for j > 0 && rest[j-1] >= '0' && rest[j-1] <= '9' {
			j--
		}
		if j < i && j >= 2 && rest[j-2:j] == " (" && firstRuneEnd(rest) <= j-2 {
			return word, rest[:j-2], true
		}
	}
	return word, rest, true
}

// validName reports whether s is one or more characters none of which is
// a newline: what "(.+)" accepts whole.
func validName(s string) bool { return s != "" && !strings.Contains(s, "\n") }

// firstRuneEnd is the byte length of s's first character (one byte for an
// invalid encoding, as the regexp package reads it).
func firstRuneEnd(s string) int {
	_, n := utf8.DecodeRuneInString(s)
	return n
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
		word, name, ok := swebRedisLine(pyStrip(line))
		if !ok {
			continue
		}
		switch word {
		case "ok":
			m.set(name, Passed)
		case "err":
			m.set(reSWEBRedisIn().ReplaceAllString(name, ""), Failed)
		default:
			m.set(name, Skipped)
		}
	}
	return m, nil
}

// pyReSpace is the \s class of MustCompilePython (pySpace).
func pyReSpace(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r' || r == ' ' || r == 0x85 || r >= 0x1c && r <= 0x1f:
		return true
	case r < 0x80:
		return false
	}
	return unicode.In(r, unicode.Z)
}

// swebRedisLine is reSWEBRedis written out (TestRedisMatchersAgreeWithPatterns):
// the word in brackets and the name.
func swebRedisLine(line string) (word, name string, ok bool) {
	if len(line) < 5 || line[0] != '[' {
		return "", "", false
	}
	end := strings.Index(line, "]:")
	if end < 0 {
		return "", "", false
	}
	switch word = line[1:end]; word {
	case "ok", "err", "skip", "ignore":
	default:
		return "", "", false
	}
	r, n := utf8.DecodeRuneInString(line[end+2:])
	if n == 0 || !pyReSpace(r) {
		return "", "", false
	}
	rest := line[end+2+n:]
	if !validName(rest) {
		return "", "", false
	}
	// (?:\s\((\d+\s*m?s)\))?$ after the shortest name: read from the end.
	if i, ok := swebRedisTime(rest); ok && firstRuneEnd(rest) <= i {
		return word, rest[:i], true
	}
	return word, rest, true
}

// swebRedisTime returns where "\s\(\d+\s*m?s\)" starts when s ends with it
// (Python's Unicode classes).
func swebRedisTime(s string) (int, bool) {
	if !strings.HasSuffix(s, "s)") {
		return 0, false
	}
	i := len(s) - 2
	if i > 0 && s[i-1] == 'm' {
		i--
	}
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if !pyReSpace(r) {
			break
		}
		i -= n
	}
	digits := i
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if !unicode.Is(unicode.Nd, r) {
			break
		}
		i -= n
	}
	if i == digits || i == 0 || s[i-1] != '(' {
		return 0, false
	}
	i--
	r, n := utf8.DecodeLastRuneInString(s[:i])
	if n == 0 || !pyReSpace(r) {
		return 0, false
	}
	return i - n, true
}

// msweRedisLine is the patterns of msweRedis written out
// (TestRedisMatchersAgreeWithPatterns): "[<word>]: (.+?)( \(.+\))?$", the
// name.
func msweRedisLine(line, word string) (string, bool) {
	if len(line) < len(word)+5 || line[0] != '[' || line[1:1+len(word)] != word || line[1+len(word):4+len(word)] != "]: " {
		return "", false
	}
	rest := line[4+len(word):]
	if !validName(rest) {
		return "", false
	}
	if strings.HasSuffix(rest, ")") {
		from := firstRuneEnd(rest)
		if i := strings.Index(rest[from:], " ("); i >= 0 && len(rest)-(from+i) >= 4 {
			return rest[:from+i], true
		}
	}
	return rest, true
}

var (
	reMSWERedisPass = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^\[ok\]: (.+?)( \(.+\))?$`) })
	reMSWERedisFail = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{MustCompilePython(`^\[err\]: (.+?)( \(.+\))?$`), MustCompilePython(`^\[exception\]: (.+?)( \(.+\))?$`)}
	})
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
		if name, ok := msweRedisLine(line, "ok"); ok {
			s.passed.add(name)
		}
		for _, word := range []string{"err", "exception"} {
			if name, ok := msweRedisLine(line, word); ok {
				s.failed.add(name)
			}
		}
		if name, ok := msweRedisLine(line, "ignore"); ok {
			s.skipped.add(name)
		}
	}
	return s
}

func init() {
	swebParsers["parse_log_redis"] = parseSWEBRedis
	registerMSWE("redis", msweRedis, "redis/redis")
}
