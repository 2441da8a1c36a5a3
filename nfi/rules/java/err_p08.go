package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// DoNotThrowExceptionInFinally reports throw statements in finally blocks.
//
// Source: PMD errorprone/DoNotThrowExceptionInFinally.
var DoNotThrowExceptionInFinally = &nfi.Rule{
	ID: "JAVA-ERR-P08", Name: "do-not-throw-exception-in-finally", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "throw in a finally block",
		What:    "A throw statement inside a finally block (not inside a lambda or class declared there); reported at the finally clause, as PMD does.",
		Why:     "An exception thrown from finally replaces the one in flight, which is lost.",
		Bad:     "class A {\n  void f() {\n    try { g(); } finally { throw new IllegalStateException(); }\n  }\n  void g() {}\n}\n",
		Good:    "class A {\n  void f() {\n    try { g(); } finally { h(); }\n  }\n  void g() {}\n  void h() {}\n}\n",
		Source:  "PMD errorprone/DoNotThrowExceptionInFinally",
		Oracle:  "PMD 7.27.0 DoNotThrowExceptionInFinally: same semantics.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/DoNotThrowExceptionInFinally"}, Exact: true},
	Kinds:  []string{"throw_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if inFinally(t, n) {
			fc := t.Ancestor(n, "finally_clause")
			p.Reportf(fc, "a throw statement in a finally block makes the control flow hard to understand")
		}
	},
}
