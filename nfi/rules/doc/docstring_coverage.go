package doc

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// DocstringCoverage measures the share of public definitions that have a
// docstring.
//
// Source: PEP 257; interrogate --fail-under 80.
var DocstringCoverage = &nfi.Rule{
	ID: "DOC-T01", Name: "docstring-coverage", Aspect: nfi.Documentation, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 0.80, Cmp: nfi.AtLeast, Unit: "ratio"},
	Doc: nfi.Doc{
		Summary: "docstring coverage below the limit",
		What: "Coverage = documented / documentable, where documentable is the module (when it is " +
			"public and has at least one statement) plus every public class, function and method " +
			"(visibility as in DOC-R02..R04: `_` names, names outside `__all__`, setters/deleters, nested " +
			"functions and everything in a private module are private); `@typing.overload` stubs are not " +
			"counted. An implicitly concatenated docstring counts as present. The file passes when " +
			"coverage >= the limit (default 0.80).",
		Why:    "Coverage summarises how much of a file's public interface is explained; a low value means readers must reverse-engineer it.",
		Bad:    "\"\"\"Shapes.\"\"\"\n\n\ndef area(r):\n    return 3.14 * r * r\n\n\ndef perimeter(r):\n    return 6.28 * r\n",
		Good:   "\"\"\"Shapes.\"\"\"\n\n\ndef area(r):\n    \"\"\"Return the area.\"\"\"\n    return 3.14 * r * r\n\n\ndef _perimeter(r):\n    return 6.28 * r\n",
		Exempt: "A file with nothing documentable (empty, private module) has coverage 1.0 and passes.",
		Source: "PEP 257; SWE-NFI (docstring coverage example); interrogate; the polynfi-92 catalog spec DOC-T01 and Decision 5",
		Oracle: "No Ruff equivalent. interrogate also counts private and nested definitions and magic methods by default.",
	},
	Finish: checkDocstringCoverage,
}

func checkDocstringCoverage(p *nfi.Pass) {
	ds := defs(p)
	total, documented := 0, 0
	for i := range ds.List {
		d := &ds.List[i]
		if !d.Public || d.Overload {
			continue
		}
		if d.Kind == pyast.ModuleDef && p.Tree.FirstNamedChild(0) == syntax.NoNode {
			continue
		}
		total++
		if d.Doc != nil {
			documented++
		}
	}
	cov := 1.0
	if total > 0 {
		cov = float64(documented) / float64(total)
	}
	p.Measure(cov)
	if p.Exceeds(cov) {
		p.ReportAtf(1, 1, "docstring coverage is %.2f (%d of %d public definitions documented; < %.2f)",
			cov, documented, total, p.Limit())
	}
}
