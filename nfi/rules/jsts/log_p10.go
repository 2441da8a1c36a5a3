package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoEmpty reports empty blocks and empty switch statements.
//
// Source: ESLint no-empty (allowEmptyCatch false).
var NoEmpty = &nfi.Rule{
	ID: "JS-LOG-P10", Name: "no-empty", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "empty block statement",
		What: "A block statement with no statement and no comment inside (an empty `catch` included), " +
			"other than a function body; a switch statement with no case.",
		Why:    "An empty block is unfinished code or a silently ignored condition; a comment says it is meant.",
		Bad:    "try {\n  f();\n} catch (e) {}\n",
		Good:   "try {\n  f();\n} catch (e) {\n  // f's failure is reported by f itself\n}\n",
		Exempt: "Function bodies, class static blocks and TypeScript namespace bodies.",
		Source: "ESLint no-empty",
		Oracle: "ESLint 10.15.0 no-empty with its defaults: same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-empty"}, Exact: true},
	Kinds:  []string{"statement_block", "switch_body"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if t.Kind(n) == "switch_body" {
			if t.FirstChildOfKind(n, "switch_case") == syntax.NoNode && t.FirstChildOfKind(n, "switch_default") == syntax.NoNode {
				p.Reportf(t.Parent(n), "empty switch statement")
			}
			return
		}
		// tree-sitter may attach a comment after the closing brace to
		// the block: only what precedes the brace is inside.
		closed := false
		for c := t.Node(n).FirstChild; c != syntax.NoNode && !closed; c = t.Node(c).NextSibling {
			cn := t.Node(c)
			closed = !cn.Named && cn.Kind() == "}"
			if cn.Named {
				return // a statement, or a comment between the braces
			}
		}
		par := t.Parent(n)
		if par != syntax.NoNode {
			switch k := t.Kind(par); {
			case isFunction(k), k == "class_static_block", k == "internal_module", k == "module":
				return
			}
		}
		p.Reportf(n, "empty block statement")
	},
}
