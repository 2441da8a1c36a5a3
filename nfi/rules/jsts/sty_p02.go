package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoMultiAssign reports chained assignments.
//
// Source: ESLint no-multi-assign (ignoreNonDeclaration false).
var NoMultiAssign = &nfi.Rule{
	ID: "JS-STY-P02", Name: "no-multi-assign", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "chained assignment",
		What:    "An assignment whose value is itself an assignment (`a = b = c`), in an expression, a declarator or a class field.",
		Why:     "A chain hides that two names now hold one value, and `let a = b = 0` silently assigns an outer b.",
		Bad:     "a = b = 0;\n",
		Good:    "a = 0;\nb = 0;\n",
		Source:  "ESLint no-multi-assign",
		Oracle:  "ESLint 10.15.0 no-multi-assign with its defaults: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-multi-assign"}, Exact: true},
	Kinds:  []string{"assignment_expression", "augmented_assignment_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		par := parentSkippingParens(t, n)
		if par == syntax.NoNode {
			return
		}
		switch t.Kind(par) {
		case "assignment_expression", "augmented_assignment_expression", "variable_declarator", "public_field_definition", "field_definition":
			p.Reportf(n, "unexpected chained assignment")
		}
	},
}
