package errh

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// JumpInFinally reports return, break and continue statements that leave a
// finally block.
//
// Source: PEP 765 ("Disallow return/break/continue that exit a finally block"); Ruff B012.
var JumpInFinally = &nfi.Rule{
	ID: "ERR-P06", Name: "jump-statement-in-finally", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "return, break or continue leaves a finally block",
		What: "A `return` anywhere in a `finally` block (outside nested defs, classes and lambdas), and " +
			"a `break` or `continue` there that is not inside the body of a loop nested in the " +
			"finally block (the `else` of such a loop does not count as inside). These are exactly " +
			"the statements that exit the finally block, for which CPython 3.14 emits a SyntaxWarning.",
		Why: "Leaving a finally block with a jump silently discards the exception in flight, and " +
			"a return there overrides the try body's return value.",
		Bad:    "def f():\n    try:\n        return compute()\n    finally:\n        return None\n",
		Good:   "def f():\n    try:\n        return compute()\n    finally:\n        cleanup()\n",
		Exempt: "Loops inside the finally block may break and continue within themselves.",
		Source: "PEP 765; Python 3.14 What's New",
		Oracle: "Ruff B012; Ruff only walks the `if` body, not its `elif`/`else` branches, nor the " +
			"handlers, `else` and `finally` of a nested `try`, so `finally:\\n    if a: pass\\n    " +
			"else: return` is reported here and not by Ruff. Such code is rare: per-file agreement " +
			"with B012 was 100% on 598 standard-library files and 3999/4000 on site-packages (the " +
			"one difference: a return in a handler of a try nested in the finally block).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"B012"}, Exact: true},
	Kinds:  []string{"finally_clause"},
	Visit:  checkJumpInFinally,
}

func checkJumpInFinally(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	end := t.Nodes[n].End
	for i := n + 1; i < end; i++ {
		nd := &t.Nodes[i]
		switch nd.Kind() {
		case "function_definition", "class_definition", "lambda":
			i = nd.End - 1
		case "return_statement":
			p.Reportf(i, "return in finally discards the exception in flight")
		case "break_statement", "continue_statement":
			if !inLoopBody(t, i, n) {
				p.Reportf(i, "%s in finally discards the exception in flight", t.Text(i))
			}
		}
	}
}

// inLoopBody reports whether n is in the body of a loop nested below fin.
func inLoopBody(t *syntax.Tree, n, fin syntax.NodeID) bool {
	child := n
	for a := t.Nodes[n].Parent; a != fin && a != syntax.NoNode; child, a = a, t.Nodes[a].Parent {
		switch t.Nodes[a].Kind() {
		case "for_statement", "while_statement":
			if t.Nodes[child].Field() == "body" {
				return true
			}
		}
	}
	return false
}
