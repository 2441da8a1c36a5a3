package logic

import (
	"sync"

	"github.com/polynfi/polynfi/syntax"
)

// kindClasses classifies Python node types for a walk that switches on
// them: names maps node-type names to small class numbers (0 for every
// other type), and table maps Node.KindID to the class of the node's name,
// so that a walk reads a table entry instead of comparing Kind strings.
// Several symbols sharing a name get that name's class; ERROR nodes (KindID
// 0xFFFF) are class 0.
type kindClasses struct {
	names map[string]uint8
	once  sync.Once
	tbl   []uint8
}

// table returns the KindID → class table of Python, built on first use.
func (k *kindClasses) table() kindTable {
	k.once.Do(func() {
		names := syntax.KindNames(syntax.Python)
		k.tbl = make([]uint8, len(names))
		for i, n := range names {
			k.tbl[i] = k.names[n]
		}
	})
	return k.tbl
}

// kindTable maps Node.KindID to a class (see kindClasses).
type kindTable []uint8

// of returns the class of node nd of a Python tree.
func (tbl kindTable) of(nd *syntax.Node) uint8 {
	if int(nd.KindID) < len(tbl) {
		return tbl[nd.KindID]
	}
	return 0
}
