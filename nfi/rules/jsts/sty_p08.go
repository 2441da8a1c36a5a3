package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoEmptyFunction reports functions with an empty body.
//
// Source: ESLint no-empty-function (allow []).
var NoEmptyFunction = &nfi.Rule{
	ID: "JS-STY-P08", Name: "no-empty-function", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "empty function",
		What: "A function, arrow function, method, getter, setter or constructor whose block body has no " +
			"statement and no comment.",
		Why:    "An empty function is either unfinished or a deliberate no-op; a comment tells which.",
		Bad:    "function noop() {}\n",
		Good:   "function noop() {\n  // deliberately does nothing: the default handler\n}\n",
		Exempt: "TypeScript constructors with parameter properties (`constructor(private x: number) {}`).",
		Source: "ESLint no-empty-function",
		Oracle: "ESLint 10.15.0 no-empty-function with its defaults: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-empty-function"}, Exact: true},
	Kinds:  functionKinds,
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		body := t.ChildByField(n, "body")
		if body == syntax.NoNode || t.Kind(body) != "statement_block" {
			return
		}
		closed := false
		for c := t.Node(body).FirstChild; c != syntax.NoNode && !closed; c = t.Node(c).NextSibling {
			cn := t.Node(c)
			closed = !cn.Named && cn.Kind() == "}"
			if cn.Named {
				return
			}
		}
		if t.Kind(n) == "method_definition" && t.TextString(t.ChildByField(n, "name")) == "constructor" {
			if ps := t.ChildByField(n, "parameters"); ps != syntax.NoNode {
				for _, prm := range t.NamedChildren(ps) {
					for _, m := range t.NamedChildren(prm) {
						if k := t.Kind(m); k == "accessibility_modifier" || k == "override_modifier" {
							return
						}
					}
					for c := t.Node(prm).FirstChild; c != syntax.NoNode; c = t.Node(c).NextSibling {
						if t.Kind(c) == "readonly" {
							return
						}
					}
				}
			}
		}
		p.Reportf(body, "unexpected empty %s", t.Kind(n))
	},
}
