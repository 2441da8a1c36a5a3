package logic

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// UnreachableCode reports statements that follow a jump in the same block.
//
// Source: pylint W0101 unreachable.
var UnreachableCode = &nfi.Rule{
	ID: "LOG-P06", Name: "unreachable-code", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "statement after return, raise, continue or break",
		What:    "The first statement that follows a `return`, `raise`, `continue` or `break` statement in the same block (module, def or clause body). One diagnostic per jump.",
		Why:     "Code after an unconditional jump never runs; it is either dead or a sign that the jump is misplaced.",
		Bad:     "def f():\n    return 1\n    print('never')\n",
		Good:    "def f():\n    print('always')\n    return 1\n",
		Exempt:  "Statements after a jump that is itself inside a nested block (`if x: return` does not make the rest unreachable).",
		Source:  "pylint W0101 unreachable",
		Oracle:  "Ruff PLW0101 (preview) builds a control-flow graph and also finds code after `while True` without break or after exhaustive if/else jumps; this rule only looks at the same block.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PLW0101"}, RuffArgs: []string{"--preview"}},
	Kinds:  []string{"return_statement", "raise_statement", "continue_statement", "break_statement"},
	Visit:  checkUnreachable,
}

func checkUnreachable(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	if k := t.Kind(t.Parent(n)); k != "block" && k != "module" {
		return
	}
	next := t.Nodes[n].NextSibling
	for next != syntax.NoNode && (!t.Nodes[next].Named || t.Nodes[next].Extra) {
		next = t.Nodes[next].NextSibling
	}
	if next == syntax.NoNode {
		return
	}
	p.Reportf(next, "unreachable code after %s", strings.TrimSuffix(t.Kind(n), "_statement"))
}
