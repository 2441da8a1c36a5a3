package syntax

import (
	"sync"
	"unsafe"

	"github.com/polynfi/polynfi/syntax/jsparse"
)

// jsKinds maps jsparse kinds to tree-sitter-javascript symbols, per
// named-ness, and jsparse fields to Node.FieldID; built on first use.
var (
	jsKindsOnce sync.Once
	jsNamed     []uint16
	jsAnon      []uint16
	jsFields    []uint16
)

func loadJSKinds() {
	g, err := grammarFor(JavaScript)
	if err != nil {
		panic(err)
	}
	n := jsparse.KindCount()
	jsNamed = make([]uint16, n)
	jsAnon = make([]uint16, n)
	for k := 0; k < n; k++ {
		name := jsparse.KindName(jsparse.Kind(k))
		jsNamed[k] = g.lang.IdForNodeKind(name, true)
		jsAnon[k] = g.lang.IdForNodeKind(name, false)
	}
	nf := jsparse.FieldCount()
	jsFields = make([]uint16, nf)
	for f := 1; f < nf; f++ {
		jsFields[f] = fieldIDs[jsparse.FieldName(jsparse.Field(f))]
	}
}

// ParseJavaScriptGo parses src with the Go parser (package jsparse) and
// returns the Tree Parse(JavaScript, src) builds with tree-sitter for the
// same source (same kinds, symbols, fields, spans and positions), or
// jsparse's error: a syntax error, or one wrapping jsparse.ErrUnsupported
// for a construct it does not parse yet (see jsparse's package comment
// for what it covers). On an error the caller parses with tree-sitter.
func ParseJavaScriptGo(src []byte) (*Tree, error) {
	jt, err := jsparse.Parse(src)
	if err != nil {
		return nil, err
	}
	jsKindsOnce.Do(loadJSKinds)
	// same layout (checked below): rewrite the kinds and fields in place
	nodes := unsafe.Slice((*Node)(unsafe.Pointer(unsafe.SliceData(jt.Nodes))), cap(jt.Nodes))[:len(jt.Nodes)]
	for i := range jt.Nodes {
		p := &jt.Nodes[i]
		id := jsAnon[p.Kind]
		if p.Named {
			id = jsNamed[p.Kind]
		}
		f := jsFields[p.Field]
		n := &nodes[i]
		n.KindID, n.FieldID, n.lang = id, f, uint8(JavaScript)
	}
	jt.Nodes = nil
	return &Tree{Lang: JavaScript, Source: jt.Source, Nodes: nodes, firstError: NoNode, lineStarts: jt.LineStarts}, nil
}

// ParseJavaScript is ParseJavaScriptGo for a Parser: the tree's node
// storage goes back to p with Release (for its next tree-sitter parse).
func (p *Parser) ParseJavaScript(src []byte) (*Tree, error) {
	t, err := ParseJavaScriptGo(src)
	if t != nil {
		t.owner = p
	}
	return t, err
}

// jsparse.Node must have Node's memory layout (ParseJavaScriptGo reuses
// its array): these do not compile when a size or an offset differs.
var (
	_ [unsafe.Sizeof(Node{}) - unsafe.Sizeof(jsparse.Node{})]byte
	_ [unsafe.Sizeof(jsparse.Node{}) - unsafe.Sizeof(Node{})]byte
	_ [unsafe.Offsetof(Node{}.Parent) - unsafe.Offsetof(jsparse.Node{}.Parent)]byte
	_ [unsafe.Offsetof(jsparse.Node{}.Parent) - unsafe.Offsetof(Node{}.Parent)]byte
	_ [unsafe.Offsetof(Node{}.End) - unsafe.Offsetof(jsparse.Node{}.End)]byte
	_ [unsafe.Offsetof(jsparse.Node{}.End) - unsafe.Offsetof(Node{}.End)]byte
	_ [unsafe.Offsetof(Node{}.KindID) - unsafe.Offsetof(jsparse.Node{}.Kind)]byte
	_ [unsafe.Offsetof(jsparse.Node{}.Kind) - unsafe.Offsetof(Node{}.KindID)]byte
	_ [unsafe.Offsetof(Node{}.FieldID) - unsafe.Offsetof(jsparse.Node{}.Field)]byte
	_ [unsafe.Offsetof(jsparse.Node{}.Field) - unsafe.Offsetof(Node{}.FieldID)]byte
	_ [unsafe.Offsetof(Node{}.Named) - unsafe.Offsetof(jsparse.Node{}.Named)]byte
	_ [unsafe.Offsetof(jsparse.Node{}.Named) - unsafe.Offsetof(Node{}.Named)]byte
	_ [unsafe.Offsetof(Node{}.Missing) - unsafe.Offsetof(jsparse.Node{}.Missing)]byte
	_ [unsafe.Offsetof(jsparse.Node{}.Missing) - unsafe.Offsetof(Node{}.Missing)]byte
	_ [unsafe.Offsetof(Node{}.Extra) - unsafe.Offsetof(jsparse.Node{}.Extra)]byte
	_ [unsafe.Offsetof(jsparse.Node{}.Extra) - unsafe.Offsetof(Node{}.Extra)]byte
	_ [unsafe.Offsetof(Node{}.lang) - unsafe.Offsetof(jsparse.Node{}.Reserved)]byte
	_ [unsafe.Offsetof(jsparse.Node{}.Reserved) - unsafe.Offsetof(Node{}.lang)]byte
	_ [unsafe.Offsetof(Node{}.EndByte) - unsafe.Offsetof(jsparse.Node{}.EndByte)]byte
	_ [unsafe.Offsetof(jsparse.Node{}.EndByte) - unsafe.Offsetof(Node{}.EndByte)]byte
)
