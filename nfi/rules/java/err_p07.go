package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// inFinally reports whether n lies in a finally block without a method,
// lambda or class body between them.
func inFinally(t *syntax.Tree, n syntax.NodeID) bool {
	for p := t.Parent(n); p != syntax.NoNode; p = t.Parent(p) {
		k := t.Kind(p)
		if k == "finally_clause" {
			return true
		}
		if isBoundary(k) {
			return false
		}
	}
	return false
}

// ReturnFromFinallyBlock reports return statements in finally blocks.
//
// Source: PMD errorprone/ReturnFromFinallyBlock.
var ReturnFromFinallyBlock = &nfi.Rule{
	ID: "JAVA-ERR-P07", Name: "return-from-finally-block", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "return in a finally block",
		What:    "A return statement inside a finally block (not inside a lambda or class declared there).",
		Why:     "Returning from finally discards the exception in flight: the failure vanishes.",
		Bad:     "class A {\n  int f() {\n    try { return g(); } finally { return 0; }\n  }\n  int g() { return 1; }\n}\n",
		Good:    "class A {\n  int f() {\n    try { return g(); } finally { h(); }\n  }\n  int g() { return 1; }\n  void h() {}\n}\n",
		Source:  "PMD errorprone/ReturnFromFinallyBlock",
		Oracle:  "PMD 7.27.0 ReturnFromFinallyBlock: same semantics.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/ReturnFromFinallyBlock"}, Exact: true},
	Kinds:  []string{"return_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		if inFinally(p.Tree, n) {
			p.Reportf(n, "avoid returning from a finally block")
		}
	},
}
