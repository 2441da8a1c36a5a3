package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoCaller reports arguments.callee and arguments.caller.
//
// Source: ESLint no-caller.
var NoCaller = &nfi.Rule{
	ID: "JS-LIB-P09", Name: "no-caller", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "arguments.callee or arguments.caller",
		What:    "A member access `arguments.callee` or `arguments.caller`.",
		Why:     "Both are deprecated, forbidden in strict mode and defeat optimization; name the function instead.",
		Bad:     "const fact = function (n) {\n  return n < 2 ? 1 : n * arguments.callee(n - 1);\n};\n",
		Good:    "const fact = function f(n) {\n  return n < 2 ? 1 : n * f(n - 1);\n};\n",
		Source:  "ESLint no-caller",
		Oracle:  "ESLint 10.15.0 no-caller: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-caller"}, Exact: true},
	Kinds:  []string{"member_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if !identText(t, t.ChildByField(n, "object"), "arguments") {
			return
		}
		switch prop := t.TextString(t.ChildByField(n, "property")); prop {
		case "callee", "caller":
			p.Reportf(n, "avoid arguments.%s", prop)
		}
	},
}
