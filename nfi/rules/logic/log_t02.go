package logic

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/metrics"
	"github.com/polynfi/polynfi/syntax"
)

// NestingDepth reports functions whose compound statements nest deeper
// than the limit.
//
// Source: Tufts CS 40 coding standards; SciTools Understand "MaxNesting"; pylint R1702.
var NestingDepth = &nfi.Rule{
	ID: "LOG-T02", Name: "nesting-depth", Aspect: nfi.LogicPatterns, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 3, Cmp: nfi.AtMost, Unit: "levels"},
	Doc: nfi.Doc{
		Summary: "compound statements nested too deeply in a function",
		What: "Inside each def, the largest number of `if`, `for`, `while`, `try`, `with` and " +
			"`match` statements (async forms included) enclosing one another " +
			"(nfi/metrics.NestingDepth). `elif`, `else`, `except`, `finally` and `case` clauses do " +
			"not add a level. Depth restarts at 0 in each nested def. Reported at the statement " +
			"that reaches the deepest level.",
		Why:    "Each level of nesting is another condition the reader has to keep in mind; guard clauses and helper functions flatten it.",
		Bad:    "def scan(rows):\n    for row in rows:\n        if row:\n            for cell in row:\n                if cell:\n                    print(cell)\n",
		Good:   "def scan(rows):\n    for row in rows:\n        for cell in row or ():\n            if cell:\n                print(cell)\n",
		Exempt: "Module-level and class-level code (only def bodies are measured).",
		Source: "Tufts CS 40 coding standards; SciTools Understand \"Nesting\"; polynfi catalog decision 14",
		Oracle: "Ruff PLR1702 (preview, max-nested-blocks) differs by design: Ruff carries the depth of " +
			"enclosing blocks into nested defs and does not count `match`; " +
			"`def f():\\n    for a in b:\\n        def g():\\n            if a: ...` has depth 1 in g here.",
	},
	Kinds: []string{"function_definition"},
	Visit: checkNesting,
}

func checkNesting(p *nfi.Pass, n syntax.NodeID) {
	d, at := metrics.NestingDepth(p.Tree, n)
	p.Measure(float64(d))
	if p.Exceeds(float64(d)) {
		p.Reportf(at, "function %s nests blocks %d deep (> %g)", funcName(p.Tree, n), d, p.Limit())
	}
}
