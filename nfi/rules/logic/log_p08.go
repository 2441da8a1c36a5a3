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
		What: "An `if` with no `elif`/`else` whose body is a single `if` statement with no `elif`/`else` " +
			"(reported at the outer `if`), or, as in Ruff, an `elif` that is the last clause of its `if` " +
			"and whose body is such a lone `if` (reported at the `elif`).",
		Why:    "`if a and b:` states the condition once and saves a level of nesting.",
		Bad:    "if user:\n    if user.active:\n        greet(user)\n",
		Good:   "if user and user.active:\n    greet(user)\n",
		Exempt: "Either `if` having an `elif` or `else`; an outer body with more than one statement; either condition reading `sys.platform` or `sys.version_info` (kept apart for type checkers, as in Ruff).",
		Source: "flake8-simplify SIM102 (use a single if statement instead of nested if statements)",
		Oracle: "Ruff SIM102, same semantics including its elif form and sys.platform/sys.version_info exemption; " +
			"598 standard-library files agree on the per-file verdict except files Ruff cannot parse (Python 2 test data).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"SIM102"}, Exact: true},
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
	if !hasElse(t, n) {
		if inner, ok := loneIf(t, consequenceField.Child(t, n)); ok && !platformCheck(p, n, inner) {
			p.Reportf(n, "nested if statements can be collapsed with and")
		}
		return
	}
	// `elif a:` as the last clause, whose body is a lone if
	var last syntax.NodeID = syntax.NoNode
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if k := t.Kind(c); k == "elif_clause" || k == "else_clause" {
			last = c
		}
	}
	if t.Kind(last) != "elif_clause" {
		return
	}
	if inner, ok := loneIf(t, consequenceField.Child(t, last)); ok && !platformCheck(p, last, inner) {
		p.Reportf(last, "nested if statements can be collapsed with and")
	}
}

// loneIf returns the only statement of block when it is an if without
// elif/else.
func loneIf(t *syntax.Tree, block syntax.NodeID) (syntax.NodeID, bool) {
	body := onlyStatement(t, block)
	if body == syntax.NoNode || t.Kind(body) != "if_statement" || hasElse(t, body) {
		return syntax.NoNode, false
	}
	return body, true
}

// platformCheck reports a condition of either if that reads sys.platform or
// sys.version_info (Ruff leaves those nested for type checkers' reachability).
func platformCheck(p *nfi.Pass, outer, inner syntax.NodeID) bool {
	t := p.Tree
	for _, n := range []syntax.NodeID{outer, inner} {
		c := conditionField.Child(t, n)
		if c == syntax.NoNode {
			continue
		}
		found := false
		t.Walk(c, func(k syntax.NodeID) bool {
			if found {
				return false
			}
			if t.Kind(k) == "attribute" {
				if q, ok := p.Module.ImportedName(k); ok && (q == "sys.platform" || q == "sys.version_info") {
					found = true
					return false
				}
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}
