package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// MaxParams reports functions with more parameters than the limit.
//
// Source: ESLint max-params (default maximum 3).
var MaxParams = &nfi.Rule{
	ID: "JS-STY-T01", Name: "max-params", Aspect: nfi.CodingStyle, Kind: nfi.Threshold, Languages: all,
	Limit: &nfi.Limit{Default: 3, Cmp: nfi.AtMost, Unit: "parameters"},
	Doc: nfi.Doc{
		Summary: "too many parameters",
		What:    "The number of parameters of each function (rest parameter and TypeScript `this` parameter included). Fails when one exceeds the limit.",
		Why:     "Past three positional parameters callers mix them up; an options object names them.",
		Bad:     "function draw(x, y, w, h) {\n  return [x, y, w, h];\n}\n",
		Good:    "function draw({ x, y, w, h }) {\n  return [x, y, w, h];\n}\n",
		Exempt:  "Function signatures without a body (overloads, declare, abstract, interfaces).",
		Source:  "ESLint max-params",
		Oracle: "ESLint 10.15.0 max-params with maximum 3 (its default), not exact: on .d.ts files ESLint also " +
			"counts the parameters of declarations without a body, which this rule exempts (agreement 98.2% " +
			"on the oracle corpus).",
	},
	Oracle: nfi.Oracle{ESLint: []string{"max-params"}, ESLintOptions: "[3]"},
	Kinds:  functionKinds,
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		params := t.ChildByField(n, "parameters")
		count := 0
		if params == syntax.NoNode {
			if t.ChildByField(n, "parameter") != syntax.NoNode {
				count = 1 // x => ...
			}
		} else {
			for _, c := range t.NamedChildren(params) {
				if !t.Node(c).Extra {
					count++
				}
			}
		}
		p.Measure(float64(count))
		if p.Exceeds(float64(count)) {
			p.Reportf(n, "function has too many parameters (%d); maximum allowed is %v", count, p.Limit())
		}
	},
}
