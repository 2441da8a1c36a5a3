package syntax

import (
	"sync"

	"github.com/polynfi/polynfi/syntax/pyparse"
)

// pyKinds maps pyparse kinds to tree-sitter-python symbols, per
// named-ness, and pyparse fields to Node.FieldID; built on first use.
var (
	pyKindsOnce sync.Once
	pyNamed     []uint16
	pyAnon      []uint16
	pyFields    []uint16
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
}

// ParsePythonGo parses src with the Go parser (package pyparse) for the
// Python 3 grammar of minor version minor (0: the newest) and returns the
// Tree Parse builds with tree-sitter for the same source (same kinds,
// symbols, fields, spans and positions), or the first syntax error as
// CPython reports it. A Tree from it has no error nodes.
func ParsePythonGo(src []byte, minor int) (*Tree, *pyparse.Error) {
	pt, perr := pyparse.Parse(src, pyparse.Options{Minor: minor})
	if perr != nil {
		return nil, perr
	}
	pyKindsOnce.Do(loadPyKinds)
	nodes := make([]Node, len(pt.Nodes))
	for i := range pt.Nodes {
		p := &pt.Nodes[i]
		id := pyAnon[p.Kind]
		if p.Named {
			id = pyNamed[p.Kind]
		}
		nodes[i] = Node{
			StartByte: p.StartByte, EndByte: p.EndByte,
			StartRow: p.StartRow, StartCol: p.StartCol, EndRow: p.EndRow, EndCol: p.EndCol,
			Parent: NodeID(p.Parent), FirstChild: NodeID(p.FirstChild), NextSibling: NodeID(p.NextSibling),
			End: NodeID(p.End), KindID: id, FieldID: pyFields[p.Field],
			Named: p.Named, Extra: p.Extra, lang: uint8(Python),
		}
	}
	return &Tree{Lang: Python, Source: pt.Source, Nodes: nodes, firstError: NoNode,
		lineStarts: computeLineStarts(pt.Source)}, nil
}
