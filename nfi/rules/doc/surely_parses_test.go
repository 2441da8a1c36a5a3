package doc

import (
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/polynfi/polynfi/internal/corpus"
)

func TestSurelyParses(t *testing.T) {
	claims := []string{
		"x = 1", "x = y = 0.5", "a, b = f(c), d[1:2, ::3]", "x, = g()", "self.a.b[i] = {}",
		"import os.path as p, sys", "from a.b import c as d, e", "from x import *",
		"from __future__ import annotations", "return", "return a, b", "print('a', file=f)",
		"print()", "f(a, b=1,)", "x = not a and b or c", "a is not b", "a not in b",
		"a < b <= c != d", "-x ** -2 // ~y @ z % 3 << 1 >> 2 & 3 | 4 ^ 5", "x = rb'a' B'b'", "x = u'c' 'd' R'e'",
		"'a'.join(x)", "{'a': 1, 'b': [2, (3,)],}", "{a, b}", "()", "[]", "{}", "(a)", "f(x)(y)[z].w",
		"x = None  # a comment", "x = a[:]", "True", "stmt: simple_stmt | compound_stmt",
		"Contact: email-sig@python.org", "x: int", "x: 'a'", "x: (a, b)", "x: f(a) # c",
		"Ref: Abramowitz & Stegun (Dover, 1965)", "x", "x = 'é\t'",
	}
	none := []string{
		"", "1 .real", "x = 1.", "x = 01", "x = 1j", "x = 0x1f", "x += 1", "a := 1", "f(*a)",
		"f(**k)", "x = a if b else c", "lambda: 1", "x = f'a'", "x = 'a\\'b'", "x = '''a'''",
		"print x", "print(x) + 1", "exec(x)", "_ = f()", "type = 1", "match = 1", "a b",
		"a < not b", "a + not b", "f() = 1", "(a, b) = c", "'a' = 1", "x = ...", "from . import x",
		"from __future__ import *", "import __future__", "x.print = 1", "import a,", "x = 'a\x01'", "x = '\xff'",
		"a <> b", "a = b;", "x: int = 1", "def f(): pass", "x = [i for i in y]", "a[]", "a[,]",
		"f(,)", "x = `a`", "1 2", "f(a b)", "x = a = ", "{a: b, c}", "{a, b: c}", "None = 1",
		"x.True", "x = yield", "x = a -> b", "x = !a", "x: a, b", "x: a == b", "x: f(a=1)",
		"x: 'a=b'", "x:", "x = b'a' 'b'", "x = 'a' rb'b'", "x.y: int", "if: x", "name: f[a.b](v)", "key : c[T] (o)",
	}
	checkShortcut(t, "surelyParses", surelyParses, true, claims, none)
}

// checkShortcut checks a shortcut of parsesAsPython: it claims every text of
// claims, each of which parsesAsPython must then answer with parses (else
// the shortcut would change a verdict), and none of none.
func checkShortcut(t *testing.T, name string, shortcut func(string) bool, parses bool, claims, none []string) {
	t.Helper()
	for _, s := range claims {
		if !shortcut(s) {
			t.Errorf("%s(%q) = false, want true", name, s)
		}
		if parsesAsPython(s) != parses {
			t.Errorf("parsesAsPython(%q) = %v: the shortcut would change the verdict", s, !parses)
		}
	}
	for _, s := range none {
		if shortcut(s) {
			t.Errorf("%s(%q) = true, want false", name, s)
		}
	}
}

// TestSurelyParsesAgrees checks the shortcut on real text: every line of a
// stdlib sample, read as a comment and as code, that surelyParses accepts
// parses as Python. (Checked on every line of the standard library and
// site-packages when the shortcut was written.)
func TestSurelyParsesAgrees(t *testing.T) {
	checked := 0
	for _, f := range corpus.StdlibSample(t, 40) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(src), "\n") {
			comment := strings.TrimRightFunc(strings.TrimLeft(strings.TrimLeftFunc(l, unicode.IsSpace), " #"), unicode.IsSpace)
			for _, s := range []string{comment, strings.TrimSpace(l)} {
				if !surelyParses(s) {
					continue
				}
				checked++
				if !parsesAsPython(s) {
					t.Errorf("%s: surelyParses(%q) but it does not parse as Python", f, s)
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d lines checked", checked)
	}
}

// FuzzSurelyParses checks that the shortcut never accepts text that does
// not parse.
func FuzzSurelyParses(f *testing.F) {
	for _, s := range []string{"x = f(a, b=1)[2:]", "from a import b as c", "a is not b", "print('x')", "{'a': (1,)}", "x, = -y ** 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\n\r\x00") {
			return // comments are one line
		}
		if surelyParses(s) && !parsesAsPython(s) {
			t.Errorf("%q does not parse as Python but surelyParses says it does", s)
		}
	})
}
