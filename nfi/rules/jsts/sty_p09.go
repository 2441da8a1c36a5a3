package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// ConsistentTypeDefinitions reports object types declared with `type`.
//
// Source: typescript-eslint consistent-type-definitions (default "interface").
var ConsistentTypeDefinitions = &nfi.Rule{
	ID: "JS-STY-P09", Name: "consistent-type-definitions", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: tsOnly,
	Doc: nfi.Doc{
		Summary: "object type declared as a type alias",
		What:    "A type alias whose type is an object type literal (`type T = { ... }`), not a mapped type (`{ [K in keyof T]: ... }`).",
		Why:     "Interfaces name object shapes, extend cleanly and give clearer compiler messages; one form reads consistently.",
		Bad:     "type Point = { x: number; y: number };\n",
		Good:    "interface Point {\n  x: number;\n  y: number;\n}\n",
		Source:  "typescript-eslint consistent-type-definitions",
		Oracle:  "typescript-eslint 8.73.0 @typescript-eslint/consistent-type-definitions with its default \"interface\": same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"@typescript-eslint/consistent-type-definitions"}, Exact: true},
	Kinds:  []string{"type_alias_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		v := t.ChildByField(n, "value")
		if v == syntax.NoNode || t.Kind(v) != "object_type" {
			return
		}
		// `{ [K in keyof T]: ... }` is a mapped type (TSMappedType), which
		// tree-sitter parses as an object type with a mapped index signature
		for _, m := range t.NamedChildren(v) {
			if t.Kind(m) == "index_signature" && t.FirstChildOfKind(m, "mapped_type_clause") != syntax.NoNode {
				return
			}
		}
		p.Reportf(n, "use an interface instead of a type")
	},
}
