package logic

import "github.com/polynfi/polynfi/syntax"

// statementsOf returns the named, non-comment children of a block.
func statementsOf(t *syntax.Tree, block syntax.NodeID) []syntax.NodeID {
	if block == syntax.NoNode {
		return nil
	}
	var out []syntax.NodeID
	for c := t.Nodes[block].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if nd := &t.Nodes[c]; nd.Named && !nd.Extra {
			out = append(out, c)
		}
	}
	return out
}

// lastStatement returns the last statement of a block, NoNode when empty.
func lastStatement(t *syntax.Tree, block syntax.NodeID) syntax.NodeID {
	s := statementsOf(t, block)
	if len(s) == 0 {
		return syntax.NoNode
	}
	return s[len(s)-1]
}

// unparen strips grouping parentheses.
func unparen(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for n != syntax.NoNode && t.Nodes[n].Kind() == "parenthesized_expression" {
		inner := syntax.NoNode
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Named && !t.Nodes[c].Extra {
				inner = c
				break
			}
		}
		n = inner
	}
	return n
}

// isJump reports return, raise, continue and break statements.
func isJump(t *syntax.Tree, n syntax.NodeID) bool {
	switch t.Kind(n) {
	case "return_statement", "raise_statement", "continue_statement", "break_statement":
		return true
	}
	return false
}

// funcName returns a def's name.
func funcName(t *syntax.Tree, def syntax.NodeID) string {
	if n := t.ChildByField(def, "name"); n != syntax.NoNode {
		return t.TextString(n)
	}
	return ""
}

// insideFunction reports whether n is inside a def body (at any depth).
func insideFunction(t *syntax.Tree, n syntax.NodeID) bool {
	return t.Ancestor(n, "function_definition") != syntax.NoNode
}
