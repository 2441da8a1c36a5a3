package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoPlusplus reports the `++` and `--` operators.
//
// Source: ESLint no-plusplus (allowForLoopAfterthoughts false).
var NoPlusplus = &nfi.Rule{
	ID: "JS-STY-P04", Name: "no-plusplus", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "increment or decrement operator",
		What:    "A prefix or postfix `++` or `--`, for-loop updates included.",
		Why:     "`++` depends on automatic semicolon insertion and on prefix/postfix subtleties; `+= 1` does not.",
		Bad:     "count++;\n",
		Good:    "count += 1;\n",
		Source:  "ESLint no-plusplus",
		Oracle:  "ESLint 10.15.0 no-plusplus with its defaults: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-plusplus"}, Exact: true},
	Kinds:  []string{"update_expression"},
	Visit:  func(p *nfi.Pass, n syntax.NodeID) { p.Reportf(n, "unary operator '%s' used", operator(p.Tree, n)) },
}
