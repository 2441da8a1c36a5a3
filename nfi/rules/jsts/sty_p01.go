package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoVar reports `var` declarations.
//
// Source: ESLint no-var.
var NoVar = &nfi.Rule{
	ID: "JS-STY-P01", Name: "no-var", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "var declaration",
		What:    "A `var` declaration (statements and for-loop heads).",
		Why:     "var is function-scoped and hoisted; let and const are block-scoped, which is what a reader assumes.",
		Bad:     "var count = 0;\n",
		Good:    "let count = 0;\n",
		Exempt:  "`declare var` in TypeScript ambient declarations is reported too, as ESLint does.",
		Source:  "ESLint no-var",
		Oracle:  "ESLint 10.15.0 no-var: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-var"}, Exact: true},
	Kinds:  []string{"variable_declaration"},
	Visit:  func(p *nfi.Pass, n syntax.NodeID) { p.Reportf(n, "unexpected var, use let or const instead") },
}
