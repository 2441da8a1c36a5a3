package testlog

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The written-out matchers agree with the patterns they replace, on the
// edge cases of each.
func TestGoLineMatchersAgreeWithPatterns(t *testing.T) {
	t.Parallel()
	for _, line := range []string{
		"=== RUN   TestA", "=== RUN TestA/sub#01 extra", "=== RUN", "=== RUN   ", "=== RUNNER x", "=== RUN\tT\tx", "=== RUN \x0bT",
		"--- PASS: TestA (0.00s)", "--- FAIL: TestA/b (12s)", "--- SKIP: T (1.s)", "--- SKIP: T (.5s)", "--- PASS: T (0.00s) trailing",
		"--- PASS: T(0.00s)", "--- PASS:  T (0.00s)", "--- PASS: T  (0.00s)", "--- PASS: T (0.00)", "--- PASSx T (0.00s)", "--- PASS: ",
		"--- FAIL: T\x0b (1s)", "--- PASS: é (1s)",
	} {
		name, ok := goRunLine(line)
		m := reGoRun().FindStringSubmatch(line)
		if ok != (m != nil) || ok && name != m[1] {
			t.Errorf("goRunLine(%q) = %q, %v; pattern %q", line, name, ok, m)
		}
		w, n, ok := goResultLine(line)
		m = reGoResult().FindStringSubmatch(line)
		if ok != (m != nil) || ok && (w != m[1] || n != m[2]) {
			t.Errorf("goResultLine(%q) = %q, %q, %v; pattern %q", line, w, n, ok, m)
		}
	}
}

// randomLines builds n lines from pieces chosen at random (a fixed seed),
// the edge cases of a written-out matcher mixed in every order.
func randomLines(n int, pieces []string) []string {
	rng := rand.New(rand.NewPCG(26, 4))
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for k := rng.IntN(9); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		out[i] = b.String()
	}
	return out
}

// The redis readers' written-out matchers agree with the patterns they
// replace.
func TestRedisMatchersAgreeWithPatterns(t *testing.T) {
	t.Parallel()
	pieces := []string{"[ok]: ", "[err]: ", "[exception]: ", "[skip]: ", "[ignore]: ", "[ok]:", "[ok]:\u00a0", "[err]:\u2003", "[", "]", ": ",
		" (", ")", "(", " ", "\t", "\u3000", "12", "0", "٣", " ms)", "ms)", "s)", "m", "s", "x", "é", "\xff", "name", " in tests/unit/a.tcl", "\n", "\x1c"}
	lines := append(randomLines(200000, pieces), "[ok]: a (1 ms)", "[ok]:  (1 ms)", "[ok]: (1 ms)", "[ok]: é (12 ms)", "[err]: x (1\u2003ms)", "[ok]:\u00a0a\u00a0(٣ s)",
		"[ignore]: a (b)", "[ignore]: a ()", "[ok]: a ( (x)", "[ok]: ", "[ok]: \xff (1 ms)")
	for _, line := range lines {
		w, n, ok := redisLine(line)
		m := reRedisLine().FindStringSubmatch(line)
		if ok != (m != nil) || ok && (w != m[1] || n != m[2]) {
			t.Fatalf("redisLine(%q) = %q, %q, %v; pattern %q", line, w, n, ok, m)
		}
		w, n, ok = swebRedisLine(line)
		m = reSWEBRedis().FindStringSubmatch(line)
		if ok != (m != nil) || ok && (w != m[1] || n != m[2]) {
			t.Fatalf("swebRedisLine(%q) = %q, %q, %v; pattern %q", line, w, n, ok, m)
		}
		for word, re := range map[string]*regexp.Regexp{"ok": reMSWERedisPass(), "err": reMSWERedisFail()[0], "exception": reMSWERedisFail()[1], "ignore": reMSWERedisSkip()} {
			n, ok := msweRedisLine(line, word)
			m := re.FindStringSubmatch(line)
			if ok != (m != nil) || ok && n != m[1] {
				t.Fatalf("msweRedisLine(%q, %s) = %q, %v; pattern %q", line, word, n, ok, m)
			}
		}
	}
}

