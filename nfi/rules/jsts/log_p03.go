package jsts

import (
	"bytes"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoSelfCompare reports comparisons of an expression with itself.
//
// Source: ESLint no-self-compare.
var NoSelfCompare = &nfi.Rule{
	ID: "JS-LOG-P03", Name: "no-self-compare", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "comparison of an expression with itself",
		What: "A comparison (`===`, `==`, `!==`, `!=`, `<`, `<=`, `>`, `>=`) whose two operands are " +
			"the same tokens (parentheses and blanks aside).",
		Why:    "`x === x` is always true but for NaN: either a typo or an obscure NaN test (use Number.isNaN).",
		Bad:    "if (x === x) {\n  f();\n}\n",
		Good:   "if (Number.isNaN(x)) {\n  f();\n}\n",
		Source: "ESLint no-self-compare",
		Oracle: "ESLint 10.15.0 no-self-compare: same semantics (ESLint compares the operands' tokens).",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-self-compare"}, Exact: true},
	Kinds:  []string{"binary_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		switch operator(p.Tree, n) {
		case "===", "==", "!==", "!=", "<", "<=", ">", ">=":
		default:
			return
		}
		t := p.Tree
		l, r := unparen(t, t.ChildByField(n, "left")), unparen(t, t.ChildByField(n, "right"))
		if l != syntax.NoNode && r != syntax.NoNode && bytes.Equal(tokensText(t, l), tokensText(t, r)) {
			p.Reportf(n, "comparing to itself is potentially pointless")
		}
	},
}
