package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoNewWrappers reports `new String`, `new Number` and `new Boolean`.
//
// Source: ESLint no-new-wrappers.
var NoNewWrappers = &nfi.Rule{
	ID: "JS-LIB-P11", Name: "no-new-wrappers", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "primitive wrapper constructed with new",
		What:    "`new String(...)`, `new Number(...)` or `new Boolean(...)` on the global constructor.",
		Why:     "A wrapper object is truthy even for \"\", 0 and false, and never === its primitive.",
		Bad:     "const s = new String(\"x\");\n",
		Good:    "const s = String(x);\n",
		Exempt:  "A file that declares a name String, Number or Boolean.",
		Source:  "ESLint no-new-wrappers",
		Oracle:  "ESLint 10.15.0 no-new-wrappers; the global is resolved by the file's declarations, not by scope.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-new-wrappers"}, Exact: true},
	Kinds:  []string{"new_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		c := t.ChildByField(n, "constructor")
		if c == syntax.NoNode || t.Kind(c) != "identifier" {
			return
		}
		switch name := t.TextString(c); name {
		case "String", "Number", "Boolean":
			if !declared(p)[name] {
				p.Reportf(n, "do not use %s as a constructor", name)
			}
		}
	},
}
