package testlog

import "testing"

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
