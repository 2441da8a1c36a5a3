package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// SingletonComparison reports `==` and `!=` comparisons with None, True or
// False.
//
// Source: PEP 8 "Programming Recommendations"; Ruff E711, E712 (pycodestyle).
var SingletonComparison = &nfi.Rule{
	ID: "STY-P04", Name: "comparison-to-singleton", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "no == or != comparison to None, True or False",
		What: "In a comparison chain, an `==` or `!=` whose left or right operand (parentheses " +
			"removed) is the literal None (E711), True or False (E712). As in Ruff, the " +
			"comparison is skipped when the other operand is a constant that is not a " +
			"singleton (`1 == None`, `\"a\" != True`).",
		Why:    "PEP 8: comparisons to singletons should use `is`/`is not`; `==` calls __eq__, which may be overridden, and `== True` hides truthiness.",
		Bad:    "if result == None:\n    pass\n",
		Good:   "if result is None:\n    pass\n",
		Exempt: "comparisons between a non-singleton constant and a singleton.",
		Source: "PEP 8 (\"Comparisons to singletons like None should always be done with is or is not, never the equality operators\"); Ruff E711, E712",
		Oracle: "Ruff E711 and E712, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E711", "E712"}, Exact: true},
	Kinds:  []string{"comparison_operator"},
	Visit:  checkSingletonComparison,
}

// comparison splits a comparison_operator into its operands and operator
// kinds ("==", "not in", "is not", ...).
func comparison(t *syntax.Tree, n syntax.NodeID, opnd []syntax.NodeID, ops []string) ([]syntax.NodeID, []string) {
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		nd := &t.Nodes[c]
		switch {
		case nd.Field() == "operators":
			ops = append(ops, nd.Kind())
		case nd.Named && !nd.Extra:
			opnd = append(opnd, c)
		}
	}
	return opnd, ops
}

func isSingleton(t *syntax.Tree, n syntax.NodeID) bool {
	switch t.Kind(unparen(t, n)) {
	case "none", "true", "false":
		return true
	}
	return false
}

// isConstantNonSingleton is Ruff's is_constant_non_singleton: a literal
// string, bytes, number or ellipsis, or a tuple of constants (not an
// f-string, not a signed number).
func isConstantNonSingleton(t *syntax.Tree, n syntax.NodeID) bool {
	n = unparen(t, n)
	return isConstant(t, n) && !isSingleton(t, n)
}

func isConstant(t *syntax.Tree, n syntax.NodeID) bool {
	n = unparen(t, n)
	if n == syntax.NoNode {
		return false
	}
	switch t.Nodes[n].Kind() {
	case "integer", "float", "none", "true", "false", "ellipsis":
		return true
	case "string":
		return !isFString(t, n)
	case "concatenated_string":
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Kind() == "string" && isFString(t, c) {
				return false
			}
		}
		return true
	case "tuple":
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Named && !t.Nodes[c].Extra && !isConstant(t, c) {
				return false
			}
		}
		return true
	}
	return false
}

func checkSingletonComparison(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	var ob [4]syntax.NodeID
	var pb [4]string
	opnd, ops := comparison(t, n, ob[:0], pb[:0])
	if len(ops) == 0 || len(opnd) != len(ops)+1 {
		return
	}
	report := func(x syntax.NodeID) {
		switch t.Kind(unparen(t, x)) {
		case "none":
			p.Reportf(x, "comparison to None with ==/!=")
		case "true", "false":
			p.Reportf(x, "comparison to %s with ==/!=", t.Text(unparen(t, x)))
		}
	}
	eq := func(op string) bool { return op == "==" || op == "!=" }
	if !isConstantNonSingleton(t, opnd[1]) && eq(ops[0]) {
		report(opnd[0])
	}
	for i, op := range ops {
		if isConstantNonSingleton(t, opnd[i]) || !eq(op) {
			continue
		}
		report(opnd[i+1])
	}
}
