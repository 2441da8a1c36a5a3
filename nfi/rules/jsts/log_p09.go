package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoUnsafeNegation reports `!a in b` and `!a instanceof B`.
//
// Source: ESLint no-unsafe-negation (enforceForOrderingRelations false).
var NoUnsafeNegation = &nfi.Rule{
	ID: "JS-LOG-P09", Name: "no-unsafe-negation", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "negation of the left operand of in or instanceof",
		What:    "An `in` or `instanceof` expression whose left operand is an unparenthesized `!` expression.",
		Why:     "`!key in obj` negates key, not the test: `(!key) in obj` is almost never meant.",
		Bad:     "if (!key in obj) {\n  f();\n}\n",
		Good:    "if (!(key in obj)) {\n  f();\n}\n",
		Source:  "ESLint no-unsafe-negation",
		Oracle:  "ESLint 10.15.0 no-unsafe-negation with its defaults: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-unsafe-negation"}, Exact: true},
	Kinds:  []string{"binary_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if op := operator(t, n); op != "in" && op != "instanceof" {
			return
		}
		l := t.ChildByField(n, "left")
		if l != syntax.NoNode && t.Kind(l) == "unary_expression" && operator(t, l) == "!" {
			p.Reportf(n, "unexpected negating the left operand of '%s' operator", operator(t, n))
		}
	},
}
