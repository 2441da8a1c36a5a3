package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// EqualsNull reports x.equals(null).
//
// Source: PMD errorprone/EqualsNull.
var EqualsNull = &nfi.Rule{
	ID: "JAVA-LOG-P09", Name: "equals-null", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "equals(null) instead of == null",
		What:    "A call `x.equals(null)` (one argument, the null literal).",
		Why:     "By equals' contract it is always false, or a NullPointerException when x is null; `x == null` is meant.",
		Bad:     "class A {\n  boolean f(Object o) {\n    return o.equals(null);\n  }\n}\n",
		Good:    "class A {\n  boolean f(Object o) {\n    return o == null;\n  }\n}\n",
		Source:  "PMD errorprone/EqualsNull",
		Oracle:  "PMD 7.27.0 EqualsNull: same semantics.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/EqualsNull"}, Exact: true},
	Kinds:  []string{"method_invocation"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if nameText(t, n) != "equals" {
			return
		}
		if a := arguments(t, n); len(a) == 1 && t.Kind(unparen(t, a[0])) == "null_literal" {
			p.Reportf(n, "avoid using equals() to compare against null")
		}
	},
}
