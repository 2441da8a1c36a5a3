package pyast

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/syntax"
)

// indexByWalk is the definition of the node index: every node of the
// tree, in preorder, in the lists of its kind.
func indexByWalk(t *syntax.Tree) *nodeIndex {
	ix := &nodeIndex{}
	for i := range t.Nodes {
		if k := int(t.Nodes[i].KindID); k < len(indexLists) {
			ix.addNode(t.Nodes, i, indexLists[k])
		}
	}
	return ix
}

// TestIndexInLinesPass checks the index that buildLines fills on its way
// (it skips the insides of strings in its main loop) against a walk over
// every node.
func TestIndexInLinesPass(t *testing.T) {
	check := func(name string, tree *syntax.Tree) {
		t.Helper()
		m := NewModule(name, tree)
		want := indexByWalk(tree)
		got := m.index()
		for l := range numLists {
			if d := cmp.Diff(want.lists[l], got.lists[l]); d != "" && (len(want.lists[l]) > 0 || len(got.lists[l]) > 0) {
				t.Errorf("%s: list %d (-walk +lines pass):\n%s", name, l, d)
			}
		}
	}
	src := "x = f'{a.b} {c!r:{w}}' + '''\n{y}'''\n# c\ndef g(): return lambda: h(f'{k}')\nimport os\n"
	check("src", namesModule(t, src).Tree)
	eachSampleTree(t, 60, check)
}
