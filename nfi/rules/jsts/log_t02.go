package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// MaxDepth reports blocks nested deeper than the limit.
//
// Source: ESLint max-depth (default maximum 4).
var MaxDepth = &nfi.Rule{
	ID: "JS-LOG-T02", Name: "max-depth", Aspect: nfi.LogicPatterns, Kind: nfi.Threshold, Languages: all,
	Limit: &nfi.Limit{Default: 4, Cmp: nfi.AtMost, Unit: "levels"},
	Doc: nfi.Doc{
		Summary: "blocks nested too deeply",
		What: "The nesting depth of if (an else-if counts as its if), switch, try, do-while, while, with, for, " +
			"for-in and for-of statements within one function, class static block or the file's top level. " +
			"Fails at each statement deeper than the limit.",
		Why:    "Deep nesting hides which condition a line runs under; early returns and helpers flatten it.",
		Bad:    "function f(a) {\n  if (a) {\n    for (;;) {\n      while (a) {\n        if (a) {\n          if (a) {\n            g();\n          }\n        }\n      }\n    }\n  }\n}\n",
		Good:   "function f(a) {\n  if (!a) {\n    return;\n  }\n  g();\n}\n",
		Source: "ESLint max-depth",
		Oracle: "ESLint 10.15.0 max-depth with maximum 4 (its default): same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"max-depth"}, ESLintOptions: "[4]", Exact: true},
	Kinds: []string{"if_statement", "switch_statement", "try_statement", "do_statement", "while_statement",
		"with_statement", "for_statement", "for_in_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		depths, _ := p.State.(map[syntax.NodeID]int)
		if depths == nil {
			depths = map[syntax.NodeID]int{}
			p.State = depths
		}
		if isElseIf(t, n) {
			depths[n] = depths[parentIf(t, n)]
			return
		}
		d := 1
		for a := t.Parent(n); a != syntax.NoNode; a = t.Parent(a) {
			k := t.Kind(a)
			if isFunction(k) || k == "class_static_block" {
				break
			}
			if v, ok := depths[a]; ok {
				d = v + 1
				break
			}
		}
		depths[n] = d
		p.Measure(float64(d))
		if p.Exceeds(float64(d)) {
			p.Reportf(n, "blocks are nested too deeply (%d); maximum allowed is %v", d, p.Limit())
		}
	},
}

// isElseIf reports an if statement that is the else branch of an if.
func isElseIf(t *syntax.Tree, n syntax.NodeID) bool {
	par := t.Parent(n)
	return t.Kind(n) == "if_statement" && par != syntax.NoNode && t.Kind(par) == "else_clause"
}

func parentIf(t *syntax.Tree, n syntax.NodeID) syntax.NodeID { return t.Parent(t.Parent(n)) }
