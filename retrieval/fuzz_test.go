package retrieval

import (
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/syntax"
)

// deepSources are seeds nested far deeper than real code, per grammar:
// brackets, blocks, function expressions, operator chains and a huge line.
func deepSources() map[syntax.Language][]string {
	r := strings.Repeat
	return map[syntax.Language][]string{
		syntax.Python: {
			r("(", 20000) + r(")", 20000) + "\n",
			r("def f():\n", 1) + r(" ", 0) + "x = " + r("-", 50000) + "1\n",
			"class A:\n" + r("    def f(self): return f(", 1) + r("f(", 50000) + r(")", 50001) + "\n",
			"x = 1" + r(" + 1", 50000) + "\n",
			r("x", 1<<18) + "\n",
		},
		syntax.Java: {
			"class A { int f() { return " + r("(", 20000) + "1" + r(")", 20000) + "; } }\n",
			"class A { void f() { " + r("{", 20000) + r("}", 20000) + " } }\n",
			"class A { int x = " + r("-", 50000) + "1; }\n",
			r("class A { ", 1000) + r("}", 1000) + "\n",
		},
		syntax.JavaScript: {
			"const x = " + r("[", 20000) + r("]", 20000) + ";\n",
			r("function f() { ", 1000) + r("}", 1000) + "\n",
			"const g = " + r("() => ", 50000) + "1;\n",
			"x = " + r("!", 50000) + "y;\n",
			"x = 1" + r(" + 1", 50000) + ";\n",
		},
		syntax.TypeScript: {
			"let x: " + r("Array<", 50000) + "number" + r(">", 50000) + ";\n",
			r("namespace A { ", 1000) + r("}", 1000) + "\n",
			"const x = " + r("(", 20000) + "1" + r(")", 20000) + ";\n",
		},
		syntax.Go: {
			"package p\n" + r("func f() { g := func() { ", 2000) + r("} }", 2000) + "\n",
			"package p\ntype T " + r("struct { x ", 5000) + "int" + r(" }", 5000) + "\n",
			"package p\nfunc (\xff *T) \xc3\x28() {}\n",
		},
		syntax.Rust: {
			r("mod m { ", 3000) + r("}", 3000) + "\n",
			r("impl A { fn f() { ", 2000) + r("} }", 2000) + "\n",
		},
		syntax.CLang: {
			r("struct s { ", 5000) + r("};", 5000) + "\n",
			"int f(void) { return " + r("(", 20000) + "1" + r(")", 20000) + "; }\n",
		},
		syntax.CPP: {
			r("namespace n { class C { void f() { ", 1000) + r("} }; }", 1000) + "\n",
			"int " + r("(*", 10000) + "f" + r(")", 10000) + "(void) { return 0; }\n",
		},
		syntax.PHP: {
			"<?php\n" + r("class A { function f() { ", 1000) + r("} }", 1000) + "\n",
			"<?php \xff\xfe function \x80() {}\n",
		},
		syntax.Ruby: {
			r("module M\nclass C\ndef f\n", 1000) + r("end\nend\nend\n", 1000),
			"def self.\xff\n  \x80\nend\n",
		},
	}
}

// FuzzFileNodes: the node keys of every line of any source, in every
// grammar and both modes, come back without a crash (tree-sitter's trees
// are walked iteratively, however deep). The seeds run as a unit test;
// go test -fuzz=FuzzFileNodes explores further.
func FuzzFileNodes(f *testing.F) {
	langs := []syntax.Language{syntax.Python, syntax.Java, syntax.JavaScript, syntax.TypeScript,
		syntax.Go, syntax.Rust, syntax.CLang, syntax.CPP, syntax.PHP, syntax.Ruby}
	for i, l := range langs {
		for _, s := range deepSources()[l] {
			f.Add(uint8(i), []byte(s))
		}
		f.Add(uint8(i), []byte("class A {\n  m() {\n    return 1;\n  }\n}\ndef f():\n    pass\n"))
	}
	p := syntax.NewParser()
	f.Cleanup(p.Close)
	// both modes parse: each must finish well within the fuzzer's 10 s per
	// input (TestFileNodesParseBudget covers the default budget)
	p.SetBudget(500*time.Millisecond, 2*time.Microsecond)
	f.Fuzz(func(t *testing.T, li uint8, src []byte) {
		lang := langs[int(li)%len(langs)]
		n := strings.Count(string(src), "\n") + 1
		lines := make([]int, 0, min(n, 200))
		for i := 1; i <= n && len(lines) < 200; i++ {
			lines = append(lines, i)
		}
		for _, mode := range []Mode{Compatible, Extended} {
			x := &extractor{mode: mode, parser: p}
			out := map[string]bool{}
			if _, err := x.fileNodes(lang, src, "f", lines, out); err != nil {
				t.Fatalf("%s %s: %v", lang, mode, err)
			}
		}
	})
}

// TestFileNodesParseBudget: a file whose parse spends syntax's CPU budget
// (nested generics after a syntax error, which tree-sitter's Java error
// recovery takes quadratic time over; the fuzzer found it) is a file the
// patch cannot be localized in, not an error and not a hang.
func TestFileNodesParseBudget(t *testing.T) {
	src := []byte("let x: " + strings.Repeat("Array<", 20000) + "number" + strings.Repeat(">", 20000) + ";\n")
	p := syntax.NewParser()
	defer p.Close()
	p.SetBudget(200*time.Millisecond, time.Microsecond)
	x := &extractor{mode: Extended, parser: p}
	fail, err := x.fileNodes(syntax.Java, src, "A.java", []int{1}, map[string]bool{})
	if err != nil || !strings.Contains(fail, "A.java: ") || !strings.Contains(fail, "nesting too deep") {
		t.Fatalf("fail %q, err %v", fail, err)
	}
}
