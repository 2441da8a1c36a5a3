package doc

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// MethodDocstring reports public methods without a docstring.
//
// Source: PEP 257; Ruff D102.
var MethodDocstring = &nfi.Rule{
	ID: "DOC-R03", Name: "method-docstring", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "public method has no docstring",
		What: "Every public method (a def directly in the body of a public class) has a docstring. " +
			"Excluded: `@typing.overload` and `@typing.override` methods, property setters and deleters " +
			"(`@x.setter`, `@x.deleter`: private), names starting with `_`, dunder methods other than " +
			"`__new__` and `__call__` (those two are checked), and `__init__` (DOC-R05).",
		Why:    "Public methods are a class's interface; their docstrings say what each does without reading its body.",
		Bad:    "\"\"\"Shapes.\"\"\"\n\n\nclass Circle:\n    \"\"\"A circle.\"\"\"\n\n    def area(self):\n        return 3.14\n",
		Good:   "\"\"\"Shapes.\"\"\"\n\n\nclass Circle:\n    \"\"\"A circle.\"\"\"\n\n    def area(self):\n        \"\"\"Return the area.\"\"\"\n        return 3.14\n\n    def _cache(self):\n        return None\n",
		Exempt: "Methods of private classes, private methods, setters/deleters, overloads and overrides, dunders except `__new__`/`__call__`, and `__init__`.",
		Source: "PEP 257 (\"Public methods (including the __init__ constructor) should also have docstrings\"); the polynfi-92 catalog spec DOC-R03",
		Oracle: "Ruff D102, which also reports `__new__` and `__call__`. Difference: an implicitly " +
			"concatenated docstring counts as present for both.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"D102"}, Exact: true},
	Finish: checkMethodDocstring,
}

func checkMethodDocstring(p *nfi.Pass) {
	ds := defs(p)
	for i := range ds.List {
		d := &ds.List[i]
		if d.Kind != pyast.MethodDef || !d.Public || d.Doc != nil || d.Overload || d.Override {
			continue
		}
		if pyast.IsDunder(d.Name) && d.Name != "__new__" && d.Name != "__call__" {
			continue
		}
		reportName(p, d, "public "+describe(ds, d)+" has no docstring")
	}
}
