package logic

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// CollapsibleIf reports an `if` whose only statement is another `if`, both
// without `elif`/`else`.
//
// Source: flake8-simplify SIM102.
var CollapsibleIf = &nfi.Rule{
	ID: "LOG-P08", Name: "collapsible-if", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "nested if statements can be one if",
		What:    "An `if` with no `elif`/`else` whose body is a single `if` statement with no `elif`/`else`. Reported at the outer `if`.",
		Why:     "`if a and b:` states the condition once and saves a level of nesting.",
		Bad:     "if user:\n    if user.active:\n        greet(user)\n",
		Good:    "if user and user.active:\n    greet(user)\n",
		Exempt:  "Either `if` having an `elif` or `else`; an outer body with more than one statement.",
		Source:  "flake8-simplify SIM102 (use a single if statement instead of nested if statements)",
		Oracle: "Ruff SIM102. Ruff also reports an `elif` whose body is a lone `if` when the `elif` is the last branch, " +
			"and skips `if __name__ == \"__main__\":` outer statements; here only plain `if` pairs are checked.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"SIM102"}},
	Kinds:  []string{"if_statement"},
	Visit:  checkCollapsibleIf,
}

func hasElse(t *syntax.Tree, ifStmt syntax.NodeID) bool {
	for c := t.Nodes[ifStmt].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if k := t.Kind(c); k == "elif_clause" || k == "else_clause" {
			return true
		}
	}
	return false
}

func checkCollapsibleIf(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	if hasElse(t, n) {
		return
	}
	body := statementsOf(t, t.ChildByField(n, "consequence"))
	if len(body) != 1 || t.Kind(body[0]) != "if_statement" || hasElse(t, body[0]) {
		return
	}
	p.Reportf(n, "nested if statements can be collapsed with and")
}
