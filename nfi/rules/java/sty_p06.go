package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// ControlStatementBraces reports if, else, for, while and do bodies that
// are not blocks.
//
// Source: PMD codestyle/ControlStatementBraces (defaults: every statement
// checked, allowEmptyLoop false); Checkstyle NeedBraces.
var ControlStatementBraces = &nfi.Rule{
	ID: "JAVA-STY-P06", Name: "control-statement-braces", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "control statement without braces",
		What: "An if or else branch, or a for, for-each, while or do body, that is a single statement rather than a " +
			"block (an empty `;` body included). `else if` is not a missing brace.",
		Why:    "A statement added under an unbraced branch silently falls outside it (Apple's goto fail).",
		Bad:    "class A {\n  int f(int x) {\n    if (x > 0) return 1;\n    return 0;\n  }\n}\n",
		Good:   "class A {\n  int f(int x) {\n    if (x > 0) {\n      return 1;\n    }\n    return 0;\n  }\n}\n",
		Source: "PMD codestyle/ControlStatementBraces",
		Oracle: "PMD 7.27.0 ControlStatementBraces with its defaults.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/codestyle.xml/ControlStatementBraces"}, Exact: true},
	Kinds:  []string{"if_statement", "for_statement", "enhanced_for_statement", "while_statement", "do_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if t.Kind(n) == "if_statement" {
			if c := t.ChildByField(n, "consequence"); c != syntax.NoNode && t.Kind(c) != "block" {
				p.Reportf(n, "this statement should have braces")
				return
			}
			if a := t.ChildByField(n, "alternative"); a != syntax.NoNode && t.Kind(a) != "block" && t.Kind(a) != "if_statement" {
				p.Reportf(a, "this statement should have braces")
			}
			return
		}
		if b := t.ChildByField(n, "body"); b != syntax.NoNode && t.Kind(b) != "block" {
			p.Reportf(n, "this statement should have braces")
		}
	},
}
