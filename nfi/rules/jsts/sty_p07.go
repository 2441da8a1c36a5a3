package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoLabels reports labeled statements and the break/continue that use them.
//
// Source: ESLint no-labels (allowLoop false, allowSwitch false).
var NoLabels = &nfi.Rule{
	ID: "JS-STY-P07", Name: "no-labels", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "labeled statement",
		What:    "A labeled statement, and a break or continue naming a label.",
		Why:     "Labels are gotos in disguise; a helper function with return says the same plainly.",
		Bad:     "outer: for (const a of xs) {\n  for (const b of a) {\n    if (b) {\n      break outer;\n    }\n  }\n}\n",
		Good:    "for (const a of xs) {\n  if (a.some(Boolean)) {\n    break;\n  }\n}\n",
		Source:  "ESLint no-labels",
		Oracle:  "ESLint 10.15.0 no-labels with its defaults: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-labels"}, Exact: true},
	Kinds:  []string{"labeled_statement", "break_statement", "continue_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if t.Kind(n) == "labeled_statement" || t.ChildByField(n, "label") != syntax.NoNode {
			p.Reportf(n, "unexpected label")
		}
	},
}
