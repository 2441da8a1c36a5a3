package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoDuplicateCase reports a `case` whose test repeats an earlier case's.
//
// Source: ESLint no-duplicate-case.
var NoDuplicateCase = &nfi.Rule{
	ID: "JS-LOG-P04", Name: "no-duplicate-case", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "duplicate case label",
		What:    "A `case` of a switch whose test is token for token the test of an earlier case of the same switch.",
		Why:     "The second case can never be reached: a copy-paste slip.",
		Bad:     "switch (x) {\n  case 1:\n    f();\n    break;\n  case 1:\n    g();\n}\n",
		Good:    "switch (x) {\n  case 1:\n    f();\n    break;\n  case 2:\n    g();\n}\n",
		Source:  "ESLint no-duplicate-case",
		Oracle: "ESLint 10.15.0 no-duplicate-case, not exact: polynfi fails 2 of 649 corpus files that ESLint " +
			"passes (tests equal as text but not as ESLint compares them; not yet analysed).",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-duplicate-case"}},
	Kinds:  []string{"switch_body"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		seen := map[string]bool{}
		for _, c := range t.NamedChildren(n) {
			if t.Kind(c) != "switch_case" {
				continue
			}
			v := unparen(t, t.ChildByField(c, "value"))
			if v == syntax.NoNode {
				continue
			}
			k := string(tokensText(t, v))
			if seen[k] {
				p.Reportf(c, "duplicate case label")
			}
			seen[k] = true
		}
	},
}
