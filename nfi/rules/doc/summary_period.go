package doc

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// SummaryPeriod reports docstrings whose summary line does not end with a
// period.
//
// Source: PEP 257; Ruff D400.
var SummaryPeriod = &nfi.Rule{
	ID: "DOC-R09", Name: "summary-period", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "docstring summary line does not end with a period",
		What: "For every non-empty docstring, the first non-blank line of its content, right-stripped, " +
			"ends with `.` (`?` and `!` do not count).",
		Why:    "PEP 257 asks for a summary that is a phrase ending in a period; tools that show only the first line rely on it being a complete sentence.",
		Bad:    "def f():\n    \"\"\"Return the answer\"\"\"\n    return 42\n",
		Good:   "def f():\n    \"\"\"Return the answer.\"\"\"\n    return 42\n",
		Exempt: "Empty docstrings (DOC-P01 reports them).",
		Source: "PEP 257 (\"The docstring is a phrase ending in a period\"); the polynfi-92 catalog spec DOC-R09",
		Oracle: "Ruff D400. Differences: Ruff passes a summary whose first line is a section header or " +
			"field (`Args:`, `:param x:`), one that wraps onto more lines when the last line of the first " +
			"paragraph ends with `.` (`\"\"\"Return the\\n    answer.\"\"\"` passes D400, fails DOC-R09), one " +
			"whose summary line ends in a backslash continuation, and skips implicitly concatenated docstrings. " +
			"Not marked exact: the catalog checks the first line, and wrapped summaries make the per-file " +
			"verdicts agree on only 91.6% of the Python 3.11 standard library.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"D400"}, Exact: false},
	Finish: checkSummaryPeriod,
}

func checkSummaryPeriod(p *nfi.Pass) {
	eachDocstring(p, func(d *pyast.Def, doc *pyast.Docstring) {
		s := strings.TrimRightFunc(doc.Summary(), isSpace)
		if s != "" && !strings.HasSuffix(s, ".") {
			p.Reportf(doc.Node, "summary line of the docstring of %s does not end with a period", whose(p, d))
		}
	})
}
