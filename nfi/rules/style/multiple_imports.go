package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// MultipleImports reports `import a, b` statements.
//
// Source: PEP 8 "Imports"; Ruff E401 (pycodestyle).
var MultipleImports = &nfi.Rule{
	ID: "STY-P08", Name: "multiple-imports-on-one-line", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "one module per import statement",
		What:    "An `import` statement (not `from ... import`) that names more than one module.",
		Why:     "PEP 8: imports should usually be on separate lines, which keeps diffs and sorting simple.",
		Bad:     "import os, sys\n",
		Good:    "import os\nimport sys\n",
		Exempt:  "`from module import a, b`, which PEP 8 allows.",
		Source:  "PEP 8 (\"Imports should usually be on separate lines\"); Ruff E401",
		Oracle:  "Ruff E401, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E401"}, Exact: true},
	Kinds:  []string{"import_statement"},
	Visit:  checkMultipleImports,
}

func checkMultipleImports(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	count := 0
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Field() == "name" {
			count++
		}
	}
	if count > 1 {
		p.Reportf(n, "%d modules imported in one statement", count)
	}
}
