package style

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

// of returns the class of node nd of a Python tree.
func (k *kindClasses) of(nd *syntax.Node) uint8 {
	k.once.Do(func() {
		names := syntax.KindNames(syntax.Python)
		k.tbl = make([]uint8, len(names))
		for i, n := range names {
			k.tbl[i] = k.names[n]
		}
	})
	if int(nd.KindID) < len(k.tbl) {
		return k.tbl[nd.KindID]
	}
	return 0
}
