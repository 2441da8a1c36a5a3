package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// UnreachableCode reports statements after a return, throw, break,
// continue or yield in the same block.
//
// Source: JLS 14.22 (unreachable statements); the Python catalog's
// counterpart is Ruff PLW0101.
var UnreachableCode = &nfi.Rule{
	ID: "JAVA-LOG-P08", Name: "unreachable-code", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "statement after return, throw, break or continue",
		What:    "A statement following a return, throw, break, continue or yield statement in the same block or case group.",
		Why:     "The statement never runs; javac rejects it (JLS 14.22), so a patch containing it does not compile.",
		Bad:     "class A {\n  int f() {\n    return 1;\n    g();\n  }\n  void g() {}\n}\n",
		Good:    "class A {\n  int f() {\n    g();\n    return 1;\n  }\n  void g() {}\n}\n",
		Source:  "JLS 14.22",
		Oracle:  "No PMD or Checkstyle rule: javac's unreachable-statement error is the reference; not exact (javac also follows constant conditions).",
	},
	Kinds: []string{"block", "switch_block_statement_group", "constructor_body"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		st := statements(t, n)
		for i, s := range st[:max(len(st)-1, 0)] {
			switch t.Kind(s) {
			case "return_statement", "throw_statement", "break_statement", "continue_statement", "yield_statement":
				next := st[i+1]
				if t.Kind(next) == "switch_label" {
					return
				}
				p.Reportf(next, "unreachable statement")
				return
			}
		}
	},
}