// The cargo readers' written-out matchers agree with their patterns.
func TestCargoMatchersAgreeWithPatterns(t *testing.T) {
	t.Parallel()
	pieces := []string{"test ", "test", "test\u00a0", " ", "  ", "\t", "\v", "\u2003", "\x1c", "...", ". .", "..", " ... ", "ok", "FAILED", "ignored", ", reason",
		",", "a::b", "é", "\xff", "_1", "-", "\n", "\r", "٣", "x"}
	lines := append(randomLines(200000, pieces), "test a ... ok", "test a ... ignored, slow", "test a ... FAILED\n", "test  a ... ok", "test a\u00a0... ok",
		"test a xyz ok", "test a ...", "test é\u2003...\u2003ok_2")
	for _, line := range lines {
		n, w, ok := cargoLine(line)
		m := reCargoLine().FindStringSubmatch(line)
		if ok != (m != nil) || ok && (n != m[1] || w != m[2]) {
			t.Fatalf("cargoLine(%q) = %q, %q, %v; pattern %q", line, n, w, ok, m)
		}
		n, w, ok = swebCargoLine(line)
		m = reSWEBCargo().FindStringSubmatch(line)
		if ok != (m != nil) || ok && (n != m[1] || w != m[2]) {
			t.Fatalf("swebCargoLine(%q) = %q, %q, %v; pattern %q", line, n, w, ok, m)
		}
		for word, re := range map[string]*regexp.Regexp{"ok": reMSWECargoPass(), "FAILED": reMSWECargoFail(), "ignored": reMSWECargoSkip()} {
			n, ok := msweCargoLine(line, word)
			m := re.FindStringSubmatch(line)
			if ok != (m != nil) || ok && n != m[1] {
				t.Fatalf("msweCargoLine(%q, %s) = %q, %v; pattern %q", line, word, n, ok, m)
			}
		}
	}
}

// The automake readers' written-out matchers agree with their patterns.
func TestAutomakeMatchersAgreeWithPatterns(t *testing.T) {
	t.Parallel()
	pieces := []string{"PASS", "FAIL", "SKIP", "XFAIL", "XPASS", "ERROR", "PASS:", ": ", ":", " ", "\u00a0", "\t", "\x1c", "tests/a.test", "é", "\xff", "\n", "x y"}
	lines := append(randomLines(200000, pieces), "PASS: a", "PASS: ", "FAIL:\u00a0b c", " PASS: a", "SKIP: a b", "XFAIL: t")
	for _, line := range lines {
		w, n, ok := automakeLine(line)
		m := reAutomakeLine().FindStringSubmatch(line)
		if ok != (m != nil) || ok && (w != m[1] || n != m[2]) {
			t.Fatalf("automakeLine(%q) = %q, %q, %v; pattern %q", line, w, n, ok, m)
		}
		w, n, ok = swebJqLine(line)
		m = reSWEBJq().FindStringSubmatch(line)
		if ok != (m != nil) || ok && (w != m[1] || n != m[2]) {
			t.Fatalf("swebJqLine(%q) = %q, %q, %v; pattern %q", line, w, n, ok, m)
		}
		for word, re := range map[string]*regexp.Regexp{"PASS": reMSWEJqPass(), "FAIL": reMSWEJqFail(), "SKIP": reMSWEJqSkip()} {
			n, ok := msweJqLine(line, word)
			m := re.FindStringSubmatch(line)
			if ok != (m != nil) || ok && n != m[1] {
				t.Fatalf("msweJqLine(%q, %s) = %q, %v; pattern %q", line, word, n, ok, m)
			}
		}
	}
}

// The cucumber reader's written-out matcher agrees with its pattern.
func TestCucumberMatcherAgreesWithPattern(t *testing.T) {
	t.Parallel()
	pieces := []string{" ", ".", "..", " .", " ..", "F", "x", "Scenario: a", "é", "\xff", "\n", "\t"}
	lines := append(randomLines(200000, pieces), "a ...", "a .F", "a .", "a ..x .F", "a . ..", "\n a ..")
	for _, line := range lines {
		n, passed, ok := swebCucumberLine(line)
		m := reSWEBCucumber().FindStringSubmatch(line)
		if ok != (m != nil) || ok && (n != m[1] || passed != (m[2] == ".")) {
			t.Fatalf("swebCucumberLine(%q) = %q, %v, %v; pattern %q", line, n, passed, ok, m)
		}
	}
}
