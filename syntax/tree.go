package syntax

import "strings"

// NodeID indexes Tree.Nodes. Nodes are in preorder, so the subtree of node i
// is exactly the index range [i, Nodes[i].End). The root is 0. NoNode (-1)
// marks an absent parent, child or sibling.
type NodeID int32

// NoNode is the NodeID of an absent node.
const NoNode NodeID = -1

// Node is one syntax-tree node, named or anonymous (punctuation, keywords).
//
// Positions: rows are 0-based line numbers; columns and bytes are 0-based
// UTF-8 byte offsets; spans are half-open [Start, End).
//
// A Node holds no pointers and takes 32 bytes: its type name and field
// name are looked up by number (Kind, Field), and its rows and columns are
// not stored but derived from its byte span and the line starts
// (Tree.StartPoint, Tree.EndPoint). The rules walk the node array many
// times per file, and a smaller node means less memory to read and a lower
// peak (the node array is most of a large file's memory); a pointer-free
// array is also never scanned by the garbage collector and may be handed
// to C as it is.
//
// The Nodes of a parsed Tree are read-only: Parse writes them from C, into
// storage that released Trees hand back (see Tree.Release). Never store
// into them.
type Node struct {
	StartByte   uint32
	EndByte     uint32
	Parent      NodeID
	FirstChild  NodeID
	NextSibling NodeID
	End         NodeID // one past the last descendant, in preorder
	KindID      uint16 // grammar symbol (see Kind); index into KindNames(lang); 0xFFFF for ERROR
	FieldID     uint16 // the field in the parent (see Field), 0 when none; the same number in every grammar
	Named       bool   // a named node (not punctuation or a keyword token)
	Missing     bool   // inserted by error recovery, zero width
	Extra       bool   // an extra such as a comment
	lang        uint8  // the Language of the tree, for Kind
}

// Kind returns the node's grammar type ("function_definition",
// "identifier", "(", ...): "ERROR" for an error node (KindID 0xFFFF), ""
// for any other KindID its grammar does not have (a Node made by hand
// rather than by Parse has no grammar).
func (n *Node) Kind() string {
	if names := kindsByLang[n.lang%uint8(len(kindsByLang))]; int(n.KindID) < len(names) {
		return names[n.KindID]
	}
	if n.KindID == errorKindID {
		return "ERROR"
	}
	return ""
}

// errorKindID is the KindID of ERROR nodes (tree-sitter's ts_builtin_sym_error).
const errorKindID = 0xFFFF

// Field returns the node's field name in its parent ("body", "name", ...),
// "" when it has none.
func (n *Node) Field() string {
	if n.FieldID == 0 {
		return ""
	}
	return fieldNames[n.FieldID]
}

// Tree is a parsed file: its source, its language and all its nodes in
// preorder. A Tree holds no C memory, is immutable after Parse and is safe
// for concurrent reads.
type Tree struct {
	Lang       Language
	Source     []byte
	Nodes      []Node
	hasError   bool
	firstError NodeID
	lineStarts []uint32 // built by Parse
	owner      *Parser  // the Parser whose storage Release returns Nodes to
}

// Root returns the root node's ID (0). A tree of an empty file still has a root.
func (t *Tree) Root() NodeID { return 0 }

// HasError reports whether the tree contains an ERROR or MISSING node.
func (t *Tree) HasError() bool { return t.hasError }

// FirstError returns the first ERROR or MISSING node in preorder; ok is false
// when the tree has none.
func (t *Tree) FirstError() (id NodeID, ok bool) {
	if !t.hasError {
		return NoNode, false
	}
	return t.firstError, true
}

// Node returns a pointer to node id; it must not be modified.
func (t *Tree) Node(id NodeID) *Node { return &t.Nodes[id] }

// Kind returns the node's type, or "" for NoNode.
func (t *Tree) Kind(id NodeID) string {
	if id < 0 {
		return ""
	}
	return t.Nodes[id].Kind()
}

// Text returns the node's source text (a sub-slice of Source; do not modify).
func (t *Tree) Text(id NodeID) []byte {
	n := &t.Nodes[id]
	return t.Source[n.StartByte:n.EndByte]
}

// TextString returns the node's source text as a string.
func (t *Tree) TextString(id NodeID) string { return string(t.Text(id)) }

// Parent returns the node's parent, NoNode for the root.
func (t *Tree) Parent(id NodeID) NodeID { return t.Nodes[id].Parent }

// Children returns all children (named and anonymous) in order.
func (t *Tree) Children(id NodeID) []NodeID {
	var out []NodeID
	for c := t.Nodes[id].FirstChild; c != NoNode; c = t.Nodes[c].NextSibling {
		out = append(out, c)
	}
	return out
}

// NamedChildren returns the named children in order (comments included).
func (t *Tree) NamedChildren(id NodeID) []NodeID {
	var out []NodeID
	for c := t.Nodes[id].FirstChild; c != NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Named {
			out = append(out, c)
		}
	}
	return out
}

// FirstNamedChild returns the first named child that is not an extra
// (a comment), NoNode when there is none or id is NoNode.
func (t *Tree) FirstNamedChild(id NodeID) NodeID {
	if id == NoNode {
		return NoNode
	}
	for c := t.Nodes[id].FirstChild; c != NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Named && !t.Nodes[c].Extra {
			return c
		}
	}
	return NoNode
}

// ChildByField returns the first child with the given field name, NoNode when absent.
func (t *Tree) ChildByField(id NodeID, field string) NodeID {
	for c := t.Nodes[id].FirstChild; c != NoNode; c = t.Nodes[c].NextSibling {
		if fieldNames[t.Nodes[c].FieldID] == field {
			return c
		}
	}
	return NoNode
}

