package errh

import (
	"strings"

	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// handlerKinds are the node kinds of an except handler (`except` and `except*`).
var handlerKinds = []string{"except_clause", "except_group_clause"}

// handler is an except clause taken apart.
type handler struct {
	typ   syntax.NodeID // the caught type expression, NoNode for a bare except
	alias syntax.NodeID // the identifier bound with `as`, NoNode when none
	body  syntax.NodeID // the handler's block, NoNode when missing
}

// parseHandler splits an except_clause or except_group_clause into the
// caught type, the `as` name and the body.
func parseHandler(t *syntax.Tree, n syntax.NodeID) handler {
	h := handler{typ: syntax.NoNode, alias: syntax.NoNode, body: syntax.NoNode}
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		nd := &t.Nodes[c]
		if !nd.Named || nd.Kind() == "comment" {
			continue
		}
		switch {
		case nd.Kind() == "block":
			h.body = c
		case nd.Field() == "alias":
			// Python 2 `except E, e:`.
			if nd.Kind() == "identifier" {
				h.alias = c
			}
		case h.typ == syntax.NoNode:
			h.typ = c
			if nd.Kind() == "as_pattern" {
				h.typ = syntax.NoNode
				for cc := nd.FirstChild; cc != syntax.NoNode; cc = t.Nodes[cc].NextSibling {
					switch {
					case t.Nodes[cc].Field() == "alias":
						if id := t.FirstChildOfKind(cc, "identifier"); id != syntax.NoNode {
							h.alias = id
						}
					case t.Nodes[cc].Named && t.Nodes[cc].Kind() != "comment" && h.typ == syntax.NoNode:
						h.typ = cc
					}
				}
			}
		}
	}
	return h
}

// raiseParts returns a raise statement's raised expression and its `from`
// cause (NoNode when absent; a bare raise has neither).
func raiseParts(t *syntax.Tree, n syntax.NodeID) (exc, cause syntax.NodeID) {
	exc, cause = syntax.NoNode, syntax.NoNode
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		nd := &t.Nodes[c]
		switch {
		case !nd.Named || nd.Kind() == "comment":
		case nd.Field() == "cause":
			cause = c
		case exc == syntax.NoNode:
			exc = c
		}
	}
	return exc, cause
}

// sameName reports whether identifier nodes a and b spell the same name.
func sameName(t *syntax.Tree, a, b syntax.NodeID) bool {
	if a == syntax.NoNode || b == syntax.NoNode || t.Nodes[a].Kind() != "identifier" || t.Nodes[b].Kind() != "identifier" {
		return false
	}
	return string(t.Text(a)) == string(t.Text(b))
}

// unparen strips parentheses around an expression.
func unparen(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for n != syntax.NoNode && t.Nodes[n].Kind() == "parenthesized_expression" {
		var inner syntax.NodeID = syntax.NoNode
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Named && t.Nodes[c].Kind() != "comment" {
				inner = c
				break
			}
		}
		n = inner
	}
	return n
}

// caughtTypes returns the expressions a handler's type names: the elements
// of a tuple, or the expression itself.
func caughtTypes(t *syntax.Tree, typ syntax.NodeID) []syntax.NodeID {
	typ = unparen(t, typ)
	if typ == syntax.NoNode {
		return nil
	}
	if t.Nodes[typ].Kind() != "tuple" {
		return []syntax.NodeID{typ}
	}
	var out []syntax.NodeID
	for c := t.Nodes[typ].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Named && t.Nodes[c].Kind() != "comment" {
			out = append(out, unparen(t, c))
		}
	}
	return out
}

// resolvesTo reports whether reference n resolves to one of the qualified
// names. It builds no string: an identifier's qualified name is its
// import's or "builtins." and its text, and an attribute chain's ends in
// its last attribute name, which one of names must end in.
func resolvesTo(m *pyast.Module, n syntax.NodeID, names ...string) bool {
	t := m.Tree
	switch t.Kind(n) {
	case "identifier":
		imp, builtin := m.Names().Binding(n)
		for _, s := range names {
			switch {
			case imp != nil:
				if imp.Qualified != "" && imp.Qualified == s {
					return true
				}
			case builtin:
				if rest, ok := strings.CutPrefix(s, "builtins."); ok && rest == string(t.Text(n)) {
					return true
				}
			}
		}
		return false
	case "attribute":
		a := t.ChildByField(n, "attribute")
		if a == syntax.NoNode {
			return false
		}
		last := t.Text(a)
		match := false
		for _, s := range names {
			if len(s) > len(last) && s[len(s)-len(last)-1] == '.' && s[len(s)-len(last):] == string(last) {
				match = true
			}
		}
		if !match {
			return false
		}
		q, ok := m.QualifiedName(n)
		if !ok {
			return false
		}
		for _, s := range names {
			if q == s {
				return true
			}
		}
	}
	return false
}

// statements returns the statements of a block, comments excluded.
func statements(t *syntax.Tree, block syntax.NodeID) []syntax.NodeID {
	var out []syntax.NodeID
	if block == syntax.NoNode {
		return nil
	}
	for c := t.Nodes[block].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Named && t.Nodes[c].Kind() != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// forEachChildStatement calls fn for each statement directly nested in
// statement s: the statements of its blocks and of its clauses' blocks
// (elif, else, except, finally, match cases), with decorated definitions
// unwrapped. It does not recurse further.
func forEachChildStatement(t *syntax.Tree, s syntax.NodeID, fn func(syntax.NodeID)) {
	if t.Nodes[s].Kind() == "decorated_definition" {
		if d := t.ChildByField(s, "definition"); d != syntax.NoNode {
			s = d
		}
	}
	for c := t.Nodes[s].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		switch t.Nodes[c].Kind() {
		case "block":
			for _, x := range statements(t, c) {
				switch t.Nodes[x].Kind() {
				case "case_clause":
					forEachChildStatement(t, x, fn)
				case "decorated_definition":
					if d := t.ChildByField(x, "definition"); d != syntax.NoNode {
						fn(d)
					}
				default:
					fn(x)
				}
			}
		case "elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "case_clause":
			forEachChildStatement(t, c, fn)
		}
	}
}
