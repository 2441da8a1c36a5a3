package pyparse

import (
	"slices"

	"github.com/polynfi/polynfi/internal/treenames"
)

// Kind numbers a node type; KindName gives its tree-sitter-python name.
type Kind uint16

// Field numbers a field; FieldName gives its tree-sitter-python name (0: none).
type Field uint16

var (
	kinds  = treenames.New[Kind]()
	fields = treenames.New[Field]("") // 0: no field
)

func kindOf(name string) Kind { return kinds.Of(name) }

func fieldOf(name string) Field { return fields.Of(name) }

// KindName returns the tree-sitter-python name of k.
func KindName(k Kind) string { return kinds.Name(k) }

// FieldName returns the tree-sitter-python name of f ("" for 0).
func FieldName(f Field) string { return fields.Name(f) }

// Node is one node of a Tree, in preorder, with the layout conventions of
// syntax.Node: half-open byte spans (rows and columns follow from them and
// Tree.LineStarts); Parent,
// FirstChild, NextSibling are indexes (-1: none) and End is one past the
// last descendant. Its memory layout is syntax.Node's (syntax checks it at
// compile time), so that syntax turns a pyparse tree into its own in place.
type Node struct {
	StartByte, EndByte uint32
	Parent             int32
	FirstChild         int32
	NextSibling        int32
	End                int32
	Kind               Kind
	Field              Field
	Named              bool
	Missing            bool // always false: pyparse inserts no nodes
	Extra              bool
	Reserved           uint8 // zero, or Relabel.Reserved; syntax keeps its language number here
}

