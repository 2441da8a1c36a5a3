package logic

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// SuperfluousElse reports an `else`/`elif` after a branch that always jumps.
//
// Source: flake8-return (RET505-RET508).
var SuperfluousElse = &nfi.Rule{
	ID: "LOG-P03", Name: "superfluous-else", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "else or elif after a branch that ends in return, raise, continue or break",
		What: "An `if` or `elif` branch whose last statement is `return`, `raise`, `continue` or " +
			"`break`, followed by an `elif` or `else` clause of the same statement. Reported at the " +
			"following clause.",
		Why:    "The else adds a level of indentation and suggests the branches can both fall through, when the first never does.",
		Bad:    "def sign(x):\n    if x < 0:\n        return -1\n    else:\n        return 1\n",
		Good:   "def sign(x):\n    if x < 0:\n        return -1\n    return 1\n",
		Exempt: "Branches that only end in a jump inside a nested block (`if a: if b: return`).",
		Source: "flake8-return (RET505 unnecessary else after return, RET506 raise, RET507 continue, RET508 break)",
		Oracle: "Ruff RET505-RET508. Differences: Ruff only checks `return` branches inside functions and " +
			"`continue`/`break` branches inside loops, and skips an `elif` chain once a branch does not jump; " +
			"here every if/elif branch is checked on its own (`if a: return 1\\nelif b: x = 2\\nelse: ...` " +
			"is reported at the `elif` by both). On 598 standard-library files the verdicts agree for 588 (98.3%), " +
			"e.g. random.py reports `else` after a `return` in a loop body that Ruff's branch analysis skips.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"RET505", "RET506", "RET507", "RET508"}},
	Kinds:  []string{"if_statement"},
	Visit:  checkSuperfluousElse,
}

func checkSuperfluousElse(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	branch := consequenceField.Child(t, n)
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		k := t.Kind(c)
		if k != "elif_clause" && k != "else_clause" {
			continue
		}
		if last := lastStatement(t, branch); isJump(t, last) {
			jump := strings.TrimSuffix(t.Kind(last), "_statement")
			p.Reportf(c, "unnecessary %s after %s", strings.TrimSuffix(k, "_clause"), jump)
		}
		if k == "elif_clause" {
			branch = consequenceField.Child(t, c)
		}
	}
}
