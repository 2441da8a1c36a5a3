package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoExplicitAny reports the `any` type.
//
// Source: typescript-eslint no-explicit-any (fixToUnknown false, ignoreRestArgs false).
var NoExplicitAny = &nfi.Rule{
	ID: "JS-LOG-P11", Name: "no-explicit-any", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: tsOnly,
	Doc: nfi.Doc{
		Summary: "explicit any type",
		What:    "The type `any` written anywhere in a TypeScript file (annotations, type arguments, assertions, aliases).",
		Why:     "`any` switches the type checker off for everything the value reaches; `unknown` keeps it on.",
		Bad:     "function parse(s: string): any {\n  return JSON.parse(s);\n}\n",
		Good:    "function parse(s: string): unknown {\n  return JSON.parse(s);\n}\n",
		Source:  "typescript-eslint no-explicit-any",
		Oracle:  "typescript-eslint 8.73.0 @typescript-eslint/no-explicit-any with its defaults: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"@typescript-eslint/no-explicit-any"}, Exact: true},
	Kinds:  []string{"predefined_type"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		if string(p.Tree.Text(n)) == "any" {
			p.Reportf(n, "unexpected any; specify a different type")
		}
	},
}
