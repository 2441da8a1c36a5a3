package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// ExcessiveParameterList reports methods and constructors with 10 or more
// parameters.
//
// Source: PMD design/ExcessiveParameterList (minimum 10).
var ExcessiveParameterList = &nfi.Rule{
	ID: "JAVA-STY-T02", Name: "excessive-parameter-list", Aspect: nfi.CodingStyle, Kind: nfi.Threshold, Languages: java,
	Limit: &nfi.Limit{Default: 9, Cmp: nfi.AtMost, Unit: "parameters"},
	Doc: nfi.Doc{
		Summary: "too many parameters",
		What: "The number of formal parameters of each method and constructor (a receiver parameter not counted, " +
			"varargs counted). Fails when one exceeds the limit (PMD's minimum 10 is a limit of 9).",
		Why:    "Long parameter lists are called with arguments in the wrong order; a parameter object names them.",
		Bad:    "class A {\n  void f(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j) {\n  }\n}\n",
		Good:   "class A {\n  void f(int a, int b) {\n  }\n}\n",
		Source: "PMD design/ExcessiveParameterList",
		Oracle: "PMD 7.27.0 ExcessiveParameterList with minimum 10.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/design.xml/ExcessiveParameterList"}, Exact: true},
	Kinds:  []string{"method_declaration", "constructor_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		params := t.ChildByField(n, "parameters")
		if params == syntax.NoNode {
			return
		}
		count := 0
		for _, c := range t.NamedChildren(params) {
			if k := t.Kind(c); k == "formal_parameter" || k == "spread_parameter" {
				count++
			}
		}
		p.Measure(float64(count))
		if p.Exceeds(float64(count)) {
			p.Reportf(params, "avoid long parameter lists (%d parameters)", count)
		}
	},
}
