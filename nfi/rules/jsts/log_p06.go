package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// UseIsNaN reports comparisons with NaN, which are never true.
//
// Source: ESLint use-isnan (defaults: enforceForSwitchCase true, enforceForIndexOf false).
var UseIsNaN = &nfi.Rule{
	ID: "JS-LOG-P06", Name: "use-isnan", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "comparison with NaN",
		What: "A comparison (`<`, `>`, `<=`, `>=`, `==`, `!=`, `===`, `!==`) with `NaN` or `Number.NaN` " +
			"(or a sequence expression ending in one), `switch (NaN)` and `case NaN:`.",
		Why:    "NaN is unequal to everything, itself included: `x === NaN` is always false.",
		Bad:    "if (x === NaN) {\n  f();\n}\n",
		Good:   "if (Number.isNaN(x)) {\n  f();\n}\n",
		Exempt: "A file that declares a name NaN or Number (shadowing the global).",
		Source: "ESLint use-isnan",
		Oracle: "ESLint 10.15.0 use-isnan with its defaults; ESLint resolves the global by scope, polynfi by the file's declarations.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"use-isnan"}, Exact: true},
	Kinds:  []string{"binary_expression", "switch_statement", "switch_case"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		switch t.Kind(n) {
		case "binary_expression":
			switch operator(t, n) {
			case "<", ">", "<=", ">=", "==", "!=", "===", "!==":
			default:
				return
			}
			if isNaNRef(p, t.ChildByField(n, "left")) || isNaNRef(p, t.ChildByField(n, "right")) {
				p.Reportf(n, "use the isNaN function to compare with NaN")
			}
		case "switch_statement", "switch_case":
			if isNaNRef(p, t.ChildByField(n, "value")) {
				p.Reportf(n, "'%s' can never match NaN", t.Kind(n))
			}
		}
	},
}

func isNaNRef(p *nfi.Pass, n syntax.NodeID) bool {
	t := p.Tree
	n = unparen(t, n)
	if n != syntax.NoNode && t.Kind(n) == "sequence_expression" {
		kids := t.NamedChildren(n)
		n = unparen(t, kids[len(kids)-1])
	}
	if n == syntax.NoNode {
		return false
	}
	if identText(t, n, "NaN") {
		return !declared(p)["NaN"]
	}
	if t.Kind(n) == "member_expression" {
		obj, prop := t.ChildByField(n, "object"), t.ChildByField(n, "property")
		return identText(t, obj, "Number") && prop != syntax.NoNode && t.TextString(prop) == "NaN" && !declared(p)["Number"]
	}
	return false
}
