package doc

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// OneLineDocstring reports one-line docstrings spread over several physical
// lines.
//
// Source: PEP 257; Ruff D200.
var OneLineDocstring = &nfi.Rule{
	ID: "DOC-R11", Name: "one-line-docstring", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "one-line docstring does not fit on one line",
		What: "A docstring whose stripped content is a single (non-empty) line has its opening and " +
			"closing quotes on the same physical line.",
		Why:    "PEP 257: one-liners are for really obvious cases and should fit on one line; the extra lines add nothing.",
		Bad:    "def f():\n    \"\"\"\n    Return the answer.\n    \"\"\"\n    return 42\n",
		Good:   "def f():\n    \"\"\"Return the answer.\"\"\"\n    return 42\n",
		Exempt: "Empty docstrings and docstrings with two or more content lines.",
		Source: "PEP 257 (\"The closing quotes are on the same line as the opening quotes\"); the polynfi-92 catalog spec DOC-R11",
		Oracle: "Ruff D200. Difference: Ruff skips implicitly concatenated docstrings (`\"a\"\\n    \"b\"` " +
			"spans two lines and fails DOC-R11 only).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"D200"}, Exact: true},
	Finish: checkOneLineDocstring,
}

func checkOneLineDocstring(p *nfi.Pass) {
	eachDocstring(p, func(d *pyast.Def, doc *pyast.Docstring) {
		c := doc.Content()
		if c == "" || strings.ContainsAny(c, "\r\n") || doc.StartLine() == doc.EndLine() {
			return
		}
		p.Reportf(doc.Node, "one-line docstring of %s spans lines %d-%d", whose(p, d), doc.StartLine(), doc.EndLine())
	})
}
