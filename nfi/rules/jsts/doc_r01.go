package jsts

import (
	"bytes"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// ExportedDoc requires a JSDoc comment on exported functions and classes.
//
// Source: JSDoc; eslint-plugin-jsdoc require-jsdoc with publicOnly (not pinned: no oracle run).
var ExportedDoc = &nfi.Rule{
	ID: "JS-DOC-R01", Name: "exported-api-doc", Aspect: nfi.Documentation, Kind: nfi.Required, Languages: all,
	Doc: nfi.Doc{
		Summary: "exported function or class without a doc comment",
		What: "An `export` statement declaring a function, generator or class (default exports included) that " +
			"is not immediately preceded by a `/** ... */` block comment.",
		Why:    "The exported API is what other modules read; its doc comment is what editors show them.",
		Bad:    "export function area(r) {\n  return Math.PI * r * r;\n}\n",
		Good:   "/** Returns the area of a circle of radius r. */\nexport function area(r) {\n  return Math.PI * r * r;\n}\n",
		Exempt: "Exported variables, types and interfaces; re-exports.",
		Source: "JSDoc (jsdoc.app); the API-documentation counterpart of the Python catalog's DOC rules",
		Oracle: "No pinned oracle: the nearest check is eslint-plugin-jsdoc's require-jsdoc with publicOnly, not a core or typescript-eslint rule.",
	},
	Kinds: []string{"export_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		decl := t.ChildByField(n, "declaration")
		if decl == syntax.NoNode {
			decl = t.ChildByField(n, "value")
		}
		if decl == syntax.NoNode {
			return
		}
		switch t.Kind(decl) {
		case "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration",
			"function_expression", "class":
		default:
			return
		}
		prev := syntax.NoNode
		par := t.Parent(n)
		for c := t.Node(par).FirstChild; c != syntax.NoNode && c != n; c = t.Node(c).NextSibling {
			prev = c
		}
		if prev != syntax.NoNode && t.Kind(prev) == "comment" && bytes.HasPrefix(t.Text(prev), []byte("/**")) {
			return
		}
		p.Reportf(n, "exported %s has no doc comment", t.Kind(decl))
	},
}
