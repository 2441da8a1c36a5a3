package doc

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// ReturnAnnotations reports defs without a return annotation.
//
// Source: PEP 484; Ruff ANN201, ANN202, ANN204, ANN205, ANN206.
var ReturnAnnotations = &nfi.Rule{
	ID: "DOC-R07", Name: "return-annotations", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "def has no return type annotation",
		What: "Every def (functions, methods, nested defs; async included) has a return annotation " +
			"`-> T`, `__init__` included (`-> None`).",
		Why:    "The return annotation documents what callers get back and lets type checkers verify its use.",
		Bad:    "class Box:\n    def __init__(self, size: int):\n        self.size = size\n",
		Good:   "class Box:\n    def __init__(self, size: int) -> None:\n        self.size = size\n",
		Exempt: "Lambdas. `__init__` is not exempt (Ruff's mypy-init-return is off by default).",
		Source: "PEP 484; SWE-IF doc_1; the polynfi-92 catalog spec DOC-R07",
		Oracle: "Ruff ANN201 (public), ANN202 (private), ANN204 (special methods), ANN205 (staticmethod), " +
			"ANN206 (classmethod) with default settings. Difference: Ruff skips an overload implementation " +
			"(a def directly following an `@overload` def of the same name); DOC-R07 checks it.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"ANN201", "ANN202", "ANN204", "ANN205", "ANN206"}, Exact: true},
	Finish: checkReturnAnnotations,
}

func checkReturnAnnotations(p *nfi.Pass) {
	ds := defs(p)
	for i := range ds.List {
		d := &ds.List[i]
		if d.Kind.IsFunction() && returnTypeField.Child(p.Tree, d.Node) == syntax.NoNode {
			reportName(p, d, describe(ds, d)+" has no return type annotation")
		}
	}
}
