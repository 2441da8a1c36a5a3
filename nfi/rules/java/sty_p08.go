package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// UpperEll reports long literals written with a lower-case l.
//
// Source: Checkstyle UpperEll; JLS 3.10.1 (recommends L).
var UpperEll = &nfi.Rule{
	ID: "JAVA-STY-P08", Name: "upper-ell", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "long literal with a lower-case l suffix",
		What:    "An integer literal (decimal, hex, octal or binary) ending in `l`.",
		Why:     "`10l` reads as 101; the JLS itself recommends the upper-case L.",
		Bad:     "class A {\n  long x = 10l;\n}\n",
		Good:    "class A {\n  long x = 10L;\n}\n",
		Source:  "Checkstyle UpperEll",
		Oracle:  "Checkstyle 12.3.1 UpperEll: same semantics.",
	},
	Oracle: nfi.Oracle{Checkstyle: []string{"UpperEll"}, Exact: true},
	Kinds:  []string{"decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		if b := p.Tree.Text(n); len(b) > 0 && b[len(b)-1] == 'l' {
			p.Reportf(n, "should use uppercase 'L'")
		}
	},
}
