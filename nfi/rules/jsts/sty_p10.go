package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// PreferNamespaceKeyword reports `module X {}` for internal modules.
//
// Source: typescript-eslint prefer-namespace-keyword.
var PreferNamespaceKeyword = &nfi.Rule{
	ID: "JS-STY-P10", Name: "prefer-namespace-keyword", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: tsOnly,
	Doc: nfi.Doc{
		Summary: "module keyword for a namespace",
		What:    "A `module X {}` declaration whose name is an identifier (not a string: `declare module \"x\"` is an ambient module).",
		Why:     "`module X` is the old spelling of `namespace X`, easily confused with ES modules.",
		Bad:     "declare module Geometry {\n  const pi: number;\n}\n",
		Good:    "declare namespace Geometry {\n  const pi: number;\n}\n",
		Source:  "typescript-eslint prefer-namespace-keyword",
		Oracle:  "typescript-eslint 8.73.0 @typescript-eslint/prefer-namespace-keyword: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"@typescript-eslint/prefer-namespace-keyword"}, Exact: true},
	Kinds:  []string{"module"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		name := t.ChildByField(n, "name")
		if name == syntax.NoNode || t.Kind(name) == "string" || t.TextString(name) == "global" {
			return
		}
		p.Reportf(n, "use 'namespace' instead of 'module' to declare custom TypeScript modules")
	},
}
