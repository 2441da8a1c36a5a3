package metrics

import "github.com/polynfi/polynfi/syntax"

// NestingDepth returns the deepest nesting of compound block statements
// inside the body of def (a function_definition node): the largest number of
// `if`, `for`, `while`, `try`, `with` and `match` statements (async forms
// included) that enclose one another on any path. `elif`, `else`,
// `except`, `finally` and `case` clauses do not add a level; a class body
// adds none either. Nested defs are not part of the count: their depth
// restarts at 0 (measure them with their own call). at is the statement at
// the deepest level, NoNode when the body has no compound statement (depth 0).
//
// Source: polynfi catalog LOG-T02 (shared/spec/nfi-rules.md, decision 14);
// pylint R1702 too-many-nested-blocks, which also counts `match`-less
// blocks but carries depth across nested defs.
func NestingDepth(t *syntax.Tree, def syntax.NodeID) (depth int, at syntax.NodeID) {
	at = syntax.NoNode
	body := t.ChildByField(def, "body")
	if body == syntax.NoNode {
		return 0, at
	}
	kinds := nestKinds.Table(t.Lang)
	var walk func(n syntax.NodeID, d int)
	walk = func(n syntax.NodeID, d int) {
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			nd := &t.Nodes[c]
			if !nd.Named || nd.Extra {
				continue
			}
			switch kinds.Of(nd) {
			case nkLevel:
				if d+1 > depth {
					depth, at = d+1, c
				}
				walk(c, d+1)
			case nkSame:
				walk(c, d)
			}
		}
	}
	walk(body, 0)
	return depth, at
}

// node classes of NestingDepth's walk: the other node types (defs, lambdas,
// expressions: nkOther) are not entered
const (
	nkOther = iota
	nkLevel // a compound statement: one level deeper
	nkSame  // a clause, block or class: same level
)

var nestKinds = &syntax.KindClasses{Names: map[string]uint8{
	"if_statement":         nkLevel,
	"for_statement":        nkLevel,
	"while_statement":      nkLevel,
	"try_statement":        nkLevel,
	"with_statement":       nkLevel,
	"match_statement":      nkLevel,
	"block":                nkSame,
	"else_clause":          nkSame,
	"elif_clause":          nkSame,
	"except_clause":        nkSame,
	"except_group_clause":  nkSame,
	"finally_clause":       nkSame,
	"case_clause":          nkSame,
	"class_definition":     nkSame,
	"decorated_definition": nkSame,
	"expression_statement": nkSame,
}}
