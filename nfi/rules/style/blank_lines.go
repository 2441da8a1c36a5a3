package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// BlankLines reports runs of blank lines longer than PEP 8 allows.
//
// Source: PEP 8 "Blank Lines"; pycodestyle E303; Ruff E303 (preview).
var BlankLines = &nfi.Rule{
	ID: "STY-T07", Name: "too-many-blank-lines", Aspect: nfi.CodingStyle, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 2, Cmp: nfi.AtMost, Unit: "blank lines"},
	Doc: nfi.Doc{
		Summary: "at most 2 consecutive blank lines, 1 inside indented code",
		What: "Before every statement or comment line (outside brackets and strings), the run of " +
			"blank lines directly above it is at most the limit (2), and at most limit−1 (1) " +
			"when the line is indented (E303). Blank lines inside brackets or strings and at " +
			"the end of the file do not count. The measured value is the longest run.",
		Why:    "PEP 8: two blank lines around top-level definitions, one around methods, and blank lines used sparingly otherwise.",
		Bad:    "import os\n\n\n\nx = os.sep\n",
		Good:   "import os\n\n\nx = os.sep\n",
		Exempt: "trailing blank lines at the end of the file (W391, another check).",
		Source: "PEP 8 (\"Surround top-level function and class definitions with two blank lines\"; \"Use blank lines in functions, sparingly\"); pycodestyle E303",
		Oracle: "Ruff E303 (--preview), same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E303"}, Preview: true, Exact: true},
	Finish: checkBlankLines,
}

func checkBlankLines(p *nfi.Pass) {
	ls := p.Module.Lines()
	limit := int(p.Limit())
	run, longest := 0, 0
	for i := range ls.List {
		l := &ls.List[i]
		if l.Has(pyast.Blank) && !l.Has(pyast.Continuation) {
			run++
			continue
		}
		if l.Flags&(pyast.LogicalStart|pyast.CommentOnly) != 0 && !l.Has(pyast.Continuation) {
			longest = max(longest, run)
			allowed := limit
			if l.Indent > 0 {
				allowed = limit - 1
			}
			if run > allowed {
				p.ReportAtf(i+1, int(l.Indent)+1, "%d blank lines before this line (> %d)", run, allowed)
			}
		}
		run = 0
	}
	p.Measure(float64(longest))
}
