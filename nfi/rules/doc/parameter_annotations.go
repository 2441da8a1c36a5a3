package doc

import (
	"github.com/polynfi/polynfi/nfi"
)

// ParameterAnnotations reports def parameters without a type annotation.
//
// Source: PEP 484; Ruff ANN001, ANN002, ANN003.
var ParameterAnnotations = &nfi.Rule{
	ID: "DOC-R06", Name: "parameter-annotations", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "parameter has no type annotation",
		What: "Every parameter of every def (functions, methods, nested defs; async included; lambdas " +
			"excluded) has an annotation, `*args` and `**kwargs` included. The first non-variadic " +
			"parameter of a method that is not a `@staticmethod` (`self`, `cls`) is skipped.",
		Why:    "Annotations document what a function accepts and let type checkers catch wrong calls.",
		Bad:    "def scale(x, factor=2):\n    return x * factor\n",
		Good:   "def scale(x: float, factor: float = 2) -> float:\n    return x * factor\n",
		Exempt: "Lambdas; `self`/`cls` of methods. Names such as `_` are not exempt (Ruff's suppress-dummy-args is off by default).",
		Source: "PEP 484; SWE-IF doc_1; the polynfi-92 catalog spec DOC-R06",
		Oracle: "Ruff ANN001 (parameters), ANN002 (`*args`), ANN003 (`**kwargs`) with default settings. " +
			"Difference: Ruff skips every check of an overload implementation (a def directly following " +
			"an `@overload` def of the same name); DOC-R06 checks it, e.g. `@overload def f(x: int) -> int: ...` " +
			"then `def f(x): ...` fails DOC-R06 only.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"ANN001", "ANN002", "ANN003"}, Exact: true},
	Finish: checkParameterAnnotations,
}

func checkParameterAnnotations(p *nfi.Pass) {
	ds := defs(p)
	fps := funcParams(p)
	for i := range ds.List {
		d := &ds.List[i]
		if !d.Kind.IsFunction() {
			continue
		}
		owner := "" // describe(ds, d), built once for all its parameters
		for _, pr := range fps[i] {
			if !pr.annotated && !pr.implicit {
				if owner == "" {
					owner = describe(ds, d)
				}
				p.Report(pr.node, "parameter "+pr.stars()+pr.name+" of "+owner+" has no type annotation")
			}
		}
	}
}
