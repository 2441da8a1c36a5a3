package syntax

import (
	"sync"
	"unsafe"

	"github.com/polynfi/polynfi/syntax/pyparse"
)

// pyKinds maps pyparse kinds to tree-sitter-python symbols, per
// named-ness, and pyparse fields to Node.FieldID; built on first use.
var (
	pyKindsOnce sync.Once
	pyNamed     []uint16
	pyAnon      []uint16
	pyFields    []uint16
	pyRelabel   *pyparse.Relabel // the three as pyparse writes them in its flatten pass
)

func loadPyKinds() {
	g, err := grammarFor(Python)
	if err != nil {
		panic(err)
	}
	n := pyparse.KindCount()
	pyNamed = make([]uint16, n)
	pyAnon = make([]uint16, n)
	for k := 0; k < n; k++ {
		name := pyparse.KindName(pyparse.Kind(k))
		pyNamed[k] = g.lang.IdForNodeKind(name, true)
		pyAnon[k] = g.lang.IdForNodeKind(name, false)
	}
	nf := pyparse.FieldCount()
	pyFields = make([]uint16, nf)
	for f := 1; f < nf; f++ {
		pyFields[f] = fieldIDs[pyparse.FieldName(pyparse.Field(f))]
	}
	pyRelabel = &pyparse.Relabel{Named: pyNamed, Anon: pyAnon, Fields: pyFields, Reserved: uint8(Python)}
}

// ParsePythonGo parses src with the Go parser (package pyparse) for the
// Python 3 grammar of minor version minor (0: the newest) and returns the
// Tree Parse builds with tree-sitter for the same source (same kinds,
// symbols, fields, spans and positions), or the first syntax error as
// CPython reports it. A Tree from it has no error nodes. Prefer
// Parser.ParsePython in loops (it reuses released trees' storage).
func ParsePythonGo(src []byte, minor int) (*Tree, *pyparse.Error) {
	return goPython(src, pyparse.Options{Minor: minor}, nil)
}

// ParsePython parses src as Python 3.opt.Minor (0: the newest; outside 8-14
// the nearest; opt.Decoded: src is text already decoded by its PEP 263
// declaration; opt.Nodes is ignored) with the Go parser (package pyparse): it returns the tree
// Parse(Python, src) returns when tree-sitter parses src without an error
// (same kinds, symbols, fields, spans and positions), and decides validity
// as CPython's ast.parse does: a nil Tree and the first syntax error
// (1-based line, 1-based column in characters, CPython's message) when
// CPython rejects src. The tree's storage comes from a released tree when
// it fits, and goes back to the Parser with Release.
func (p *Parser) ParsePython(src []byte, opt pyparse.Options) (*Tree, *pyparse.Error) {
	var spare []pyparse.Node
	if p.spare != nil {
		spare = unsafe.Slice((*pyparse.Node)(unsafe.Pointer(unsafe.SliceData(p.spare))), cap(p.spare))[:0]
	}
	opt.Nodes = spare
	if p.pyScratch == nil {
		p.pyScratch = new(pyparse.Scratch)
	}
	opt.Scratch = p.pyScratch
	t, err := goPython(src, opt, p)
	if t != nil && cap(spare) > 0 && unsafe.SliceData(t.Nodes) == unsafe.SliceData(p.spare) {
		p.spare = nil // now the tree's
	}
	return t, err
}

// ValidPython reports whether src is a valid Python 3 module of the newest
// grammar as CPython's ast.parse decides (ParsePython without an error);
// the tree is released at once, its storage kept for p's next parse.
func (p *Parser) ValidPython(src []byte) bool {
	t, err := p.ParsePython(src, pyparse.Options{})
	if err != nil || t == nil {
		return false
	}
	t.Release()
	return true
}

