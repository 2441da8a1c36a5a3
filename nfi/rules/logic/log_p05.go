package logic

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// GlobalStatement reports `global` statements inside functions.
//
// Source: pylint W0603 global-statement; Ruff PLW0603.
var GlobalStatement = &nfi.Rule{
	ID: "LOG-P05", Name: "global-statement", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "global statement inside a function",
		What:    "A `global` statement anywhere inside a def (nested defs and methods included). A module-level `global` is not this rule's concern (pylint W0604).",
		Why:     "A function that rebinds module state has effects no caller can see from its signature, and it cannot be called concurrently or tested in isolation.",
		Bad:     "counter = 0\n\ndef bump():\n    global counter\n    counter += 1\n",
		Good:    "class Counter:\n    def __init__(self):\n        self.value = 0\n\n    def bump(self):\n        self.value += 1\n",
		Exempt:  "`nonlocal` statements.",
		Source:  "pylint W0603 global-statement",
		Oracle: "Ruff PLW0603. Difference: Ruff reports a global name only where the function rebinds it " +
			"(assignment, augmented assignment, del, import, def); a `global x` used only to read `x` " +
			"(`def f():\\n    global x\\n    return x`) is reported here but not by Ruff. On 598 standard-library " +
			"files the verdicts agree for 594 (99.3%); the four others only read their globals (lib2to3/pytree.py type_repr).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PLW0603"}},
	Kinds:  []string{"global_statement"},
	Visit:  checkGlobal,
}

func checkGlobal(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	def := t.Ancestor(n, "function_definition")
	if def == syntax.NoNode {
		return
	}
	p.Reportf(n, "function %s uses a global statement", funcName(t, def))
}
