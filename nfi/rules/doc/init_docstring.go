package doc

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// InitDocstring reports `__init__` methods of public classes without a
// docstring.
//
// Source: PEP 257; Ruff D107.
var InitDocstring = &nfi.Rule{
	ID: "DOC-R05", Name: "init-docstring", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "public __init__ has no docstring",
		What:    "Every `__init__` defined directly in the body of a public class has a docstring.",
		Why:     "The constructor's docstring documents how to build an instance: its parameters and their meaning.",
		Bad:     "\"\"\"Shapes.\"\"\"\n\n\nclass Circle:\n    \"\"\"A circle.\"\"\"\n\n    def __init__(self, r):\n        self.r = r\n",
		Good:    "\"\"\"Shapes.\"\"\"\n\n\nclass Circle:\n    \"\"\"A circle.\"\"\"\n\n    def __init__(self, r):\n        \"\"\"Make a circle of radius r.\"\"\"\n        self.r = r\n",
		Exempt:  "`__init__` of private classes (and of classes defined in functions); `@typing.overload`/`@typing.override` `__init__`.",
		Source:  "PEP 257 (\"Public methods (including the __init__ constructor) should also have docstrings\"); the polynfi-92 catalog spec DOC-R05",
		Oracle: "Ruff D107 (kept by the google and pep257 conventions, disabled by numpy). Difference: an " +
			"implicitly concatenated docstring counts as present for both.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"D107"}, Exact: true},
	Finish: checkInitDocstring,
}

func checkInitDocstring(p *nfi.Pass) {
	ds := defs(p)
	for i := range ds.List {
		d := &ds.List[i]
		if d.Kind == pyast.MethodDef && d.Name == "__init__" && d.Public && d.Doc == nil && !d.Overload && !d.Override {
			reportName(p, d, "public "+describe(ds, d)+" has no docstring")
		}
	}
}
