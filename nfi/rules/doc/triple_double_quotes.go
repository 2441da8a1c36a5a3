package doc

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// TripleDoubleQuotes reports docstrings not opened with `"""`.
//
// Source: PEP 257; Ruff D300.
var TripleDoubleQuotes = &nfi.Rule{
	ID: "DOC-R08", Name: "triple-double-quotes", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "docstring does not use triple double quotes",
		What: "Every docstring (module, class, function, any visibility) opens with `\"\"\"`; a prefix " +
			"such as `r` or `u` is allowed, `'''`, `'` and `\"` fail. Each part of an implicitly " +
			"concatenated docstring is checked.",
		Why:    "One quoting convention for docstrings keeps them recognisable and lets tools and readers find them; PEP 257 asks for `\"\"\"` always.",
		Bad:    "def f():\n    '''Do nothing.'''\n",
		Good:   "def f():\n    r\"\"\"Do nothing with \\d.\"\"\"\n",
		Exempt: "Files without docstrings pass; empty or whitespace-only docstrings (`''`, `' '`) are left to DOC-P01, as Ruff does.",
		Source: "PEP 257 (\"For consistency, always use \"\"\"triple double quotes\"\"\" around docstrings\"); the polynfi-92 catalog spec DOC-R08",
		Oracle: "Ruff D300 (0.17.6; checked on the seeded oracle sample, which found the empty-docstring " +
			"case of issue #18's oracle work). Differences: Ruff accepts `'''` when the docstring's body contains `\"\"\"` " +
			"(e.g. `'''Use \"\"\"x\"\"\" here.'''` passes D300 and fails DOC-R08), and Ruff skips implicitly " +
			"concatenated docstrings, which DOC-R08 checks part by part.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"D300"}, Exact: true},
	Finish: checkTripleDoubleQuotes,
}

func checkTripleDoubleQuotes(p *nfi.Pass) {
	eachDocstring(p, func(d *pyast.Def, doc *pyast.Docstring) {
		if doc.Content() == "" {
			return // an empty docstring is DOC-P01's (Ruff D419) only
		}
		for _, part := range doc.Parts {
			if part.Quote != `"""` {
				p.Reportf(part.Node, "docstring of %s opens with %s, not \"\"\"", whose(p, d), part.Prefix+part.Quote)
			}
		}
	})
}
