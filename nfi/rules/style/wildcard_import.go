package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// WildcardImport reports `from module import *`.
//
// Source: PEP 8 "Imports"; Ruff F403 (Pyflakes).
var WildcardImport = &nfi.Rule{
	ID: "STY-P07", Name: "wildcard-import", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "no wildcard imports",
		What:    "Any `from module import *` statement, at any level.",
		Why:     "PEP 8: wildcard imports make it unclear which names are present in the namespace, confusing readers and tools.",
		Bad:     "from os.path import *\n",
		Good:    "from os.path import join\n",
		Exempt:  "nothing (`from __future__ import *` is a syntax error).",
		Source:  "PEP 8 (\"Wildcard imports (from <module> import *) should be avoided\"); Ruff F403",
		Oracle:  "Ruff F403, same semantics. Difference: Ruff honours a file-level `# flake8: noqa` (asyncio/__init__.py passes Ruff and fails here); polynfi ignores suppression comments.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"F403"}, Exact: true},
	Kinds:  []string{"wildcard_import"},
	Visit:  checkWildcardImport,
}

func checkWildcardImport(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	stmt := t.Nodes[n].Parent
	mod := "module"
	if stmt != syntax.NoNode {
		if m := t.ChildByField(stmt, "module_name"); m != syntax.NoNode {
			mod = t.TextString(m)
		}
		n = stmt
	}
	p.Reportf(n, "wildcard import from %s", mod)
}
