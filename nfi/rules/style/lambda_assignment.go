package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// LambdaAssignment reports lambdas bound to a name by assignment.
//
// Source: PEP 8 "Programming Recommendations"; Ruff E731 (pycodestyle).
var LambdaAssignment = &nfi.Rule{
	ID: "STY-P05", Name: "lambda-assignment", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "no lambda assigned to a name",
		What: "An assignment statement with one target, a plain name, whose value (parentheses " +
			"removed) is a lambda: `f = lambda x: x` or `f: T = lambda x: x`.",
		Why:    "PEP 8: a def gives the function a real name in tracebacks and repr, and room for a docstring.",
		Bad:    "square = lambda x: x * x\n",
		Good:   "def square(x):\n    return x * x\n",
		Exempt: "annotated assignments in a class body (dataclass and Pydantic fields); chained (`a = b = lambda: 0`), unpacking and attribute targets.",
		Source: "PEP 8 (\"Always use a def statement instead of an assignment statement that binds a lambda expression directly to an identifier\"); Ruff E731",
		Oracle: "Ruff E731, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E731"}, Exact: true},
	Kinds:  []string{"assignment"},
	Visit:  checkLambdaAssignment,
}

func checkLambdaAssignment(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	if t.Kind(t.Nodes[n].Parent) != "expression_statement" {
		return
	}
	left, right := t.ChildByField(n, "left"), unparen(t, t.ChildByField(n, "right"))
	if left == syntax.NoNode || right == syntax.NoNode || t.Nodes[left].Kind() != "identifier" || t.Nodes[right].Kind() != "lambda" {
		return
	}
	if t.ChildByField(n, "type") != syntax.NoNode && t.Kind(scopeOf(t, n)) == "class_definition" {
		return
	}
	p.Reportf(left, "lambda assigned to %s; use a def", t.Text(left))
}
