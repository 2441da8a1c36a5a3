package jsparse

import "github.com/polynfi/polynfi/internal/treenames"

// Kind numbers a node type; KindName gives its tree-sitter-javascript name
// (an anonymous token's kind is named by its text: "(", "if").
type Kind uint16

// Field numbers a field; FieldName gives its tree-sitter-javascript name
// (0: none).
type Field uint16

var (
	kinds  = treenames.New[Kind]()
	fields = treenames.New[Field]("") // 0: no field
)

func kindOf(name string) Kind { return kinds.Of(name) }

func fieldOf(name string) Field { return fields.Of(name) }

// KindName returns the tree-sitter-javascript name of k.
func KindName(k Kind) string { return kinds.Name(k) }

// FieldName returns the tree-sitter-javascript name of f ("" for 0).
func FieldName(f Field) string { return fields.Name(f) }

// KindCount is the number of kinds (Kind values are below it).
func KindCount() int { return kinds.Len() }

// FieldCount is the number of fields, 0 included.
func FieldCount() int { return fields.Len() }

// Node is one node of a Tree, in preorder, with syntax.Node's layout and
// conventions: half-open byte spans; Parent, FirstChild, NextSibling are
// indexes (-1: none) and End is one past the last descendant. syntax
// checks the layout at compile time and converts a Tree in place.
type Node struct {
	StartByte, EndByte uint32
	Parent             int32
	FirstChild         int32
	NextSibling        int32
	End                int32
	Kind               Kind
	Field              Field
	Named              bool
	Missing            bool // always false: jsparse inserts no nodes
	Extra              bool // a comment
	Reserved           uint8
}

// Tree is a parsed file.
type Tree struct {
	Source []byte
	Nodes  []Node
	// LineStarts are the byte offsets where Source's lines start ([0] is
	// 0; a line ends at "\n").
	LineStarts []uint32
}

// bnode is a node under construction: children in a linked list.
type bnode struct {
	start, end        uint32
	first, last, next int32
	kind              Kind
	field             Field
	named             bool
}

// span is a comment's byte range.
type span struct{ start, end uint32 }

// flatten writes the arena tree under root in preorder and places each
// comment in the deepest node whose span holds it, before the first child
// that starts after it: tree-sitter shifts a comment onto the parse stack
// at once and a reduction keeps it only when tokens of the reduced node
// lie on both sides of it.
func flatten(src []byte, nodes []bnode, root int32, extras []span) *Tree {
	out := make([]Node, 0, len(nodes)+len(extras))
	ei := 0
	type frame struct{ id, me, prev, next int32 }
	link := func(parent, prev, c int32) {
		if prev < 0 {
			out[parent].FirstChild = c
		} else {
			out[prev].NextSibling = c
		}
	}
	extra := func(parent int32) int32 {
		e := extras[ei]
		ei++
		id := int32(len(out))
		out = append(out, Node{StartByte: e.start, EndByte: e.end, Parent: parent, FirstChild: -1, NextSibling: -1,
			End: id + 1, Kind: kComment, Named: true, Extra: true})
		return id
	}
	open := func(id, parent int32) frame {
		b := &nodes[id]
		me := int32(len(out))
		out = append(out, Node{StartByte: b.start, EndByte: b.end, Parent: parent, FirstChild: -1, NextSibling: -1,
			End: me + 1, Kind: b.kind, Field: b.field, Named: b.named})
		return frame{id: id, me: me, prev: -1, next: b.first}
	}
	stack := []frame{open(root, -1)}
	for len(stack) > 0 {
		fr := &stack[len(stack)-1]
		if c := fr.next; c >= 0 {
			fr.next = nodes[c].next
			for ei < len(extras) && extras[ei].start < nodes[c].start {
				x := extra(fr.me)
				link(fr.me, fr.prev, x)
				fr.prev = x
			}
			child := open(c, fr.me)
			link(fr.me, fr.prev, child.me)
			fr.prev = child.me
			if nodes[c].first < 0 {
				continue
			}
			stack = append(stack, child)
			continue
		}
		top := len(stack) == 1
		b := &nodes[fr.id]
		for ei < len(extras) && (extras[ei].end <= b.end || top) {
			x := extra(fr.me)
			link(fr.me, fr.prev, x)
			fr.prev = x
		}
		out[fr.me].End = int32(len(out))
		stack = stack[:len(stack)-1]
	}
	return &Tree{Source: src, Nodes: out, LineStarts: treenames.LineStarts(src)}
}