func goPython(src []byte, opt pyparse.Options, owner *Parser) (*Tree, *pyparse.Error) {
	pyKindsOnce.Do(loadPyKinds)
	// the kinds and fields are tree-sitter's as pyparse writes the tree
	opt.Relabel = pyRelabel
	pt, perr := pyparse.Parse(src, opt)
	if perr != nil {
		return nil, perr
	}
	// same layout (checked below): the nodes are ours as they are
	nodes := unsafe.Slice((*Node)(unsafe.Pointer(unsafe.SliceData(pt.Nodes))), cap(pt.Nodes))[:len(pt.Nodes)]
	if !pt.Relabeled {
		// rewrite the kinds and fields in place
		for i := range pt.Nodes {
			p := &pt.Nodes[i]
			id := pyAnon[p.Kind]
			if p.Named {
				id = pyNamed[p.Kind]
			}
			n := &nodes[i]
			n.KindID, n.FieldID, n.lang = id, pyFields[p.Field], uint8(Python)
		}
	}
	pt.Nodes = nil
	return &Tree{Lang: Python, Source: pt.Source, Nodes: nodes, firstError: NoNode,
		lineStarts: pt.LineStarts, owner: owner}, nil
}

// pyparse.Node must have Node's memory layout (ParsePythonGo reuses its
// array): these do not compile when a size or an offset differs.
var (
	_ [unsafe.Sizeof(Node{}) - unsafe.Sizeof(pyparse.Node{})]byte
	_ [unsafe.Sizeof(pyparse.Node{}) - unsafe.Sizeof(Node{})]byte
	_ [unsafe.Offsetof(Node{}.Parent) - unsafe.Offsetof(pyparse.Node{}.Parent)]byte
	_ [unsafe.Offsetof(pyparse.Node{}.Parent) - unsafe.Offsetof(Node{}.Parent)]byte
	_ [unsafe.Offsetof(Node{}.End) - unsafe.Offsetof(pyparse.Node{}.End)]byte
	_ [unsafe.Offsetof(pyparse.Node{}.End) - unsafe.Offsetof(Node{}.End)]byte
	_ [unsafe.Offsetof(Node{}.KindID) - unsafe.Offsetof(pyparse.Node{}.Kind)]byte
	_ [unsafe.Offsetof(pyparse.Node{}.Kind) - unsafe.Offsetof(Node{}.KindID)]byte
	_ [unsafe.Offsetof(Node{}.FieldID) - unsafe.Offsetof(pyparse.Node{}.Field)]byte
	_ [unsafe.Offsetof(pyparse.Node{}.Field) - unsafe.Offsetof(Node{}.FieldID)]byte
	_ [unsafe.Offsetof(Node{}.Named) - unsafe.Offsetof(pyparse.Node{}.Named)]byte
	_ [unsafe.Offsetof(pyparse.Node{}.Named) - unsafe.Offsetof(Node{}.Named)]byte
	_ [unsafe.Offsetof(Node{}.Missing) - unsafe.Offsetof(pyparse.Node{}.Missing)]byte
	_ [unsafe.Offsetof(pyparse.Node{}.Missing) - unsafe.Offsetof(Node{}.Missing)]byte
	_ [unsafe.Offsetof(Node{}.Extra) - unsafe.Offsetof(pyparse.Node{}.Extra)]byte
	_ [unsafe.Offsetof(pyparse.Node{}.Extra) - unsafe.Offsetof(Node{}.Extra)]byte
	_ [unsafe.Offsetof(Node{}.lang) - unsafe.Offsetof(pyparse.Node{}.Reserved)]byte
	_ [unsafe.Offsetof(pyparse.Node{}.Reserved) - unsafe.Offsetof(Node{}.lang)]byte
	_ [unsafe.Offsetof(Node{}.EndByte) - unsafe.Offsetof(pyparse.Node{}.EndByte)]byte
	_ [unsafe.Offsetof(pyparse.Node{}.EndByte) - unsafe.Offsetof(Node{}.EndByte)]byte
)
