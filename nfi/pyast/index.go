package pyast

import (
	"math/bits"

	"github.com/polynfi/polynfi/syntax"
)

// The node lists of a nodeIndex.
const (
	listRef       = iota // identifier and attribute
	listComment          // comment
	listDef              // function_definition, class_definition
	listImportish        // defs, lambda and the import statements: what buildImports and decoratorImports look at
	listBindable         // identifiers whose parent may bind them or declare them global: what buildNames looks at
	numLists
)

// nodeIndex lists, in preorder, the nodes of the few kinds that the
// analyses of this package (and the scans of some rules) look at, so that
// each walks its own nodes rather than every node of the file: one pass
// over the tree instead of one per analysis.
type nodeIndex struct {
	lists [numLists][]syntax.NodeID
}

// indexLists maps a Python KindID to the set (one bit per list) of the
// lists its nodes go in.
var indexLists = (&syntax.KindClasses{Names: map[string]uint8{
	"identifier": 1 << listRef, "attribute": 1 << listRef,
	"comment":             1 << listComment,
	"function_definition": 1<<listDef | 1<<listImportish,
	"class_definition":    1<<listDef | 1<<listImportish,
	"lambda":              1 << listImportish, "import_statement": 1 << listImportish,
	"import_from_statement": 1 << listImportish, "future_import_statement": 1 << listImportish,
}}).Table(syntax.Python)

// index returns the file's node index, built once per file together with
// its line table (Module.build).
func (m *Module) index() *nodeIndex {
	if m.nodeIndex == nil {
		m.build()
	}
	return m.nodeIndex
}

// addNode appends node i of nodes to the lists of the set lists (its
// kind's, see indexLists), and an identifier whose parent's kind may bind
// it (see bindableParents) to listBindable.
func (ix *nodeIndex) addNode(nodes []syntax.Node, i int, lists uint8) {
	if lists&(1<<listRef) != 0 {
		if p := nodes[i].Parent; p != syntax.NoNode && bindableParent(&nodes[p]) && identifierKinds.Has(&nodes[i]) {
			lists |= 1 << listBindable
		}
	}
	ix.add(lists, syntax.NodeID(i))
}

// add appends node id to the lists of the set lists (one bit per list).
func (ix *nodeIndex) add(lists uint8, id syntax.NodeID) {
	for b := lists; b != 0; b &= b - 1 {
		l := bits.TrailingZeros8(b)
		ix.lists[l] = append(ix.lists[l], id)
	}
}

// References returns the file's identifier and attribute nodes in
// preorder (an attribute chain before its parts), built once per file: for
// scans over references that need not look at every node.
func (m *Module) References() []syntax.NodeID { return m.index().lists[listRef] }

// BindableIdentifiers returns, in preorder, the file's identifiers whose
// parent's kind may bind them or declare them global (a target pattern such
// as pattern_list, tuple or list_splat_pattern, an assignment, for, with or
// except target, a walrus, def, class or parameter, or a global or nonlocal
// statement), built once per file with References. Every identifier that
// such a construct binds is listed; so are some that are read (an element
// of a tuple expression, say). The slice belongs to the module: callers
// must not modify it.
func (m *Module) BindableIdentifiers() []syntax.NodeID { return m.index().lists[listBindable] }
