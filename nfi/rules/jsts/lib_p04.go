package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoPrototypeBuiltins reports Object.prototype methods called on an object.
//
// Source: ESLint no-prototype-builtins.
var NoPrototypeBuiltins = &nfi.Rule{
	ID: "JS-LIB-P04", Name: "no-prototype-builtins", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "Object.prototype builtin called on an object",
		What:    "A call `x.hasOwnProperty(...)`, `x.isPrototypeOf(...)` or `x.propertyIsEnumerable(...)` (or with `?.`, or `x[\"hasOwnProperty\"]`).",
		Why:     "An object may shadow the method or have no prototype (Object.create(null)); Object.hasOwn does not care.",
		Bad:     "if (obj.hasOwnProperty(key)) {\n  f();\n}\n",
		Good:    "if (Object.hasOwn(obj, key)) {\n  f();\n}\n",
		Source:  "ESLint no-prototype-builtins",
		Oracle:  "ESLint 10.15.0 no-prototype-builtins: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-prototype-builtins"}, Exact: true},
	Kinds:  []string{"call_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		callee := unparen(t, t.ChildByField(n, "function"))
		if callee == syntax.NoNode {
			return
		}
		name := ""
		switch t.Kind(callee) {
		case "member_expression":
			name = t.TextString(t.ChildByField(callee, "property"))
		case "subscript_expression":
			idx := t.ChildByField(callee, "index")
			if idx != syntax.NoNode && t.Kind(idx) == "string" {
				s := t.TextString(idx)
				name = s[1 : len(s)-1]
			}
		}
		switch name {
		case "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable":
			p.Reportf(callee, "do not access Object.prototype method '%s' from target object", name)
		}
	},
}
