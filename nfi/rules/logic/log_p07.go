package logic

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NeedlessBool reports `if c: return True else: return False` and its
// variants, which return the condition itself.
//
// Source: flake8-simplify SIM103.
var NeedlessBool = &nfi.Rule{
	ID: "LOG-P07", Name: "needless-bool", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "if statement returns a boolean literal in both branches",
		What: "An `if` without `elif` whose body is exactly `return True` (or `return False`) and " +
			"whose `else` body is exactly the opposite `return`, or, with no `else`, whose next " +
			"statement in the same block is the opposite `return`.",
		Why:    "`return bool(c)` (or `return c` for a boolean condition, `return not c` for the reverse) says the same in one line.",
		Bad:    "def is_even(n):\n    if n % 2 == 0:\n        return True\n    else:\n        return False\n",
		Good:   "def is_even(n):\n    return n % 2 == 0\n",
		Exempt: "Branches that return the same literal, or anything but a literal `True`/`False`; `if` statements with `elif`.",
		Source: "flake8-simplify SIM103 (return the condition directly)",
		Oracle: "Ruff SIM103: all 598 sampled standard-library files get the same verdict. Residual " +
			"difference: Ruff also reports the last branch of an `elif` chain " +
			"(`elif c: return True\\nelse: return False`), which is exempt here as the catalog names only the if/else forms.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"SIM103"}, Exact: true},
	Kinds:  []string{"if_statement"},
	Visit:  checkNeedlessBool,
}

func checkNeedlessBool(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	body := onlyStatement(t, consequenceField.Child(t, n))
	if body == syntax.NoNode {
		return
	}
	first, ok := returnedBool(t, body)
	if !ok {
		return
	}
	var other syntax.NodeID = syntax.NoNode
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		switch t.Kind(c) {
		case "elif_clause":
			return
		case "else_clause":
			s := onlyStatement(t, bodyField.Child(t, c))
			if s == syntax.NoNode {
				return
			}
			other = s
		}
	}
	if other == syntax.NoNode {
		other = t.Nodes[n].NextSibling
		for other != syntax.NoNode && (!t.Nodes[other].Named || t.Nodes[other].Extra) {
			other = t.Nodes[other].NextSibling
		}
		if other == syntax.NoNode {
			return
		}
	}
	second, ok := returnedBool(t, other)
	if !ok || first == second {
		return
	}
	p.Reportf(n, "return the condition directly instead of an if returning True and False")
}

// returnedBool reports a `return True` / `return False` statement and its value.
func returnedBool(t *syntax.Tree, s syntax.NodeID) (value, ok bool) {
	if t.Kind(s) != "return_statement" {
		return false, false
	}
	var v syntax.NodeID = syntax.NoNode
	for c := t.Nodes[s].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Named && !t.Nodes[c].Extra {
			v = c
		}
	}
	switch t.Kind(unparen(t, v)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}
