package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoNonNullAssertion reports the non-null assertion operator `x!`.
//
// Source: typescript-eslint no-non-null-assertion.
var NoNonNullAssertion = &nfi.Rule{
	ID: "JS-LOG-P12", Name: "no-non-null-assertion", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: tsOnly,
	Doc: nfi.Doc{
		Summary: "non-null assertion",
		What:    "A postfix `!` non-null assertion on an expression.",
		Why:     "`x!` tells the compiler a value is present without checking it: a crash the types no longer catch.",
		Bad:     "const n = map.get(key)!.length;\n",
		Good:    "const v = map.get(key);\nconst n = v === undefined ? 0 : v.length;\n",
		Source:  "typescript-eslint no-non-null-assertion",
		Oracle:  "typescript-eslint 8.73.0 @typescript-eslint/no-non-null-assertion: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"@typescript-eslint/no-non-null-assertion"}, Exact: true},
	Kinds:  []string{"non_null_expression"},
	Visit:  func(p *nfi.Pass, n syntax.NodeID) { p.Reportf(n, "forbidden non-null assertion") },
}
