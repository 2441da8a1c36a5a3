package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// UnconditionalIfStatement reports if (true) and if (false).
//
// Source: PMD errorprone/UnconditionalIfStatement.
var UnconditionalIfStatement = &nfi.Rule{
	ID: "JAVA-LOG-P11", Name: "unconditional-if-statement", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "if with a constant condition",
		What:    "An if statement whose condition is the literal `true` or `false`.",
		Why:     "One branch is dead; the condition is a leftover of debugging.",
		Bad:     "class A {\n  void f() {\n    if (true) {\n      g();\n    }\n  }\n  void g() {}\n}\n",
		Good:    "class A {\n  void f() {\n    g();\n  }\n  void g() {}\n}\n",
		Source:  "PMD errorprone/UnconditionalIfStatement",
		Oracle:  "PMD 7.27.0 UnconditionalIfStatement: same semantics.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/UnconditionalIfStatement"}, Exact: true},
	Kinds:  []string{"if_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		c := unparen(t, t.ChildByField(n, "condition"))
		if k := t.Kind(c); k == "true" || k == "false" {
			p.Reportf(n, "do not use 'if' statements that are always true or always false")
		}
	},
}
