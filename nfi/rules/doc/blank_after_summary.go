package doc

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// BlankAfterSummary reports multi-line docstrings whose second content line
// is not blank.
//
// Source: PEP 257; Ruff D205.
var BlankAfterSummary = &nfi.Rule{
	ID: "DOC-R10", Name: "blank-line-after-summary", Aspect: nfi.Documentation, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "no blank line between docstring summary and description",
		What: "In every docstring whose stripped content has two or more non-blank lines, line 2 of " +
			"the stripped content is blank (only whitespace).",
		Why:    "The blank line separates the one-line summary from the description, so tools (and readers) can tell them apart.",
		Bad:    "def f():\n    \"\"\"Return the answer.\n    It is always 42.\n    \"\"\"\n    return 42\n",
		Good:   "def f():\n    \"\"\"Return the answer.\n\n    It is always 42.\n    \"\"\"\n    return 42\n",
		Exempt: "One-line docstrings and empty ones.",
		Source: "PEP 257 (\"a summary line just like a one-line docstring, followed by a blank line\"); the polynfi-92 catalog spec DOC-R10",
		Oracle: "Ruff D205. Differences: D205 also requires exactly one blank line (two blank lines " +
			"after the summary fail D205, pass DOC-R10), ignores docstrings that are not triple-quoted, and " +
			"skips implicitly concatenated docstrings.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"D205"}, Exact: true},
	Finish: checkBlankAfterSummary,
}

func checkBlankAfterSummary(p *nfi.Pass) {
	eachDocstring(p, func(d *pyast.Def, doc *pyast.Docstring) {
		if second, ok := secondLine(doc.Content()); !ok || strings.TrimSpace(second) == "" {
			return
		}
		p.Reportf(doc.Node, "docstring of %s has no blank line after its summary line", whose(p, d))
	})
}

// secondLine returns the second line of s, split as pyast.SplitLines splits
// ("\n", "\r\n" or "\r"), and false when s has a single line; without
// splitting the rest of a long docstring.
func secondLine(s string) (string, bool) {
	i := strings.IndexAny(s, "\r\n")
	if i < 0 {
		return "", false
	}
	if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
		i++
	}
	s = s[i+1:]
	if j := strings.IndexAny(s, "\r\n"); j >= 0 {
		s = s[:j]
	}
	return s, true
}
