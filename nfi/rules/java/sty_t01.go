package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// MethodLength reports methods and constructors longer than 150 lines.
//
// Source: Checkstyle MethodLength (max 150, countEmpty true).
var MethodLength = &nfi.Rule{
	ID: "JAVA-STY-T01", Name: "method-length", Aspect: nfi.CodingStyle, Kind: nfi.Threshold, Languages: java,
	Limit: &nfi.Limit{Default: 150, Cmp: nfi.AtMost, Unit: "lines"},
	Doc: nfi.Doc{
		Summary: "method too long",
		What: "The lines of each method, constructor and compact constructor body, from the line of its `{` to the " +
			"line of its `}` inclusive, blank and comment lines counted. Fails when one exceeds the limit.",
		Why:    "A long method does several things; it is hard to name, test and review.",
		Bad:    "class A {\n  void f() {\n" + repeatLine("    g();\n", 150) + "  }\n  void g() {}\n}\n",
		Good:   "class A {\n  void f() {\n    g();\n  }\n  void g() {}\n}\n",
		Source: "Checkstyle MethodLength",
		Oracle: "Checkstyle 12.3.1 MethodLength with max 150 and countEmpty true.",
	},
	Oracle: nfi.Oracle{Checkstyle: []string{"MethodLength"}, Exact: true},
	Kinds:  []string{"method_declaration", "constructor_declaration", "compact_constructor_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		body := t.ChildByField(n, "body")
		if body == syntax.NoNode {
			return
		}
		sr, _ := t.StartPoint(body)
		er, _ := t.EndPoint(body)
		lines := float64(er - sr + 1)
		p.Measure(lines)
		if p.Exceeds(lines) {
			p.Reportf(t.ChildByField(n, "name"), "method length is %d lines (max allowed is %v)", int(lines), p.Limit())
		}
	},
}

// repeatLine returns line n times (for Doc examples).
func repeatLine(line string, n int) string {
	out := make([]byte, 0, len(line)*n)
	for range n {
		out = append(out, line...)
	}
	return string(out)
}
