package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// returnedBool returns "true" or "false" when statement n is (a block of
// only) `return true;` or `return false;`, "" otherwise.
func returnedBool(t *syntax.Tree, n syntax.NodeID) string {
	if n == syntax.NoNode {
		return ""
	}
	if t.Kind(n) == "block" {
		st := statements(t, n)
		if len(st) != 1 {
			return ""
		}
		n = st[0]
	}
	if t.Kind(n) != "return_statement" {
		return ""
	}
	v := unparen(t, t.FirstNamedChild(n))
	if v != syntax.NoNode && (t.Kind(v) == "true" || t.Kind(v) == "false") {
		return t.Kind(v)
	}
	return ""
}

// SimplifyBooleanReturns reports if statements that return boolean
// literals in both branches.
//
// Source: PMD design/SimplifyBooleanReturns.
var SimplifyBooleanReturns = &nfi.Rule{
	ID: "JAVA-LOG-P07", Name: "simplify-boolean-returns", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "if statement returning boolean literals",
		What: "`if (c) return true; else return false;` (either literal, branches in blocks or not), or the same " +
			"with the else branch being the statement right after the if.",
		Why:    "`return c;` (or `return !c;`) says the same in one line.",
		Bad:    "class A {\n  boolean f(int x) {\n    if (x > 0) {\n      return true;\n    } else {\n      return false;\n    }\n  }\n}\n",
		Good:   "class A {\n  boolean f(int x) {\n    return x > 0;\n  }\n}\n",
		Source: "PMD design/SimplifyBooleanReturns",
		Oracle: "PMD 7.27.0 SimplifyBooleanReturns: PMD also reports branches returning a literal and an expression; this rule two literals.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/design.xml/SimplifyBooleanReturns"}},
	Kinds:  []string{"if_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if returnedBool(t, t.ChildByField(n, "consequence")) == "" {
			return
		}
		alt := t.ChildByField(n, "alternative")
		if alt == syntax.NoNode {
			next := t.Node(n).NextSibling
			for next != syntax.NoNode && !t.Node(next).Named || next != syntax.NoNode && isComment(t, next) {
				next = t.Node(next).NextSibling
			}
			alt = next
		}
		if returnedBool(t, alt) != "" {
			p.Reportf(n, "this if statement can be replaced by `return {condition};`")
		}
	},
}
