package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoUselessConcat reports two literals concatenated on one line.
//
// Source: ESLint no-useless-concat.
var NoUselessConcat = &nfi.Rule{
	ID: "JS-STY-P06", Name: "no-useless-concat", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "concatenation of two literals on one line",
		What: "A `+` whose nearest operands on either side (through nested `+`, parentheses aside) are both " +
			"string literals or template literals, the left one ending on the line where the right one starts.",
		Why:    "`\"a\" + \"b\"` is `\"ab\"` written twice as long.",
		Bad:    "const s = \"a\" + \"b\";\n",
		Good:   "const s = \"ab\";\n",
		Source: "ESLint no-useless-concat",
		Oracle: "ESLint 10.15.0 no-useless-concat: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-useless-concat"}, Exact: true},
	Kinds:  []string{"binary_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if operator(t, n) != "+" {
			return
		}
		l := unparen(t, t.ChildByField(n, "left"))
		for l != syntax.NoNode && isConcat(t, l) {
			l = unparen(t, t.ChildByField(l, "right"))
		}
		r := unparen(t, t.ChildByField(n, "right"))
		for r != syntax.NoNode && isConcat(t, r) {
			r = unparen(t, t.ChildByField(r, "left"))
		}
		if isStringLit(t, l) && isStringLit(t, r) && t.Row(t.Node(l).EndByte) == t.Row(t.Node(r).StartByte) {
			p.Reportf(n, "unexpected string concatenation of literals")
		}
	},
}

func isConcat(t *syntax.Tree, n syntax.NodeID) bool {
	return t.Kind(n) == "binary_expression" && operator(t, n) == "+"
}

func isStringLit(t *syntax.Tree, n syntax.NodeID) bool {
	if n == syntax.NoNode {
		return false
	}
	k := t.Kind(n)
	return k == "string" || k == "template_string"
}
