package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// UseEqualsToCompareStrings reports == and != with a string literal.
//
// Source: PMD errorprone/UseEqualsToCompareStrings.
var UseEqualsToCompareStrings = &nfi.Rule{
	ID: "JAVA-LOG-P01", Name: "use-equals-to-compare-strings", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "string compared with == or !=",
		What:    "An `==` or `!=` comparison one of whose operands is a string literal (or text block) and the other not null.",
		Why:     "== compares references: two equal strings built at different times are not ==.",
		Bad:     "class A {\n  boolean f(String s) {\n    return s == \"yes\";\n  }\n}\n",
		Good:    "class A {\n  boolean f(String s) {\n    return \"yes\".equals(s);\n  }\n}\n",
		Source:  "PMD errorprone/UseEqualsToCompareStrings",
		Oracle:  "PMD 7.27.0 UseEqualsToCompareStrings: PMD types both operands as String; this rule needs one operand to be a literal.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/UseEqualsToCompareStrings"}},
	Kinds:  []string{"binary_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if op := operatorText(t, n); op != "==" && op != "!=" {
			return
		}
		l, r := unparen(t, t.ChildByField(n, "left")), unparen(t, t.ChildByField(n, "right"))
		ls, rs := t.Kind(l) == "string_literal", t.Kind(r) == "string_literal"
		if (ls || rs) && t.Kind(l) != "null_literal" && t.Kind(r) != "null_literal" {
			p.Reportf(n, "use equals() to compare strings instead of '==' or '!='")
		}
	},
}
