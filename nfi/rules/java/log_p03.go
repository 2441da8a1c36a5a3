package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// EmptyControlStatement reports control statements with empty bodies.
//
// Source: PMD codestyle/EmptyControlStatement (it replaced EmptyIfStmt,
// EmptyWhileStmt, EmptyTryBlock, EmptyFinallyBlock ... in PMD 7).
var EmptyControlStatement = &nfi.Rule{
	ID: "JAVA-LOG-P03", Name: "empty-control-statement", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "control statement with an empty body",
		What: "An if whose then-branch is an empty block, an empty else block, a loop (for, for-each, while, do) " +
			"with an empty block, a switch without cases, an empty synchronized, try (without resources) or " +
			"finally block, an empty initializer, or a block statement nested in a block that is empty. Comments do " +
			"not make a block non-empty.",
		Why:    "An empty body is dead code or a forgotten implementation.",
		Bad:    "class A {\n  void f(int x) {\n    if (x > 0) {\n    }\n  }\n}\n",
		Good:   "class A {\n  void f(int x) {\n    if (x > 0) {\n      g();\n    }\n  }\n  void g() {}\n}\n",
		Source: "PMD codestyle/EmptyControlStatement",
		Oracle: "PMD 7.27.0 EmptyControlStatement with its defaults.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/codestyle.xml/EmptyControlStatement"}, Exact: true},
	Kinds: []string{"if_statement", "for_statement", "enhanced_for_statement", "while_statement", "do_statement",
		"switch_expression", "synchronized_statement", "try_statement", "finally_clause", "static_initializer", "block"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		switch t.Kind(n) {
		case "if_statement":
			if emptyBlock(t, t.ChildByField(n, "consequence")) {
				p.Reportf(n, "empty if statement")
			}
			if a := t.ChildByField(n, "alternative"); t.Kind(a) == "block" && emptyBlock(t, a) {
				p.Reportf(a, "empty else statement")
			}
		case "for_statement", "enhanced_for_statement", "while_statement", "do_statement":
			if emptyBlock(t, t.ChildByField(n, "body")) {
				p.Reportf(n, "empty loop body")
			}
		case "switch_expression":
			if b := t.ChildByField(n, "body"); b != syntax.NoNode && len(statements(t, b)) == 0 {
				p.Reportf(n, "empty switch statement")
			}
		case "synchronized_statement":
			if emptyBlock(t, t.ChildByField(n, "body")) {
				p.Reportf(n, "empty synchronized statement")
			}
		case "try_statement":
			if emptyBlock(t, t.ChildByField(n, "body")) {
				p.Reportf(n, "empty try body")
			}
		case "finally_clause":
			if b := t.FirstChildOfKind(n, "block"); emptyBlock(t, b) {
				p.Reportf(n, "empty finally clause")
			}
		case "static_initializer":
			if b := t.FirstChildOfKind(n, "block"); emptyBlock(t, b) {
				p.Reportf(n, "empty initializer statement")
			}
		case "block":
			par := t.Parent(n)
			if par != syntax.NoNode && emptyBlock(t, n) {
				switch t.Kind(par) {
				case "block", "switch_block_statement_group", "class_body", "enum_body_declarations":
					if t.Kind(par) == "class_body" || t.Kind(par) == "enum_body_declarations" {
						p.Reportf(n, "empty initializer statement")
					} else {
						p.Reportf(n, "empty block")
					}
				}
			}
		}
	},
}
