package metrics

import (
	"sync"

	"github.com/polynfi/polynfi/syntax"
)

// kindClasses classifies node types for a walk that switches on them: it
// maps node-type names to small class numbers (0 for every other type), and
// gives, per grammar, a table from Node.KindID to class, so that a walk
// switches on a table entry rather than comparing Kind strings. Several
// symbols sharing a name get the name's class, so classOf(n) equals the
// class of n.Kind; ERROR nodes (KindID 0xFFFF) are class 0.
type kindClasses struct {
	names map[string]uint8
	once  [8]sync.Once // by syntax.Language
	tbl   [8][]uint8
}

// table returns the KindID → class table of language l, built on first use.
func (k *kindClasses) table(l syntax.Language) []uint8 {
	if l < 0 || int(l) >= len(k.tbl) {
		return nil
	}
	k.once[l].Do(func() {
		names := syntax.KindNames(l)
		tbl := make([]uint8, len(names))
		for i, n := range names {
			tbl[i] = k.names[n]
		}
		k.tbl[l] = tbl
	})
	return k.tbl[l]
}

// classOf returns the class of nd in table tbl.
func classOf(tbl []uint8, nd *syntax.Node) uint8 {
	if int(nd.KindID) < len(tbl) {
		return tbl[nd.KindID]
	}
	return 0
}
