package syntax

import "sync"

// KindClasses classifies node types for walks that switch on them: Names
// maps node-type names to small class numbers (0 for every other type), and
// Table gives, per grammar, a table from Node.KindID to that class, so that
// a walk reads a table entry instead of comparing Kind strings. Several
// symbols sharing a name get the name's class; ERROR nodes (KindID 0xFFFF)
// are class 0. A KindClasses is safe for concurrent use; declare it as a
// package variable and do not modify Names after the first Table call.
type KindClasses struct {
	Names map[string]uint8
	once  [LastLanguage + 1]sync.Once // by Language
	tbl   [LastLanguage + 1]KindTable
}

// Table returns the KindID → class table of grammar l, built on first use;
// nil (every node class 0) for an unknown language.
func (k *KindClasses) Table(l Language) KindTable {
	if l < Python || l > LastLanguage {
		return nil
	}
	k.once[l].Do(func() {
		names := KindNames(l)
		tbl := make(KindTable, len(names))
		for i, n := range names {
			tbl[i] = k.Names[n]
		}
		k.tbl[l] = tbl
	})
	return k.tbl[l]
}

// KindTable maps Node.KindID to a class (see KindClasses).
type KindTable []uint8

// Of returns the class of node nd, a node of the table's grammar.
func (t KindTable) Of(nd *Node) uint8 {
	if int(nd.KindID) < len(t) {
		return t[nd.KindID]
	}
	return 0
}
