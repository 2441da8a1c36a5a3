package doc

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// TypeHintCoverage measures the share of annotated parameter and return
// slots.
//
// Source: PEP 484; mypy --html-report / typecov.
var TypeHintCoverage = &nfi.Rule{
	ID: "DOC-T02", Name: "type-hint-coverage", Aspect: nfi.Documentation, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 0.80, Cmp: nfi.AtLeast, Unit: "ratio"},
	Doc: nfi.Doc{
		Summary: "type-hint coverage below the limit",
		What: "Coverage = annotated slots / slots over every def of the file (methods and nested defs " +
			"included, lambdas excluded). Slots: each parameter, `*args` and `**kwargs` included, except " +
			"the first non-variadic parameter of a method that is not a `@staticmethod` (`self`/`cls`, as " +
			"in DOC-R06), plus one return slot per def. The file passes when coverage >= the limit " +
			"(default 0.80).",
		Why:    "Partial annotations give type checkers little to work with; coverage shows how much of the interface is typed.",
		Bad:    "def scale(x, factor):\n    return x * factor\n",
		Good:   "def scale(x: float, factor: float) -> float:\n    return x * factor\n",
		Exempt: "A file without defs has coverage 1.0 and passes.",
		Source: "PEP 484; SWE-NFI (type-hint coverage example); the polynfi-92 catalog spec DOC-T02",
		Oracle: "No Ruff equivalent (ANN rules are binary); mypy's --html-report line precision and typecov measure related ratios.",
	},
	Finish: checkTypeHintCoverage,
}

func checkTypeHintCoverage(p *nfi.Pass) {
	ds := defs(p)
	fps := funcParams(p)
	total, annotated := 0, 0
	for i := range ds.List {
		d := &ds.List[i]
		if !d.Kind.IsFunction() {
			continue
		}
		for _, pr := range fps[i] {
			if pr.implicit {
				continue
			}
			total++
			if pr.annotated {
				annotated++
			}
		}
		total++
		if returnTypeField.Child(p.Tree, d.Node) != syntax.NoNode {
			annotated++
		}
	}
	cov := 1.0
	if total > 0 {
		cov = float64(annotated) / float64(total)
	}
	p.Measure(cov)
	if p.Exceeds(cov) {
		p.ReportAtf(1, 1, "type-hint coverage is %.2f (%d of %d parameter and return slots annotated; < %.2f)",
			cov, annotated, total, p.Limit())
	}
}
