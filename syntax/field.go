package syntax

import "sync"

// FieldKey is a field name (Node.Field) resolved, on first use, to its
// number (Node.FieldID, the same in every grammar and every tree of the
// process), for child lookups in per-node loops: Child compares numbers
// where Tree.ChildByField compares the names behind them. Declare one as a
// package variable with NewFieldKey; it is safe for concurrent use.
type FieldKey struct {
	name string
	once sync.Once
	id   uint16
}

// NewFieldKey returns the key of the field name (such as "body").
func NewFieldKey(name string) *FieldKey { return &FieldKey{name: name} }

// Name returns the field's name.
func (f *FieldKey) Name() string { return f.name }

// ID returns the field's number (Node.FieldID), 0 when no grammar has a
// field of that name.
func (f *FieldKey) ID() uint16 {
	f.once.Do(func() {
		grammarsOnce.Do(loadGrammars)
		f.id = fieldIDs[f.name]
	})
	return f.id
}

// Child is t.ChildByField(n, f.Name()): n's first child in field f, NoNode
// when none.
func (f *FieldKey) Child(t *Tree, n NodeID) NodeID {
	id := f.ID()
	if id == 0 {
		return NoNode
	}
	for c := t.Nodes[n].FirstChild; c != NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].FieldID == id {
			return c
		}
	}
	return NoNode
}
