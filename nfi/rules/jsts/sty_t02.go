package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// MaxLinesPerFunction reports functions longer than the limit.
//
// Source: ESLint max-lines-per-function (default 50; blank and comment lines counted; IIFEs skipped).
var MaxLinesPerFunction = &nfi.Rule{
	ID: "JS-STY-T02", Name: "max-lines-per-function", Aspect: nfi.CodingStyle, Kind: nfi.Threshold, Languages: all,
	Limit: &nfi.Limit{Default: 50, Cmp: nfi.AtMost, Unit: "lines"},
	Doc: nfi.Doc{
		Summary: "function too long",
		What: "The lines from the first to the last line of each function (of the method or accessor, name " +
			"included, for class and object methods), blank and comment lines included; an immediately " +
			"invoked function is not measured. Fails when one exceeds the limit.",
		Why:    "A long function does several things; named smaller ones can be read and tested one by one.",
		Bad:    "function f() {\n" + repeatLine("  g();\n", 50) + "}\n",
		Good:   "function f() {\n  g();\n}\n",
		Source: "ESLint max-lines-per-function",
		Oracle: "ESLint 10.15.0 max-lines-per-function with max 50 (its default): same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"max-lines-per-function"}, ESLintOptions: `[{"max": 50}]`, Exact: true},
	Kinds:  functionKinds,
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		k := t.Kind(n)
		if k == "function_expression" || k == "arrow_function" {
			par := t.Parent(n)
			if par != syntax.NoNode && t.Kind(par) == "call_expression" && t.Node(n).Field() == "function" {
				return // an IIFE: (function () {...})() is parenthesized, see below
			}
			if par != syntax.NoNode && t.Kind(par) == "parenthesized_expression" {
				if gp := parentSkippingParens(t, n); gp != syntax.NoNode && t.Kind(gp) == "call_expression" &&
					unparen(t, t.ChildByField(gp, "function")) == n {
					return
				}
			}
			if par != syntax.NoNode && t.Kind(par) == "pair" {
				// `key: function () {}` is a Property whose value is not a method
			}
		}
		nd := t.Node(n)
		lines := int(t.Row(nd.EndByte)-t.Row(nd.StartByte)) + 1
		p.Measure(float64(lines))
		if p.Exceeds(float64(lines)) {
			p.Reportf(n, "function has too many lines (%d); maximum allowed is %v", lines, p.Limit())
		}
	},
}

func repeatLine(s string, n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += s
	}
	return out
}
