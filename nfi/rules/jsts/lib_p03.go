package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoConsole reports uses of the console object.
//
// Source: ESLint no-console.
var NoConsole = &nfi.Rule{
	ID: "JS-LIB-P03", Name: "no-console", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "console call",
		What:    "A member access on the global `console` (`console.log`, `console[\"warn\"]`, ...).",
		Why:     "Console output in library code is noise for its users; a logger or a returned value says it properly.",
		Bad:     "function f(x) {\n  console.log(x);\n}\n",
		Good:    "function f(x, log) {\n  log.debug(x);\n}\n",
		Exempt:  "A file that declares a name console.",
		Source:  "ESLint no-console",
		Oracle:  "ESLint 10.15.0 no-console with no allowed method; console is a global only where ESLint's configuration declares it (the oracle run declares it); the global is resolved by the file's declarations.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-console"}, Exact: true},
	Kinds:  []string{"member_expression", "subscript_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if identText(t, t.ChildByField(n, "object"), "console") && !declared(p)["console"] {
			p.Reportf(n, "unexpected console statement")
		}
	},
}
