package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// AvoidThrowingNullPointerException reports throwing a new
// NullPointerException.
//
// Source: PMD design/AvoidThrowingNullPointerException.
var AvoidThrowingNullPointerException = &nfi.Rule{
	ID: "JAVA-ERR-P05", Name: "avoid-throwing-null-pointer-exception", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "thrown NullPointerException",
		What:    "A `new NullPointerException(...)` anywhere in a throw statement's expression.",
		Why:     "A thrown NullPointerException reads as a bug of the virtual machine's making; IllegalArgumentException or Objects.requireNonNull says what was wrong.",
		Bad:     "class A {\n  void f(Object o) {\n    if (o == null) throw new NullPointerException();\n  }\n}\n",
		Good:    "class A {\n  void f(Object o) {\n    java.util.Objects.requireNonNull(o, \"o\");\n  }\n}\n",
		Source:  "PMD design/AvoidThrowingNullPointerException",
		Oracle:  "PMD 7.27.0 AvoidThrowingNullPointerException: PMD also follows a variable that holds a new NullPointerException to its throw; this rule does not.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/design.xml/AvoidThrowingNullPointerException"}, Exact: true},
	Kinds:  []string{"throw_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		thrownCreations(p.Tree, n, func(s string) bool { return s == "NullPointerException" }, func(c syntax.NodeID, _ string) {
			p.Reportf(c, "avoid throwing null pointer exceptions")
		})
	},
}
