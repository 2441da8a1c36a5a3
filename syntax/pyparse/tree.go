package pyparse

import (
	"bytes"
	"sort"
)

// Kind numbers a node type; KindName gives its tree-sitter-python name.
type Kind uint16

// Field numbers a field; FieldName gives its tree-sitter-python name (0: none).
type Field uint16

var (
	kindNames []string
	kindIDs   = map[string]Kind{}
	// FieldNames are the field names by Field; [0] is "".
	fieldNames = []string{""}
	fieldIDs   = map[string]Field{"": 0}
)

func kindOf(name string) Kind {
	if k, ok := kindIDs[name]; ok {
		return k
	}
	k := Kind(len(kindNames))
	kindNames = append(kindNames, name)
	kindIDs[name] = k
	return k
}

func fieldOf(name string) Field {
	if f, ok := fieldIDs[name]; ok {
		return f
	}
	f := Field(len(fieldNames))
	fieldNames = append(fieldNames, name)
	fieldIDs[name] = f
	return f
}

// KindName returns the tree-sitter-python name of k.
func KindName(k Kind) string { return kindNames[k] }

// FieldName returns the tree-sitter-python name of f ("" for 0).
func FieldName(f Field) string { return fieldNames[f] }

// Node is one node of a Tree, in preorder, with the layout conventions of
// syntax.Node: 0-based rows, byte columns, half-open byte spans; Parent,
// FirstChild, NextSibling are indexes (-1: none) and End is one past the
// last descendant.
type Node struct {
	StartByte, EndByte uint32
	StartRow, StartCol uint32
	EndRow, EndCol     uint32
	Parent             int32
	FirstChild         int32
	NextSibling        int32
	End                int32
	Kind               Kind
	Field              Field
	Named              bool
	Extra              bool
}

// Tree is a parsed file.
type Tree struct {
	Source []byte
	Nodes  []Node
}

// bnode is a node under construction: children in a linked list.
type bnode struct {
	start, end        uint32
	first, last, next int32
	kind              Kind
	field             Field
	named             bool
}

// flatten writes the arena tree under root in preorder, merging the
// extras (comments, line continuations) into the deepest node whose span
// holds them: tree-sitter attaches an extra to the node being built when
// tokens of that node lie on both sides of it.
func flatten(src []byte, nodes []bnode, root int32, extras []extra) []Node {
	out := make([]Node, 0, len(nodes)+len(extras))
	ls := lineStarts(src)
	ei := 0
	// starts come in preorder, so never decrease: a cursor finds their
	// row; an end is searched from its node's start row
	cur := 0
	startPos := func(b uint32) (uint32, uint32) {
		for cur+1 < len(ls) && ls[cur+1] <= b {
			cur++
		}
		return uint32(cur), b - ls[cur]
	}
	endPos := func(from uint32, b uint32) (uint32, uint32) {
		r := int(from)
		for k := 0; k < 8 && r+1 < len(ls) && ls[r+1] <= b; k++ {
			r++
		}
		if r+1 < len(ls) && ls[r+1] <= b {
			r = r + sort.Search(len(ls)-r, func(i int) bool { return ls[r+i] > b }) - 1
		}
		return uint32(r), b - ls[r]
	}
	var emitExtra func(parent int32)
	emitExtra = func(parent int32) {
		e := extras[ei]
		ei++
		n := Node{StartByte: e.start, EndByte: e.end, Parent: parent, FirstChild: -1, NextSibling: -1, Named: true, Extra: true}
		if e.cont {
			n.Kind = kLineContinuation
		} else {
			n.Kind = kComment
		}
		n.StartRow, n.StartCol = startPos(e.start)
		n.EndRow, n.EndCol = endPos(n.StartRow, e.end)
		n.End = int32(len(out)) + 1
		out = append(out, n)
	}
	var walk func(id, parent int32) int32
	walk = func(id, parent int32) int32 {
		b := &nodes[id]
		me := int32(len(out))
		n := Node{StartByte: b.start, EndByte: b.end, Parent: parent, FirstChild: -1, NextSibling: -1,
			Kind: b.kind, Field: b.field, Named: b.named}
		n.StartRow, n.StartCol = startPos(b.start)
		n.EndRow, n.EndCol = endPos(n.StartRow, b.end)
		out = append(out, n)
		prev := int32(-1)
		link := func(c int32) {
			if prev < 0 {
				out[me].FirstChild = c
			} else {
				out[prev].NextSibling = c
			}
			prev = c
		}
		for c := b.first; c >= 0; c = nodes[c].next {
			cs := nodes[c].start
			for ei < len(extras) && extras[ei].start < cs {
				link(int32(len(out)))
				emitExtra(me)
			}
			link(walk(c, me))
		}
		for ei < len(extras) && (extras[ei].end <= b.end || parent < 0) {
			link(int32(len(out)))
			emitExtra(me)
		}
		out[me].End = int32(len(out))
		return me
	}
	walk(root, -1)
	return out
}

func lineStarts(src []byte) []uint32 {
	ls := make([]uint32, 1, 1+bytes.Count(src, []byte{'\n'}))
	for i := 0; ; {
		k := bytes.IndexByte(src[i:], '\n')
		if k < 0 {
			return ls
		}
		i += k + 1
		ls = append(ls, uint32(i))
	}
}

// KindCount is the number of kinds (Kind values are below it).
func KindCount() int { return len(kindNames) }

// FieldCount is the number of fields, 0 included.
func FieldCount() int { return len(fieldNames) }
