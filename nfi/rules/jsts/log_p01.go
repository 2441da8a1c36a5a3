package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// Eqeqeq reports `==` and `!=`, which convert their operands' types.
//
// Source: ESLint eqeqeq (default "always").
var Eqeqeq = &nfi.Rule{
	ID: "JS-LOG-P01", Name: "eqeqeq", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "loose equality operator",
		What:    "A binary expression with the operator `==` or `!=`, `== null` included.",
		Why:     "`==` converts its operands' types (`\"0\" == false`), which hides bugs that `===` shows.",
		Bad:     "if (a == b) {\n  f();\n}\n",
		Good:    "if (a === b) {\n  f();\n}\n",
		Source:  "ESLint eqeqeq",
		Oracle:  "ESLint 10.15.0 eqeqeq with its default option \"always\": same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"eqeqeq"}, Exact: true},
	Kinds:  []string{"binary_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		if op := operator(p.Tree, n); op == "==" || op == "!=" {
			p.Reportf(n, "expected '%s=' and instead saw '%s'", op, op)
		}
	},
}
