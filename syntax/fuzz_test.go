package syntax_test

import (
	"strings"
	"testing"

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
	langs := syntax.Languages()
	f.Fuzz(func(t *testing.T, li uint8, src []byte) {
		for _, lang := range []syntax.Language{langs[int(li)%len(langs)], syntax.Python} {
			tr, err := p.Parse(lang, src)
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
