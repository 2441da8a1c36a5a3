package doc

import (
	"os"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
)

func TestHasAdjacentNames(t *testing.T) {
	pairs := []string{
		"March 1, 1956 is a Thursday (3)", "Copyright (c) 2006-2008, R Oudkerk",
		"x = 0x1f foo bar", "a.b c", "f(a b)", "résumé ça va", "1st item here",
	}
	none := []string{
		"x = 1", "print foo", "exec code in ns", "match x:", "type X = int", "x if y else z",
		"0xfor x", "1if x else y", "f'a b' c d", "a # b c", "a \\ b c", "a$ b c",
		"a\u00a0b", "not x is None", "lambda x: x", "",
	}
	for _, s := range pairs {
		if !hasAdjacentNames(s) {
			t.Errorf("hasAdjacentNames(%q) = false, want true", s)
		}
		if parsesAsPython(s) {
			t.Errorf("parsesAsPython(%q) = true: the shortcut would change the verdict", s)
		}
	}
	for _, s := range none {
		if hasAdjacentNames(s) {
			t.Errorf("hasAdjacentNames(%q) = true, want false", s)
		}
	}
}

// TestAdjacentNamesNeverParse checks the shortcut on real text: no line of
// a stdlib sample (read as a comment) that hasAdjacentNames rejects parses
// as Python.
func TestAdjacentNamesNeverParse(t *testing.T) {
	checked := 0
	for _, f := range corpus.StdlibSample(t, 40) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(src), "\n") {
			l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#"))
			if !hasAdjacentNames(l) {
				continue
			}
			checked++
			if parsesAsPython(l) {
				t.Errorf("%s: %q parses as Python but has adjacent names", f, l)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d lines with adjacent names checked", checked)
	}
}
