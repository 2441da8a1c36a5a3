package pyast

import "github.com/polynfi/polynfi/syntax"

// Field is syntax.FieldKey: a field name resolved once to its number, for
// child lookups that compare numbers (Field.Child).
type Field = syntax.FieldKey

// NewField returns the Field named name (a field name such as "body").
func NewField(name string) *Field { return syntax.NewFieldKey(name) }

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
