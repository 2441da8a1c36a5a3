package jsts

import (
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoCompareNegZero reports comparisons with -0.
//
// Source: ESLint no-compare-neg-zero.
var NoCompareNegZero = &nfi.Rule{
	ID: "JS-LOG-P08", Name: "no-compare-neg-zero", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "comparison with -0",
		What:    "A comparison (`>`, `>=`, `<`, `<=`, `==`, `===`, `!=`, `!==`) with `-0` (a minus applied to a number literal of value 0).",
		Why:     "`x === -0` is true for +0 as well; Object.is(x, -0) tells them apart.",
		Bad:     "if (x === -0) {\n  f();\n}\n",
		Good:    "if (Object.is(x, -0)) {\n  f();\n}\n",
		Source:  "ESLint no-compare-neg-zero",
		Oracle:  "ESLint 10.15.0 no-compare-neg-zero: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-compare-neg-zero"}, Exact: true},
	Kinds:  []string{"binary_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		switch operator(t, n) {
		case ">", ">=", "<", "<=", "==", "===", "!=", "!==":
		default:
			return
		}
		if isNegZero(t, t.ChildByField(n, "left")) || isNegZero(t, t.ChildByField(n, "right")) {
			p.Reportf(n, "do not use the '%s' operator to compare against -0", operator(t, n))
		}
	},
}

func isNegZero(t *syntax.Tree, n syntax.NodeID) bool {
	n = unparen(t, n)
	if n == syntax.NoNode || t.Kind(n) != "unary_expression" || operator(t, n) != "-" {
		return false
	}
	a := t.ChildByField(n, "argument")
	if a == syntax.NoNode || t.Kind(a) != "number" {
		return false
	}
	s := strings.ReplaceAll(t.TextString(a), "_", "")
	if strings.HasSuffix(s, "n") {
		return false
	}
	if len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'o' || s[1] == 'O' || s[1] == 'b' || s[1] == 'B') {
		v, err := strconv.ParseInt(s[2:], map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]], 64)
		return err == nil && v == 0
	}
	v, err := strconv.ParseFloat(s, 64)
	return err == nil && v == 0
}
