package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoNestedTernary reports a ternary nested in another's branches.
//
// Source: ESLint no-nested-ternary.
var NoNestedTernary = &nfi.Rule{
	ID: "JS-STY-P03", Name: "no-nested-ternary", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "nested ternary expression",
		What:    "A conditional expression whose consequent or alternate (parentheses aside) is a conditional expression.",
		Why:     "Nested ternaries read as puzzles; an if chain or a lookup says the same plainly.",
		Bad:     "const s = a ? \"x\" : b ? \"y\" : \"z\";\n",
		Good:    "let s = \"z\";\nif (a) {\n  s = \"x\";\n} else if (b) {\n  s = \"y\";\n}\n",
		Source:  "ESLint no-nested-ternary",
		Oracle:  "ESLint 10.15.0 no-nested-ternary: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-nested-ternary"}, Exact: true},
	Kinds:  []string{"ternary_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		for _, f := range []string{"consequence", "alternative"} {
			if c := unparen(t, t.ChildByField(n, f)); c != syntax.NoNode && t.Kind(c) == "ternary_expression" {
				p.Reportf(n, "do not nest ternary expressions")
				return
			}
		}
	},
}
