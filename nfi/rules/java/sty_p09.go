package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// ArrayTypeStyle reports C-style array declarations.
//
// Source: Checkstyle ArrayTypeStyle (javaStyle true).
var ArrayTypeStyle = &nfi.Rule{
	ID: "JAVA-STY-P09", Name: "array-type-style", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "C-style array declaration",
		What:    "Brackets after a variable's or parameter's name (`String args[]`), or after a method's parameter list (`int f()[]`).",
		Why:     "In Java the brackets are part of the type; `int[] a` says so, `int a[]` splits the type in two.",
		Bad:     "class A {\n  int a[] = new int[1];\n}\n",
		Good:    "class A {\n  int[] a = new int[1];\n}\n",
		Source:  "Checkstyle ArrayTypeStyle",
		Oracle:  "Checkstyle 12.3.1 ArrayTypeStyle with its defaults.",
	},
	Oracle: nfi.Oracle{Checkstyle: []string{"ArrayTypeStyle"}, Exact: true},
	Kinds:  []string{"variable_declarator", "formal_parameter", "method_declaration", "catch_formal_parameter"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		for c := t.Node(n).FirstChild; c != syntax.NoNode; c = t.Node(c).NextSibling {
			if t.Kind(c) == "dimensions" && t.Node(c).Field() == "dimensions" {
				p.Reportf(c, "array brackets at illegal position")
				return
			}
		}
	},
}
