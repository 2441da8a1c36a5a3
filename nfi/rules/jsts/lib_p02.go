package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoNewFunc reports the Function constructor.
//
// Source: ESLint no-new-func.
var NoNewFunc = &nfi.Rule{
	ID: "JS-LIB-P02", Name: "no-new-func", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "Function constructor",
		What:    "`new Function(...)`, `Function(...)` and `Function.call/apply/bind(...)` on the global Function.",
		Why:     "The Function constructor compiles text at run time: eval by another name.",
		Bad:     "const add = new Function(\"a\", \"b\", \"return a + b\");\n",
		Good:    "const add = (a, b) => a + b;\n",
		Exempt:  "A file that declares a name Function.",
		Source:  "ESLint no-new-func",
		Oracle:  "ESLint 10.15.0 no-new-func; the global is resolved by the file's declarations, not by scope.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-new-func"}, Exact: true},
	Kinds:  []string{"new_expression", "call_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		callee := t.ChildByField(n, "constructor")
		if t.Kind(n) == "call_expression" {
			callee = t.ChildByField(n, "function")
		}
		callee = unparen(t, callee)
		if callee == syntax.NoNode {
			return
		}
		if identText(t, callee, "Function") {
			if !declared(p)["Function"] {
				p.Reportf(n, "the Function constructor is eval")
			}
			return
		}
		if t.Kind(n) == "call_expression" && t.Kind(callee) == "member_expression" &&
			identText(t, t.ChildByField(callee, "object"), "Function") && !declared(p)["Function"] {
			switch t.TextString(t.ChildByField(callee, "property")) {
			case "call", "apply", "bind":
				p.Reportf(n, "the Function constructor is eval")
			}
		}
	},
}
