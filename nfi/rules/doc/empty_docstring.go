package doc

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// EmptyDocstring reports docstrings with no content.
//
// Source: PEP 257; Ruff D419.
var EmptyDocstring = &nfi.Rule{
	ID: "DOC-P01", Name: "empty-docstring", Aspect: nfi.Documentation, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "docstring is empty",
		What:    "A docstring (module, class or function) whose content, after removing the quotes, the prefix and surrounding whitespace, is empty.",
		Why:     "An empty docstring pretends the object is documented: coverage tools count it, readers get nothing.",
		Bad:     "def f():\n    \"\"\"\"\"\"\n    return 42\n",
		Good:    "def f():\n    \"\"\"Return the answer.\"\"\"\n    return 42\n",
		Exempt:  "Definitions without a docstring (DOC-R01..R05 report those).",
		Source:  "PEP 257; the polynfi-92 catalog spec DOC-P01",
		Oracle:  "Ruff D419. Difference: Ruff skips implicitly concatenated docstrings (`\"\" \"\"` fails DOC-P01 only).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"D419"}, Exact: true},
	Finish: checkEmptyDocstring,
}

func checkEmptyDocstring(p *nfi.Pass) {
	eachDocstring(p, func(d *pyast.Def, doc *pyast.Docstring) {
		if doc.Content() == "" {
			p.Reportf(doc.Node, "docstring of %s is empty", whose(p, d))
		}
	})
}
