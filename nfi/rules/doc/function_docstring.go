package doc

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// FunctionDocstring reports public module-level functions without a docstring.
//
// Source: PEP 257; Ruff D103.
var FunctionDocstring = &nfi.Rule{
	ID: "DOC-R04", Name: "function-docstring", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "public function has no docstring",
		What: "Every public module-level function (async included; inside a module-level `if`/`try` " +
			"too) has a docstring. Public: the name does not start with `_`, it is listed in `__all__` " +
			"when the module defines one, and the module is public.",
		Why:    "A function's docstring is its contract: what it does, what it takes and returns; callers read it instead of the body.",
		Bad:    "\"\"\"Math helpers.\"\"\"\n\n\ndef square(x):\n    return x * x\n",
		Good:   "\"\"\"Math helpers.\"\"\"\n\n\ndef square(x):\n    \"\"\"Return x squared.\"\"\"\n    return x * x\n\n\ndef _cube(x):\n    return x ** 3\n",
		Exempt: "`@typing.overload` stubs, private functions, functions not in `__all__`, nested functions (always private), functions of a private module.",
		Source: "PEP 257; the polynfi-92 catalog spec DOC-R04",
		Oracle: "Ruff D103. Difference: an implicitly concatenated docstring counts as present for both.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"D103"}, Exact: true},
	Finish: checkFunctionDocstring,
}

func checkFunctionDocstring(p *nfi.Pass) {
	ds := defs(p)
	for i := range ds.List {
		d := &ds.List[i]
		if d.Kind == pyast.FunctionDef && d.Public && d.Doc == nil && !d.Overload {
			reportName(p, d, "public "+describe(ds, d)+" has no docstring")
		}
	}
}
