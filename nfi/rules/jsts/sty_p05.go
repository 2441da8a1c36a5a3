package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoLonelyIf reports an if that is the only statement of an else block.
//
// Source: ESLint no-lonely-if.
var NoLonelyIf = &nfi.Rule{
	ID: "JS-STY-P05", Name: "no-lonely-if", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "if as the only statement of an else block",
		What:    "An if statement that is the only statement of the block of an else (comments aside).",
		Why:     "`else { if (...) }` is `else if (...)` with one more level of nesting.",
		Bad:     "if (a) {\n  f();\n} else {\n  if (b) {\n    g();\n  }\n}\n",
		Good:    "if (a) {\n  f();\n} else if (b) {\n  g();\n}\n",
		Source:  "ESLint no-lonely-if",
		Oracle:  "ESLint 10.15.0 no-lonely-if: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-lonely-if"}, Exact: true},
	Kinds:  []string{"if_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		blk := t.Parent(n)
		if blk == syntax.NoNode || t.Kind(blk) != "statement_block" {
			return
		}
		els := t.Parent(blk)
		if els == syntax.NoNode || t.Kind(els) != "else_clause" {
			return
		}
		count := 0
		for _, c := range t.NamedChildren(blk) {
			if !t.Node(c).Extra {
				count++
			}
		}
		if count == 1 {
			p.Reportf(n, "unexpected if as the only statement in an else block")
		}
	},
}
