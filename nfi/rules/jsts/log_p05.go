package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoSparseArrays reports array literals with holes.
//
// Source: ESLint no-sparse-arrays.
var NoSparseArrays = &nfi.Rule{
	ID: "JS-LOG-P05", Name: "no-sparse-arrays", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "sparse array literal",
		What:    "An array literal with an empty slot: two commas in a row, or a comma right after `[`.",
		Why:     "`[1, , 2]` has a hole that array methods skip; usually a stray comma.",
		Bad:     "const a = [1, , 2];\n",
		Good:    "const a = [1, undefined, 2];\n",
		Exempt:  "Array destructuring patterns (`const [, b] = xs`), which are not array literals.",
		Source:  "ESLint no-sparse-arrays",
		Oracle:  "ESLint 10.15.0 no-sparse-arrays: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-sparse-arrays"}, Exact: true},
	Kinds:  []string{"array"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		prev := ""
		for _, c := range t.Children(n) {
			k := t.Kind(c)
			if t.Node(c).Extra {
				continue
			}
			if k == "," && (prev == "," || prev == "[") {
				p.Reportf(n, "unexpected comma in middle of array")
				return
			}
			prev = k
		}
	},
}
