package syntax_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/syntax"
)

// FuzzTreeSitter: every grammar parses any input, however deeply nested,
// into a well-formed flattened tree (preorder End ranges, parents before
// children) without a crash; the Go parser (ParsePythonGo) too. The seeds
// run as a unit test; go test -fuzz=FuzzTreeSitter explores further.
func FuzzTreeSitter(f *testing.F) {
	r := strings.Repeat
	for _, s := range []string{
		r("(", 20000) + r(")", 20000),
		r("{", 20000) + r("}", 20000),
		r("[", 20000),
		"x = " + r("-", 50000) + "1;",
		"x = 1" + r(" + 1", 50000) + ";",
		r("function f() { ", 3000) + r("}", 3000),
		"class A { void f() { " + r("if (x) { ", 3000) + r("}", 3000) + " } }",
		"let x: " + r("Array<", 20000) + "number" + r(">", 20000) + ";",
		r("x", 1<<18),
		"def f():\n    return 1\n",
	} {
		f.Add(uint8(0), []byte(s))
	}
	p := syntax.NewParser()
	f.Cleanup(p.Close)
	// an input must finish within the fuzzer's 10 s: a parse that nests too
	// deep for this budget ends with a BudgetError (TestParseBudget)
	p.SetBudget(500*time.Millisecond, 2*time.Microsecond)
	langs := syntax.Languages()
	f.Fuzz(func(t *testing.T, li uint8, src []byte) {
		for _, lang := range []syntax.Language{langs[int(li)%len(langs)], syntax.Python} {
			tr, err := p.Parse(lang, src)
			var be *syntax.BudgetError
			if errors.As(err, &be) {
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", lang, err)
			}
			for i := range tr.Nodes {
				n := &tr.Nodes[i]
				if int(n.End) <= i || int(n.End) > len(tr.Nodes) || n.Parent >= syntax.NodeID(i) {
					t.Fatalf("%s: node %d: End %d, parent %d", lang, i, n.End, n.Parent)
				}
			}
			tr.Release()
		}
		if tr, _ := syntax.ParsePythonGo(src, 0); tr != nil && len(tr.Nodes) == 0 {
			t.Fatal("ParsePythonGo: empty tree")
		}
	})
}

// TestNewGrammarsRobust: the grammars of Go, Rust, C, C++, PHP and Ruby
// take invalid UTF-8, NUL bytes and nesting far deeper than code without a
// crash, into well-formed trees (FuzzTreeSitter's checks).
func TestNewGrammarsRobust(t *testing.T) {
	r := strings.Repeat
	srcs := map[syntax.Language][]string{
		syntax.Go:    {"package p\nfunc f() {" + r("{", 20000) + r("}", 20000) + "}\n", "package p\nvar x = " + r("(", 20000) + "1" + r(")", 20000) + "\n"},
		syntax.Rust:  {"fn f() { " + r("{", 20000) + r("}", 20000) + " }\n", r("mod m { ", 3000) + r("}", 3000) + "\n"},
		syntax.CLang: {"int f(void) { return " + r("(", 20000) + "1" + r(")", 20000) + "; }\n", r("#if X\n", 2000) + r("#endif\n", 2000)},
		syntax.CPP:   {r("namespace n { ", 3000) + r("}", 3000) + "\n", "template<" + r("typename T, ", 5000) + "typename U> struct S {};\n" + "A<" + r("B<", 10000) + "int" + r(">", 10001) + " x;\n"},
		syntax.PHP:   {"<?php\nfunction f() { return " + r("[", 20000) + r("]", 20000) + "; }\n", "<?php " + r("if ($x) { ", 3000) + r("}", 3000) + "\n"},
		syntax.Ruby:  {r("module M\n", 3000) + r("end\n", 3000), "x = " + r("[", 20000) + r("]", 20000) + "\n", "def f\n  " + r("-", 50000) + "1\nend\n"},
	}
	bad := [][]byte{{0xff, 0xfe, 0xfd}, []byte("func \xc3\x28(x) { \x00 }\n\xed\xa0\x80"), []byte(r("\x80", 10000))}
	p := syntax.NewParser()
	defer p.Close()
	for lang, ss := range srcs {
		inputs := append([][]byte{}, bad...)
		for _, s := range ss {
			inputs = append(inputs, []byte(s))
		}
		for i, src := range inputs {
			tr, err := p.Parse(lang, src)
			if err != nil {
				t.Fatalf("%v input %d: %v", lang, i, err)
			}
			for j := range tr.Nodes {
				n := &tr.Nodes[j]
				if int(n.End) <= j || int(n.End) > len(tr.Nodes) || n.Parent >= syntax.NodeID(j) {
					t.Fatalf("%v input %d: node %d: End %d, parent %d", lang, i, j, n.End, n.Parent)
				}
			}
			tr.Release()
		}
	}
}
