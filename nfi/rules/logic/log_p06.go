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
		Exempt:  "Statements after a jump that is itself inside a nested block (`if x: return` does not make the rest unreachable). The empty-generator idiom, a bare `return` followed by a lone `yield` (or `yield from ()`) as the last statement of a def: the `yield` never runs but makes the function a generator, and deleting it changes behaviour.",
		Source:  "pylint W0101 unreachable",
		Oracle: "None run. Ruff 0.17.6 has no unreachable-code rule (`ruff rule PLW0101` is an " +
			"invalid value; before issue #18 the catalog named PLW0101 as this rule's oracle, so it was " +
			"never compared). The reference is pylint W0101 unreachable, which also follows " +
			"`while True:` loops without a break and exhaustive if/else jumps; this rule only looks at " +
			"the same block (`if x:\n    return 1\nelse:\n    return 2\nprint()` passes here).",
	},
	Kinds: []string{"return_statement", "raise_statement", "continue_statement", "break_statement"},
	Visit: checkUnreachable,
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
	if next == syntax.NoNode || isEmptyGeneratorIdiom(t, n, next) {
		return
	}
	p.Reportf(next, "unreachable code after %s", strings.TrimSuffix(t.Kind(n), "_statement"))
}

// isEmptyGeneratorIdiom reports `return` followed by a yield expression
// statement that ends a def's body: `def f(): return; yield`.
func isEmptyGeneratorIdiom(t *syntax.Tree, jump, next syntax.NodeID) bool {
	if t.Kind(jump) != "return_statement" || t.Nodes[jump].FirstChild != syntax.NoNode && t.Nodes[t.Nodes[jump].FirstChild].NextSibling != syntax.NoNode {
		return false // a return with a value
	}
	if t.Kind(next) != "expression_statement" || t.Kind(t.Ancestor(next, "function_definition", "class_definition", "module")) != "function_definition" {
		return false
	}
	if t.Kind(t.Parent(next)) != "block" || t.Kind(t.Parent(t.Parent(next))) != "function_definition" {
		return false
	}
	for s := t.Nodes[next].NextSibling; s != syntax.NoNode; s = t.Nodes[s].NextSibling {
		if t.Nodes[s].Named && !t.Nodes[s].Extra {
			return false // not the last statement
		}
	}
	c := t.Nodes[next].FirstChild
	return c != syntax.NoNode && t.Kind(c) == "yield"
}
