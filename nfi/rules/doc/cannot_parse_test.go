package doc

import (
	"os"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
)

func TestCannotParse(t *testing.T) {
	claims := []string{
		"March 1, 1956 is a Thursday (3)", "Copyright (c) 2006-2008, R Oudkerk",
		"x = 0x1f foo bar", "a.b c", "f(a b)", "résumé ça va", "1st item here",
		"'if' test ':' suite", "the 'wrap' setting", "see if it's in", "x = 'abc",
		"issue29692).", "f(a]", "`set` might be shadowed", "a $ b", "why? x", "x = !y",
		"x = 'a' b", "u'a' b", "https://json.org/JSON_checker/test/fail20.json", "x: /y",
		"=======", ", x", "; x", "| x", "<= y", "!= y", "fp.read() must return bytes",
		"f() 'a'", "(a) b'c'", "child 1 terminates", "EST 23:MM", "x 0.5", "'a' 1", "f() 2",
		"match x:", "Usage:", "def f():", "if x:", "x: int:", "see f().", "tz=Eastern.",
		`C:\foo\bar`, `(\d+)`, `\\%X%`, `test '~\n' (3 lines)`, `f() r'\d'`, "x '''a'''",
		"a \\ b c", "if dt >= fold_stop", "for each item", "with import machinery", "lambda x",
		"else we fail", "things break (such as pickle)", "x return y", "f() del x", "1 pass",
		"'a' while b", "or utime(time_t)", "and os.f()", "in x", "is y", "as z", "Error case: x",
		"x None", "f() print", "x _", "x await y", "x yield", "x type", "1 True",
		"decorators: decorator+", "-*- coding: utf-8 -*-", "x ==", "a <", "f() not supported",
		"x not b", "x not", "APIs (f(), g(), etc.)", "x.]", "[a.,]", "x != y =",
		"0x0430: \"\", # Sutu", "1: 4, 3: 3", "23:MM", "'a.b': 'c',", "mro: C, A, object",
		"flipped:  SUB2, SUB1", "x: (a, b), c", "m * 2**e = (m * 5**-e) * 10**e", "dt + f() = x",
		"factorial(n) = g(n)", "(2**i - 1)**2 = y", "a, b + c = d", "20mm + 53mm = 1hn",
		"Test for f()", "need for report_error()", "Subtle: test for cycles", "x is invalid if x < 0",
		"f(x) for x in y", "x = y if z", "f = lambda: x if y", "a = [b] if c",
	}
	none := []string{
		"x = 1", "print foo", "exec code in ns", "type X = int", "x if y else z",
		"0xfor x", "1if x else y", "f'a b' c d", "a # b c", "a\u00a0b", "not x is None",
		"lambda x: x", "", "x = 'a' 'b'", "x in'abc'", "x = rb'a' + bu'b'", "x != y", "'''a''' b",
		"x = 'a\\'b' c", "f(a, [b, {c: d}])", "x = ('a'", "x = r'a\\d' b",
		"def f(a, /, b): pass", "x = a[1:] / 2", "d = {'a:/b': 1}",
		"x = 1.", "x = ...", "numpy<1.13. See", "x = 1.5.real", "x = f() if y else 2", "x = 1 if y else z", "x = 2.[0]",
		"f() and g()", "(a) in b", "x = 1j", "print 1", "print (x)", "-x", "*a, b = c", "@d",
		"x.y = 1", "lambda: 1", "x = {'a': 1}", "a \\", "async def f(): pass", "x = (yield)",
		"if x: y", "iffy = 1", "formula = 1", "ifé = 1", "x = lambda: 1", "f(x, lambda: 1)",
		"raise E from e", "x = y if z else w", "async with a: pass", "await x", "x not in y",
		"or: x", "and : y", "x = None", "x is None", "print None", "case _: pass", "x = y or z",
		"import a as b", "orange = 1", "x and y", "from m import *", "print x,", "x = 1;",
		"x not in y", "x not in'abc'", "x not\tin y", "not x", "from . import x", "x = a.b",
		"x = 1.", "x = ...", "a * b",
		"x: a", "x: (a, b)", "x: lambda a, b: c", "x: yield a, b", "x: a = 1, 2", "f(x).y = 1",
		"f(x)[0] = 1", "*a, b = c", "a, *b = c", "x = a + b = c", "a += b", "a == b", "print >>f, x",
		"x = -1", "lambda *a, b=1: a", "x[a + b] = c", "(a) = b", "ms->key = x", "f(a=b+c)", "x: a, 'b, c'",
		"x = y if z else w", "f(x for x in y)", "[x for x in y if z]", "case x if y: pass",
		"async for x in y: pass", "x = 1if y else 2", "x = (a if b\u00a0else c)", "x = 'a' if b",
		"print x if y else z", "x = a.if", "for x in y: pass",
	}
	checkShortcut(t, "cannotParse", cannotParse, false, claims, none)
}

// TestCannotParseAgrees checks the shortcut on real text: no line of a
// stdlib sample (read as a comment) that cannotParse rejects parses as
// Python.
func TestCannotParseAgrees(t *testing.T) {
	checked := 0
	for _, f := range corpus.StdlibSample(t, 40) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(src), "\n") {
			l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#"))
			if !cannotParse(l) {
				continue
			}
			checked++
			if parsesAsPython(l) {
				t.Errorf("%s: %q parses as Python but cannotParse says it cannot", f, l)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d lines checked", checked)
	}
}

// FuzzCannotParse checks that the shortcut never rejects text that parses.
func FuzzCannotParse(f *testing.F) {
	for _, s := range []string{"x = 'a' b", "f(a b)", "it's (x)", "a = [1, 2]) # c", "u'a' 'b' c", "`x`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\n\r\x00") {
			return // comments are one line
		}
		if cannotParse(s) && parsesAsPython(s) {
			t.Errorf("%q parses as Python but cannotParse says it cannot", s)
		}
	})
}
