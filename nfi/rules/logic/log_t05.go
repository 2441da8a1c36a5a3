package logic

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// TooManyBooleanOperands reports conditions with too many and/or operands.
//
// Source: pylint R0916 too-many-boolean-expressions; Ruff PLR0916.
var TooManyBooleanOperands = &nfi.Rule{
	ID: "LOG-T05", Name: "too-many-boolean-operands", Aspect: nfi.LogicPatterns, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 5, Cmp: nfi.AtMost, Unit: "operands"},
	Doc: nfi.Doc{
		Summary: "condition has too many boolean operands",
		What: "For each `if`/`elif`/`while` condition and conditional-expression test, the number of " +
			"leaf operands of its `and`/`or` tree (parentheses do not stop the tree; `not x` is one leaf).",
		Why:    "A long chain of and/or is hard to read and to get right; name its parts or split it.",
		Bad:    "if a and b and c or d and e and f:\n    pass\n",
		Good:   "ready = a and b and c\nif ready or (d and e):\n    pass\n",
		Exempt: "Boolean expressions outside conditions (assignments, returns).",
		Source: "pylint R0916 too-many-boolean-expressions (max-bool-expr=5)",
		Oracle: "Ruff PLR0916 (preview) checks only `if`/`elif` statement tests; ternary and `while` tests are measured here too.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PLR0916"}, Preview: true, RuffLimit: "lint.pylint.max-bool-expr"},
	Kinds:  []string{"if_statement", "elif_clause", "while_statement", "conditional_expression"},
	Visit:  checkBoolOperands,
}

func checkBoolOperands(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	var test syntax.NodeID
	if t.Kind(n) == "conditional_expression" {
		// body if test else orelse: the second named child
		var named []syntax.NodeID
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Named && !t.Nodes[c].Extra {
				named = append(named, c)
			}
		}
		if len(named) < 2 {
			return
		}
		test = named[1]
	} else {
		test = conditionField.Child(t, n)
	}
	test = unparen(t, test)
	if t.Kind(test) != "boolean_operator" {
		return
	}
	k := boolLeaves(t, test)
	p.Measure(float64(k))
	if p.Exceeds(float64(k)) {
		p.Reportf(test, "condition has %d boolean operands (> %g)", k, p.Limit())
	}
}

// boolLeaves counts the operands of the and/or tree n (parentheses looked
// through). It keeps its own stack of left operands and follows the right
// ones: an "a and b and ..." chain nests to the left, one level per
// operator, and is counted with a stack of one entry, not a recursion as
// deep as the chain.
func boolLeaves(t *syntax.Tree, n syntax.NodeID) int {
	count := 0
	stack := []syntax.NodeID{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for {
			n = unparen(t, n)
			if n == syntax.NoNode {
				break
			}
			if t.Kind(n) != "boolean_operator" {
				count++
				break
			}
			stack = append(stack, t.ChildByField(n, "left"))
			n = t.ChildByField(n, "right")
		}
	}
	return count
}
