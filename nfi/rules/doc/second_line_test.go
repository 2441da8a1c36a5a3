package doc

import (
	"testing"

	"github.com/polynfi/polynfi/nfi/pyast"
)

// TestSecondLineIsSplitLines checks secondLine against pyast.SplitLines,
// whose lines[1] it replaces, on every kind of line break.
func TestSecondLineIsSplitLines(t *testing.T) {
	for _, s := range []string{
		"", "one", "one\n", "one\ntwo", "one\ntwo\nthree", "one\r\ntwo\r\nthree", "one\rtwo\rthree",
		"one\r\n", "one\r", "\n", "\r\n", "\r\r", "\n\n", "one\n\ntwo", "one\r\n\r\ntwo", "one\n  \ntwo",
		"a\r\nb\rc\nd", "summary.\n    More text.\n", "x\n\r",
	} {
		lines := pyast.SplitLines(s)
		got, ok := secondLine(s)
		if ok != (len(lines) >= 2) {
			t.Errorf("secondLine(%q) ok = %v, SplitLines gives %d lines", s, ok, len(lines))
			continue
		}
		if ok && got != lines[1] {
			t.Errorf("secondLine(%q) = %q, SplitLines' second line is %q", s, got, lines[1])
		}
	}
}
