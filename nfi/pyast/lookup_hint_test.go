package pyast

import (
	"math/rand/v2"
	"testing"

	"github.com/polynfi/polynfi/syntax"
)

// lookupSearch is Defs.Lookup without the hint: the reference.
func lookupSearch(d *Defs, n syntax.NodeID) (*Def, bool) {
	for i := range d.List {
		if d.List[i].Node >= n {
			if d.List[i].Node == n || d.List[i].Outer == n {
				return &d.List[i], true
			}
			return nil, false
		}
	}
	return nil, false
}

// TestLookupHint checks Lookup against a plain search for every node of a
// stdlib sample, asked in preorder, twice in a row and in random order.
func TestLookupHint(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	eachSampleTree(t, 60, func(path string, tree *syntax.Tree) {
		d := (&Module{Tree: tree, Path: path}).Definitions()
		order := make([]syntax.NodeID, 0, 3*len(tree.Nodes))
		for i := range tree.Nodes {
			order = append(order, syntax.NodeID(i), syntax.NodeID(i))
		}
		for range len(tree.Nodes) {
			order = append(order, syntax.NodeID(rng.IntN(len(tree.Nodes))))
		}
		for _, n := range order {
			got, gotOK := d.Lookup(n)
			want, wantOK := lookupSearch(d, n)
			if got != want || gotOK != wantOK {
				t.Fatalf("%s: Lookup(%d) = %p, %v, want %p, %v", path, n, got, gotOK, want, wantOK)
			}
		}
	})
}
