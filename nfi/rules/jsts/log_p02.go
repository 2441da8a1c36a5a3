package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoDebugger reports `debugger` statements.
//
// Source: ESLint no-debugger.
var NoDebugger = &nfi.Rule{
	ID: "JS-LOG-P02", Name: "no-debugger", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "debugger statement",
		What:    "A `debugger;` statement.",
		Why:     "A breakpoint left in shipped code stops every user with the developer tools open.",
		Bad:     "function f(x) {\n  debugger;\n  return x;\n}\n",
		Good:    "function f(x) {\n  return x;\n}\n",
		Source:  "ESLint no-debugger",
		Oracle:  "ESLint 10.15.0 no-debugger: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-debugger"}, Exact: true},
	Kinds:  []string{"debugger_statement"},
	Visit:  func(p *nfi.Pass, n syntax.NodeID) { p.Reportf(n, "unexpected 'debugger' statement") },
}
