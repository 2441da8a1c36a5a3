package logic

import (
	"strings"

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
		Why:  "`if a and b:` states the condition once and saves a level of nesting.",
		Bad:  "if user:\n    if user.active:\n        greet(user)\n",
		Good: "if user and user.active:\n    greet(user)\n",
		Exempt: "Either `if` having an `elif` or `else`; an outer body with more than one statement; " +
			"an outer test (the `elif`'s in the elif form) that is `True`, `False` or `__name__ == \"__main__\"` " +
			"(any comparison operator); an `if` statement whose own test is a type-checking check " +
			"(`TYPE_CHECKING` whatever binds it, a name imported as typing.TYPE_CHECKING, any attribute " +
			"named `TYPE_CHECKING`) or reads `sys.platform`/`sys.version_info` anywhere " +
			"(`if sys.platform.startswith(\"win\") and x:`), also when its last `elif` is the form " +
			"reported; the nested `if`'s own test is not looked at.",
		Source: "flake8-simplify SIM102 (use a single if statement instead of nested if statements)",
		Oracle: "Ruff SIM102 (0.17.6), same semantics, checked case by case against it (the seeded " +
			"oracle sample nfi/catalog/testdata/oracle, run by TestRuffOracle): `if TYPE_CHECKING:` " +
			"around a lone `if` passes both (before issue #18 this rule flagged it), `if not " +
			"TYPE_CHECKING:` and `if TYPE_CHECKING and x:` fail both, and `if x:` around a lone " +
			"`if sys.platform == \"win32\":` fails both.",
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
	// Ruff keeps nested ifs under a type-checking or platform check apart
	// (type checkers treat those conditions specially); both look at the
	// `if` clause's own test, also when the elif form is reported.
	if ifTest := conditionField.Child(t, n); isTypeCheckingTest(p, ifTest) || readsSysPlatform(p, ifTest) {
		return
	}
	clause := n
	if hasElse(t, n) {
		// `elif a:` as the last clause, whose body is a lone if
		clause = syntax.NoNode
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if k := t.Kind(c); k == "elif_clause" || k == "else_clause" {
				clause = c
			}
		}
		if t.Kind(clause) != "elif_clause" {
			return
		}
	}
	if test := unparen(t, conditionField.Child(t, clause)); isMainCheck(t, test) || isBoolLiteral(t, test) {
		return
	}
	if _, ok := loneIf(t, consequenceField.Child(t, clause)); ok {
		p.Reportf(clause, "nested if statements can be collapsed with and")
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

// isTypeCheckingTest reports a test Ruff takes for a type-checking block:
// the name TYPE_CHECKING (whatever binds it), a name resolving to
// typing.TYPE_CHECKING or typing_extensions.TYPE_CHECKING (`from typing
// import TYPE_CHECKING as TC`), or any attribute named TYPE_CHECKING
// (`typing.TYPE_CHECKING`, `t.TYPE_CHECKING`). `not TYPE_CHECKING`,
// `TYPE_CHECKING and x`, `if 0:` are not.
func isTypeCheckingTest(p *nfi.Pass, test syntax.NodeID) bool {
	t := p.Tree
	test = unparen(t, test)
	switch t.Kind(test) {
	case "identifier":
		if t.TextString(test) == "TYPE_CHECKING" {
			return true
		}
		q, ok := p.Module.ImportedName(test)
		return ok && (q == "typing.TYPE_CHECKING" || q == "typing_extensions.TYPE_CHECKING")
	case "attribute":
		return t.TextString(t.ChildByField(test, "attribute")) == "TYPE_CHECKING"
	}
	return false
}

// readsSysPlatform reports a test that reads sys.platform or
// sys.version_info anywhere (`sys.platform.startswith("win") and x`,
// `from sys import platform` then `platform == "x"`).
func readsSysPlatform(p *nfi.Pass, test syntax.NodeID) bool {
	t := p.Tree
	if test == syntax.NoNode {
		return false
	}
	found := false
	t.Walk(test, func(k syntax.NodeID) bool {
		if found {
			return false
		}
		switch t.Kind(k) {
		case "attribute":
		case "identifier":
			if f := t.Nodes[k].Field(); f == "attribute" || f == "name" {
				return true // an attribute's name or a keyword argument's, not a reference
			}
		default:
			return true
		}
		if q, ok := p.Module.ImportedName(k); ok && (q == "sys.platform" || q == "sys.version_info") {
			found = true
			return false
		}
		return true
	})
	return found
}

// isMainCheck reports `__name__ <op> "__main__"`: one comparison, the name
// on the left, the plain string on the right (Ruff's is_main_check; the
// operator is not looked at).
func isMainCheck(t *syntax.Tree, test syntax.NodeID) bool {
	if t.Kind(test) != "comparison_operator" {
		return false
	}
	var ops []syntax.NodeID
	for c := t.Nodes[test].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Named && !t.Nodes[c].Extra {
			ops = append(ops, unparen(t, c))
		}
	}
	if len(ops) != 2 || t.Kind(ops[0]) != "identifier" || t.TextString(ops[0]) != "__name__" {
		return false
	}
	s := strings.TrimLeft(t.TextString(ops[1]), "rRuU")
	return t.Kind(ops[1]) == "string" && (s == `"__main__"` || s == `'__main__'` || s == `"""__main__"""` || s == `'''__main__'''`)
}

// isBoolLiteral reports `True` or `False`.
func isBoolLiteral(t *syntax.Tree, n syntax.NodeID) bool {
	k := t.Kind(n)
	return k == "true" || k == "false"
}
