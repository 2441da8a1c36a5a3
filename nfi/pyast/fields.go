package pyast

import (
	"sync/atomic"

	"github.com/polynfi/polynfi/syntax"
)

// Field is a field name of the tree (syntax.Node.Field) for child lookups
// in per-node visitors: Child compares field numbers (syntax.Node.FieldID)
// instead of the names behind them. The number is the same in every grammar
// and every tree of the process; Field learns it from the first child found
// with that name and stores it atomically, so a Field may be shared by
// goroutines. Declare one as a package variable with NewField.
type Field struct {
	name string
	id   atomic.Uint32 // the FieldID, 0 until learnt
}

// NewField returns the Field named name (a field name such as "body").
func NewField(name string) *Field { return &Field{name: name} }

// Child is t.ChildByField(n, f's name): n's first child in field f,
// syntax.NoNode when none.
func (f *Field) Child(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	if id := uint16(f.id.Load()); id != 0 {
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].FieldID == id {
				return c
			}
		}
		return syntax.NoNode
	}
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if nd := &t.Nodes[c]; nd.FieldID != 0 && nd.Field() == f.name {
			f.id.Store(uint32(nd.FieldID))
			return c
		}
	}
	return syntax.NoNode
}

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
