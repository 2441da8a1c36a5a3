package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// AvoidDeeplyNestedIfStmts reports if statements nested 3 deep.
//
// Source: PMD design/AvoidDeeplyNestedIfStmts (problemDepth 3).
var AvoidDeeplyNestedIfStmts = &nfi.Rule{
	ID: "JAVA-STY-T04", Name: "avoid-deeply-nested-if-stmts", Aspect: nfi.CodingStyle, Kind: nfi.Threshold, Languages: java,
	Limit: &nfi.Limit{Default: 2, Cmp: nfi.AtMost, Unit: "levels"},
	Doc: nfi.Doc{
		Summary: "if statements nested too deep",
		What: "The nesting depth of if statements without an else (an if counts one level for itself and each " +
			"enclosing if without an else, up to the enclosing method). Fails when one exceeds the limit (PMD's " +
			"problemDepth 3 is a limit of 2).",
		Why:    "Deep nesting hides which conditions hold where; guard clauses flatten it.",
		Bad:    "class A {\n  void f(boolean a, boolean b, boolean c) {\n    if (a) {\n      if (b) {\n        if (c) {\n          g();\n        }\n      }\n    }\n  }\n  void g() {}\n}\n",
		Good:   "class A {\n  void f(boolean a, boolean b, boolean c) {\n    if (a && b && c) {\n      g();\n    }\n  }\n  void g() {}\n}\n",
		Source: "PMD design/AvoidDeeplyNestedIfStmts",
		Oracle: "PMD 7.27.0 AvoidDeeplyNestedIfStmts with problemDepth 3.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/design.xml/AvoidDeeplyNestedIfStmts"}},
	Kinds:  []string{"if_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		// depths of the if statements seen (preorder: every enclosing if
		// before n), so that the walk up stops at the nearest one and a
		// deeply nested file costs linear time
		depths, _ := p.State.(map[syntax.NodeID]int)
		if depths == nil {
			depths = map[syntax.NodeID]int{}
			p.State = depths
		}
		depth := 0
		for a := t.Parent(n); a != syntax.NoNode && !isBoundary(t.Kind(a)); a = t.Parent(a) {
			if t.Kind(a) == "if_statement" {
				depth = depths[a]
				break
			}
		}
		if t.ChildByField(n, "alternative") != syntax.NoNode {
			depths[n] = depth
			return
		}
		depth++
		depths[n] = depth
		p.Measure(float64(depth))
		if p.Exceeds(float64(depth)) {
			p.Reportf(n, "deeply nested if..then statements are hard to read")
		}
	},
}
