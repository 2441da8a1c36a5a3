package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoProto reports the __proto__ property.
//
// Source: ESLint no-proto.
var NoProto = &nfi.Rule{
	ID: "JS-LIB-P10", Name: "no-proto", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "__proto__ property",
		What:    "A member access `x.__proto__` or `x[\"__proto__\"]`.",
		Why:     "__proto__ is a legacy accessor (ECMA-262 Annex B); Object.getPrototypeOf and setPrototypeOf are the API.",
		Bad:     "const proto = obj.__proto__;\n",
		Good:    "const proto = Object.getPrototypeOf(obj);\n",
		Source:  "ESLint no-proto",
		Oracle:  "ESLint 10.15.0 no-proto: same semantics for names written without escapes.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-proto"}, Exact: true},
	Kinds:  []string{"member_expression", "subscript_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if t.Kind(n) == "member_expression" {
			if t.TextString(t.ChildByField(n, "property")) == "__proto__" {
				p.Reportf(n, "the '__proto__' property is deprecated")
			}
			return
		}
		idx := unparen(t, t.ChildByField(n, "index"))
		if idx == syntax.NoNode {
			return
		}
		if s := t.TextString(idx); (t.Kind(idx) == "string" || t.Kind(idx) == "template_string" &&
			t.FirstChildOfKind(idx, "template_substitution") == syntax.NoNode) && len(s) > 2 && s[1:len(s)-1] == "__proto__" {
			p.Reportf(n, "the '__proto__' property is deprecated")
		}
	},
}