// ChildrenByField returns every child with the given field name.
func (t *Tree) ChildrenByField(id NodeID, field string) []NodeID {
	var out []NodeID
	for c := t.Nodes[id].FirstChild; c != NoNode; c = t.Nodes[c].NextSibling {
		if fieldNames[t.Nodes[c].FieldID] == field {
			out = append(out, c)
		}
	}
	return out
}

// FirstChildOfKind returns the first direct child of the given kind, NoNode when absent.
func (t *Tree) FirstChildOfKind(id NodeID, kind string) NodeID {
	for c := t.Nodes[id].FirstChild; c != NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Kind() == kind {
			return c
		}
	}
	return NoNode
}

// IsAncestor reports whether a is a proper ancestor of d.
func (t *Tree) IsAncestor(a, d NodeID) bool { return a < d && d < t.Nodes[a].End }

// Ancestor returns the nearest proper ancestor of id whose kind is one of kinds,
// NoNode when there is none.
func (t *Tree) Ancestor(id NodeID, kinds ...string) NodeID {
	for p := t.Nodes[id].Parent; p != NoNode; p = t.Nodes[p].Parent {
		for _, k := range kinds {
			if t.Nodes[p].Kind() == k {
				return p
			}
		}
	}
	return NoNode
}

// Line returns the 1-based start line of the node.
func (t *Tree) Line(id NodeID) int { return int(t.Row(t.Nodes[id].StartByte)) + 1 }

// Column returns the 1-based start column (UTF-8 bytes) of the node.
func (t *Tree) Column(id NodeID) int {
	_, c := t.StartPoint(id)
	return int(c) + 1
}

// Row returns the 0-based row (line) of byte offset b of Source: the last
// line starting at or before b (lines end at "\n"; an offset at or past the
// end of Source is on the last line). O(log lines).
func (t *Tree) Row(b uint32) uint32 { return uint32(rowFrom(t.lineStarts, 0, b)) }

// RowCursor finds the rows of byte offsets met in about increasing order
// (the nodes of a preorder walk): each search starts from the row of the
// last offset given to Row, so a walk over a file costs O(1) per offset
// rather than a binary search. Any order gives the right answer.
type RowCursor struct {
	ls []uint32
	r  int
}

// NewRowCursor returns a RowCursor over t's lines, at row 0.
func (t *Tree) NewRowCursor() RowCursor { return RowCursor{ls: t.lineStarts} }

// Row returns the 0-based row of byte offset b (as Tree.Row) and moves the
// cursor there.
func (c *RowCursor) Row(b uint32) uint32 {
	c.r = rowFrom(c.ls, c.r, b)
	return uint32(c.r)
}

// RowAfter returns the 0-based row of byte offset b (as Tree.Row) without
// moving the cursor: for the end of the node whose start was given to Row.
func (c *RowCursor) RowAfter(b uint32) uint32 { return uint32(rowFrom(c.ls, c.r, b)) }

// rowFrom returns the last index i with ls[i] <= b (0 when there is none),
// searching from index r: a few steps forward, then a binary search.
func rowFrom(ls []uint32, r int, b uint32) int {
	if r >= len(ls) || ls[r] > b {
		r = 0
	}
	for k := 0; k < 4; k++ {
		if r+1 >= len(ls) || ls[r+1] > b {
			return r
		}
		r++
	}
	lo, hi := r+1, len(ls) // the answer is lo-1: ls[lo-1] <= b < ls[lo]
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ls[m] <= b {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// Point returns the 0-based row and byte column of byte offset b (see Row).
func (t *Tree) Point(b uint32) (row, col uint32) {
	if len(t.lineStarts) == 0 {
		return 0, b
	}
	r := t.Row(b)
	return r, b - t.lineStarts[r]
}

// StartPoint returns the 0-based row and byte column of the node's first
// byte, as tree-sitter's ts_node_start_point (rows end at "\n").
func (t *Tree) StartPoint(id NodeID) (row, col uint32) { return t.Point(t.Nodes[id].StartByte) }

// EndPoint returns the 0-based row and byte column of the node's end (one
// past its last byte), as tree-sitter's ts_node_end_point.
func (t *Tree) EndPoint(id NodeID) (row, col uint32) { return t.Point(t.Nodes[id].EndByte) }

// SpanFrom returns StartPoint and EndPoint of node id together, searching
// the rows from row hint: any hint gives the right answer, and the row of
// a node met just before (as a rule reporting in source order meets them)
// spares the binary search over all the file's rows.
func (t *Tree) SpanFrom(id NodeID, hint int) (startRow, startCol, endRow, endCol uint32) {
	n := &t.Nodes[id]
	ls := t.lineStarts
	if len(ls) == 0 {
		return 0, n.StartByte, 0, n.EndByte
	}
	r := rowFrom(ls, max(hint, 0), n.StartByte)
	e := rowFrom(ls, r, n.EndByte)
	return uint32(r), n.StartByte - ls[r], uint32(e), n.EndByte - ls[e]
}

// LineStarts returns the byte offset of the start of every line (0-based
// rows). A file of n newline characters has n+1 lines.
func (t *Tree) LineStarts() []uint32 {
	return t.lineStarts
}

// Lines splits Source into physical lines without their terminators
// ("\n", "\r\n"). The result has LineStarts' length.
func (t *Tree) Lines() []string {
	s := string(t.Source)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// Walk calls fn for every node in preorder, starting at id. When fn returns
// false, the node's descendants are skipped.
func (t *Tree) Walk(id NodeID, fn func(NodeID) bool) {
	end := t.Nodes[id].End
	for i := id; i < end; {
		if fn(i) {
			i++
		} else {
			i = t.Nodes[i].End
		}
	}
}
