package errh

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// HandlersPerTry reports try statements with many except clauses.
//
// Source: SWE-NFI (handlers per try); custom threshold.
var HandlersPerTry = &nfi.Rule{
	ID: "ERR-T02", Name: "handlers-per-try", Aspect: nfi.ErrorHandling, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 3, Cmp: nfi.AtMost, Unit: "handlers"},
	Doc: nfi.Doc{
		Summary: "try statement has too many except clauses",
		What: "The number of `except`/`except*` clauses of each `try` statement (`else` and " +
			"`finally` not counted) must be at most the limit (default 3). The measured value is " +
			"the maximum over the file.",
		Why: "A long chain of handlers usually means the try body does too many things, or that " +
			"the exception classes should share a base class.",
		Bad: "try:\n    run()\nexcept KeyError:\n    a()\nexcept ValueError:\n    b()\n" +
			"except TypeError:\n    c()\nexcept OSError:\n    d()\n",
		Good:   "try:\n    run()\nexcept (KeyError, ValueError):\n    a()\nexcept OSError:\n    d()\n",
		Exempt: "Files without try statements pass.",
		Source: "SWE-NFI handlers-per-try threshold (custom)",
		Oracle: "custom (no Ruff rule)",
	},
	Kinds: []string{"try_statement"},
	Visit: checkHandlersPerTry,
}

func checkHandlersPerTry(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	count := 0
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		switch t.Nodes[c].Kind() {
		case "except_clause", "except_group_clause":
			count++
		}
	}
	p.Measure(float64(count))
	if p.Exceeds(float64(count)) {
		p.Reportf(n, "try statement has %d except clauses (> %g)", count, p.Limit())
	}
}
