package logic

import "github.com/polynfi/polynfi/syntax"

// The statements of a block are its named, non-comment children.

// onlyStatement returns the statement of a block that holds exactly one,
// NoNode otherwise (and for NoNode).
func onlyStatement(t *syntax.Tree, block syntax.NodeID) syntax.NodeID {
	if block == syntax.NoNode {
		return syntax.NoNode
	}
	only := syntax.NoNode
	for c := t.Nodes[block].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if nd := &t.Nodes[c]; nd.Named && !nd.Extra {
			if only != syntax.NoNode {
				return syntax.NoNode
			}
			only = c
		}
	}
	return only
}

// lastStatement returns the last statement of a block, NoNode when empty.
func lastStatement(t *syntax.Tree, block syntax.NodeID) syntax.NodeID {
	last := syntax.NoNode
	if block == syntax.NoNode {
		return last
	}
	for c := t.Nodes[block].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if nd := &t.Nodes[c]; nd.Named && !nd.Extra {
			last = c
		}
	}
	return last
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
