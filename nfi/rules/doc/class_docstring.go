package doc

import (
	"github.com/polynfi/polynfi/nfi"
)

// ClassDocstring reports public classes, top-level or nested in a public
// class, without a docstring.
//
// Source: PEP 257; Ruff D101, D106.
var ClassDocstring = &nfi.Rule{
	ID: "DOC-R02", Name: "class-docstring", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "public class has no docstring",
		What: "Every public class has a docstring as the first statement of its body. Public: a " +
			"top-level class (even inside a module-level `if`/`try`) whose name does not start with `_`, " +
			"that is listed in `__all__` when the module defines one, in a public module; a class nested " +
			"in a public class whose name does not start with `_`.",
		Why:    "A class docstring states what the class models and how to use it; it is what `help(cls)` shows.",
		Bad:    "\"\"\"Shapes.\"\"\"\n\n\nclass Circle:\n    radius = 1.0\n",
		Good:   "\"\"\"Shapes.\"\"\"\n\n\nclass Circle:\n    \"\"\"A circle of a given radius.\"\"\"\n\n    radius = 1.0\n",
		Exempt: "Private classes (`_Helper`, classes not in `__all__`, classes in a private module), classes defined inside a function, and classes nested in a private class.",
		Source: "PEP 257 \"What is a Docstring?\"; the polynfi-92 catalog spec DOC-R02",
		Oracle: "Ruff D101 (top-level classes) and D106 (nested public classes), same visibility rules. " +
			"Difference: an implicitly concatenated docstring counts as present for both.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"D101", "D106"}, Exact: true},
	Finish: checkClassDocstring,
}

func checkClassDocstring(p *nfi.Pass) {
	ds := defs(p)
	for i := range ds.List {
		d := &ds.List[i]
		if d.Kind.IsClass() && d.Public && d.Doc == nil {
			reportName(p, d, "public "+describe(ds, d)+" has no docstring")
		}
	}
}
