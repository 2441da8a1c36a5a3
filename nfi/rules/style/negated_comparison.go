package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NegatedComparison reports `not x in y` and `not x is y`.
//
// Source: PEP 8 "Programming Recommendations"; Ruff E713, E714 (pycodestyle).
var NegatedComparison = &nfi.Rule{
	ID: "STY-P10", Name: "not-in-not-is-test", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "use `not in` and `is not`, not `not x in y` / `not x is y`",
		What: "A `not` whose operand (parentheses removed) is a comparison with exactly one " +
			"operator, `in` (E713) or `is` (E714).",
		Why:    "PEP 8: `x not in y` and `x is not y` read as one operator and cannot be misread as `(not x) in y`.",
		Bad:    "if not key in table:\n    pass\n",
		Good:   "if key not in table:\n    pass\n",
		Exempt: "chained comparisons (`not a in b in c`) and other operators.",
		Source: "PEP 8 (\"Use is not operator rather than not ... is\"); Ruff E713, E714",
		Oracle: "Ruff E713 and E714, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E713", "E714"}, Exact: true},
	Kinds:  []string{"not_operator"},
	Visit:  checkNegatedComparison,
}

func checkNegatedComparison(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	arg := unparen(t, t.ChildByField(n, "argument"))
	if arg == syntax.NoNode || t.Nodes[arg].Kind() != "comparison_operator" {
		return
	}
	var ob [4]syntax.NodeID
	var pb [4]string
	_, ops := comparison(t, arg, ob[:0], pb[:0])
	if len(ops) != 1 {
		return
	}
	switch ops[0] {
	case "in":
		p.Reportf(n, "test for membership should be `not in`")
	case "is":
		p.Reportf(n, "test for object identity should be `is not`")
	}
}