// Tree is a parsed file.
type Tree struct {
	Source []byte
	Nodes  []Node
	// LineStarts are the byte offsets where Source's lines start ([0] is 0;
	// a line ends at "\n").
	LineStarts []uint32
	// Relabeled says that the nodes' kinds and fields are those of
	// Options.Relabel, not Kind and Field values.
	Relabeled bool
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
//
// deep is the start of the first node found more than maxTreeDepth levels
// deep (-1: none); the tree is then incomplete.
//
// rl, when not nil, renumbers the kinds and fields written (Options.Relabel).
func flatten(src []byte, nodes []bnode, root int32, extras []extra, into []Node, rl *Relabel) (out []Node, ls []uint32, deep int) {
	out = into[:0]
	if n := len(nodes) + len(extras); cap(into) < n {
		// some slack, so that the storage can be reused for most later
		// files; none for a large file
		if n < 1<<20 {
			n += n / 4
		}
		out = make([]Node, 0, n)
	}
	f := flattener{nodes: nodes, extras: extras, out: out, deep: -1, rl: rl}
	f.walk(root, -1)
	if f.deep >= 0 {
		return nil, nil, f.deep
	}
	// rows and columns are not stored: syntax.Tree derives them from the
	// byte offsets and the line starts
	ls = treenames.LineStarts(src)
	return f.out, ls, -1
}

// maxTreeDepth bounds the depth of a tree (nodes from the root to a
// leaf), polynfi's own limit, not CPython's: the rules walk trees
// recursively, and CPython's flat chains ("a and b and ...", "a = b =
// ..."), which ast.parse accepts at any length, are left- or
// right-nested in tree-sitter's shape, one level per operator. Every
// other nesting is bounded far below it by CPython's limits (maxDepth,
// maxLevel, maxIndent).
const maxTreeDepth = 200_000

// tooDeepTreeMsg reports a tree deeper than maxTreeDepth.
const tooDeepTreeMsg = "nested more than 200000 levels deep (an 'and'/'or' or assignment chain): " +
	"too deep for polynfi to score (CPython's ast.parse accepts it)"

type flattener struct {
	nodes  []bnode
	extras []extra
	ei     int
	out    []Node
	deep   int
	rl     *Relabel
}

// label returns the Kind, Field and Reserved that a node of kind k and
// field fd is written with.
func (f *flattener) label(k Kind, fd Field, named bool) (Kind, Field, uint8) {
	rl := f.rl
	if rl == nil {
		return k, fd, 0
	}
	if named {
		return Kind(rl.Named[k]), Field(rl.Fields[fd]), rl.Reserved
	}
	return Kind(rl.Anon[k]), Field(rl.Fields[fd]), rl.Reserved
}

// extra appends the next extra as a child of parent and returns its index.
func (f *flattener) extra(parent int32) int32 {
	e := f.extras[f.ei]
	f.ei++
	k := kComment
	if e.cont {
		k = kLineContinuation
	}
	k, fd, r := f.label(k, 0, true)
	id := f.put(e.start, e.end, parent, k, fd, true, r)
	f.out[id].End = id + 1
	f.out[id].Extra = true
	return id
}

// put appends a node without children or siblings yet, its End 0 (set
// once its subtree is written) and Extra false, and returns its index. The
// fields are written in place: a Node composed as a value and then copied
// was read back in 16-byte words over its narrower field stores, a
// store-forwarding stall on every node.
func (f *flattener) put(start, end uint32, parent int32, k Kind, fd Field, named bool, r uint8) int32 {
	i := len(f.out)
	if i == cap(f.out) {
		f.out = slices.Grow(f.out, 1)
	}
	f.out = f.out[:i+1]
	o := &f.out[i]
	o.StartByte, o.EndByte = start, end
	o.Parent, o.FirstChild, o.NextSibling, o.End = parent, -1, -1, 0
	o.Kind, o.Field = k, fd
	o.Named, o.Missing, o.Extra, o.Reserved = named, false, false, r
	return int32(i)
}

// walk writes the tree under root in preorder. It keeps its own stack:
// valid Python nests as deep as it likes ("a and b and ...", "a = b =
// ...", each a left- or right-nested chain in tree-sitter's shape).
func (f *flattener) walk(root, parent int32) int32 {
	type frame struct {
		id, me, prev, next int32 // next: the child to write next (-1: done)
	}
	open := func(id, parent int32) frame {
		b := &f.nodes[id]
		k, fd, r := f.label(b.kind, b.field, b.named)
		me := f.put(b.start, b.end, parent, k, fd, b.named, r)
		return frame{id: id, me: me, prev: -1, next: b.first}
	}
	stack := []frame{open(root, parent)}
	rootID := stack[0].me
	for len(stack) > 0 {
		fr := &stack[len(stack)-1]
		if c := fr.next; c >= 0 {
			fr.next = f.nodes[c].next
			cs := f.nodes[c].start
			for f.ei < len(f.extras) && f.extras[f.ei].start < cs {
				x := f.extra(fr.me)
				f.link(fr.me, fr.prev, x)
				fr.prev = x
			}
			if f.nodes[c].first < 0 {
				// a leaf, the commonest node: written at once, as put
				// writes a node but without the call (site-packages' CPU:
				// -4.5% in two A/Bs, -2% in a later one; writing interior
				// nodes the same way in open measured 4% slower)
				l := &f.nodes[c]
				k, fd, r := f.label(l.kind, l.field, l.named)
				i := len(f.out)
				if i == cap(f.out) {
					f.out = slices.Grow(f.out, 1)
				}
				f.out = f.out[:i+1]
				o, x := &f.out[i], int32(i)
				o.StartByte, o.EndByte = l.start, l.end
				o.Parent, o.FirstChild, o.NextSibling, o.End = fr.me, -1, -1, x+1
				o.Kind, o.Field = k, fd
				o.Named, o.Missing, o.Extra, o.Reserved = l.named, false, false, r
				f.link(fr.me, fr.prev, x)
				fr.prev = x
				continue
			}
			if len(stack) >= maxTreeDepth {
				f.deep = int(f.nodes[c].start)
				return rootID
			}
			child := open(c, fr.me)
			f.link(fr.me, fr.prev, child.me)
			fr.prev = child.me
			stack = append(stack, child)
			continue
		}
		// all children written: the extras that end inside the node (all
		// that are left, at the root)
		top := len(stack) == 1
		b := &f.nodes[fr.id]
		for f.ei < len(f.extras) && (f.extras[f.ei].end <= b.end || top && parent < 0) {
			x := f.extra(fr.me)
			f.link(fr.me, fr.prev, x)
			fr.prev = x
		}
		f.out[fr.me].End = int32(len(f.out))
		stack = stack[:len(stack)-1]
	}
	return rootID
}

func (f *flattener) link(parent, prev, c int32) {
	if prev < 0 {
		f.out[parent].FirstChild = c
	} else {
		f.out[prev].NextSibling = c
	}
}

// KindCount is the number of kinds (Kind values are below it).
func KindCount() int { return kinds.Len() }

// FieldCount is the number of fields, 0 included.
func FieldCount() int { return fields.Len() }
