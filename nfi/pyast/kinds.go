package pyast

import "github.com/polynfi/polynfi/syntax"

// KindSet is a set of Python node kinds indexed by Node.KindID, for kind
// tests in loops over every node: one bounds check and one load instead of
// a string comparison. Several grammar symbols may share a kind name (an
// aliased `identifier`, for one); the set holds all of them.
type KindSet syntax.KindTable

// NewKindSet returns the set of the Python grammar symbols named kinds. A
// name that is not a Python node kind adds nothing.
func NewKindSet(kinds ...string) KindSet {
	names := make(map[string]uint8, len(kinds))
	for _, k := range kinds {
		names[k] = 1
	}
	return KindSet((&syntax.KindClasses{Names: names}).Table(syntax.Python))
}

// Has reports whether node n's kind is in the set (false for ERROR nodes,
// whose KindID is outside the grammar's symbols).
func (s KindSet) Has(n *syntax.Node) bool { return syntax.KindTable(s).Of(n) != 0 }

// FirstChild is n's first child whose kind is in s, syntax.NoNode when
// none: t.FirstChildOfKind(n, kind) for the set of one kind.
func (s KindSet) FirstChild(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if s.Has(&t.Nodes[c]) {
			return c
		}
	}
	return syntax.NoNode
}
