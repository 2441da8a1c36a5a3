package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// MaxStatements reports functions with more statements than the limit.
//
// Source: ESLint max-statements (default maximum 10).
var MaxStatements = &nfi.Rule{
	ID: "JS-STY-T03", Name: "max-statements", Aspect: nfi.CodingStyle, Kind: nfi.Threshold, Languages: all,
	Limit: &nfi.Limit{Default: 10, Cmp: nfi.AtMost, Unit: "statements"},
	Doc: nfi.Doc{
		Summary: "too many statements in a function",
		What: "The statements of the blocks of each function (its body and every block nested in it, but not " +
			"those of nested functions). Fails when one exceeds the limit.",
		Why:    "A function of many statements does many things.",
		Bad:    "function f() {\n" + repeatLine("  g();\n", 11) + "}\n",
		Good:   "function f() {\n  g();\n}\n",
		Source: "ESLint max-statements",
		Oracle: "ESLint 10.15.0 max-statements with maximum 10 (its default): same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"max-statements"}, ESLintOptions: "[10]", Exact: true},
	Kinds:  functionKinds,
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		body := t.ChildByField(n, "body")
		if body == syntax.NoNode || t.Kind(body) != "statement_block" {
			return
		}
		count := 0
		end := t.Node(body).End
		for i := body; i < end; i++ {
			nd := t.Node(i)
			k := nd.Kind()
			if i != body && (isFunction(k) || k == "class_static_block" || k == "class_body") {
				i = nd.End - 1
				continue
			}
			if k == "statement_block" {
				par := t.Parent(i)
				if pk := t.Kind(par); i != body && (pk == "internal_module" || pk == "module") {
					continue
				}
				for c := nd.FirstChild; c != syntax.NoNode; c = t.Node(c).NextSibling {
					if cn := t.Node(c); cn.Named && !cn.Extra {
						count++
					}
				}
			}
		}
		p.Measure(float64(count))
		if p.Exceeds(float64(count)) {
			p.Reportf(n, "function has too many statements (%d); maximum allowed is %v", count, p.Limit())
		}
	},
}
