package metrics

import (
	"sync/atomic"

	"github.com/polynfi/polynfi/syntax"
)

// field is a field name of the tree (syntax.Node.Field) whose number
// (syntax.Node.FieldID, the same in every grammar and every tree of the
// process) is learnt from the first child found with that name: from then
// on child compares numbers instead of the names behind them. The number
// is stored atomically, so a field may be shared by goroutines.
type field struct {
	name string
	id   atomic.Uint32 // the FieldID, 0 until learnt
}

// fields of the hot visitors (Halstead, the complexity tracker)
var (
	fieldAlternative = &field{name: "alternative"}
	fieldArgument    = &field{name: "argument"}
	fieldAttribute   = &field{name: "attribute"}
	fieldBody        = &field{name: "body"}
	fieldDefinition  = &field{name: "definition"}
	fieldLeft        = &field{name: "left"}
	fieldName        = &field{name: "name"}
	fieldOperator    = &field{name: "operator"}
	fieldRight       = &field{name: "right"}
)

// child is t.ChildByField(n, f.name): n's first child in field f, NoNode
// when none.
func (f *field) child(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	if id := uint16(f.id.Load()); id != 0 {
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].FieldID == id {
				return c
			}
		}
		return syntax.NoNode
	}
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if nd := &t.Nodes[c]; nd.Field() == f.name {
			f.id.Store(uint32(nd.FieldID))
			return c
		}
	}
	return syntax.NoNode
}

// binaryFields returns the first children of n in the fields left,
// operator and right (NoNode for those absent), in one pass over the
// children: those of a binary operator or an augmented assignment.
func binaryFields(t *syntax.Tree, n syntax.NodeID) (left, op, right syntax.NodeID) {
	left, op, right = syntax.NoNode, syntax.NoNode, syntax.NoNode
	l, o, r := uint16(fieldLeft.id.Load()), uint16(fieldOperator.id.Load()), uint16(fieldRight.id.Load())
	if l == 0 || o == 0 || r == 0 {
		return fieldLeft.child(t, n), fieldOperator.child(t, n), fieldRight.child(t, n)
	}
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		switch id := t.Nodes[c].FieldID; {
		case id == 0:
		case id == l && left == syntax.NoNode:
			left = c
		case id == o && op == syntax.NoNode:
			op = c
		case id == r && right == syntax.NoNode:
			right = c
		}
	}
	return left, op, right
}
