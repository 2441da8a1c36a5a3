package pyast

import (
	"testing"

	"github.com/polynfi/polynfi/syntax"
)

// TestFieldChild checks syntax.FieldKey.Child against Tree.ChildByField and
// KindSet.FirstChild against Tree.FirstChildOfKind on every node of a
// stdlib sample, for fields and kinds that occur and one that never does.
func TestFieldChild(t *testing.T) {
	names := []string{"body", "name", "attribute", "function", "left", "operator", "no_such_field"}
	fields := make([]*syntax.FieldKey, len(names))
	for i, name := range names {
		fields[i] = syntax.NewFieldKey(name)
	}
	kinds := []string{"string_start", "identifier", "block", "no_such_kind"}
	sets := make([]KindSet, len(kinds))
	for i, k := range kinds {
		sets[i] = NewKindSet(k)
	}
	checked := 0
	eachSampleTree(t, 40, func(path string, tree *syntax.Tree) {
		for n := range tree.Nodes {
			id := syntax.NodeID(n)
			for i, f := range fields {
				if got, want := f.Child(tree, id), tree.ChildByField(id, names[i]); got != want {
					t.Fatalf("%s: node %d field %s: Child %d, ChildByField %d", path, n, names[i], got, want)
				} else if want != syntax.NoNode {
					checked++
				}
			}
			for i, s := range sets {
				if got, want := s.FirstChild(tree, id), tree.FirstChildOfKind(id, kinds[i]); got != want {
					t.Fatalf("%s: node %d kind %s: FirstChild %d, FirstChildOfKind %d", path, n, kinds[i], got, want)
				}
			}
		}
	})
	if checked == 0 {
		t.Fatal("no field child found in the sample")
	}
	if fields[len(fields)-1].ID() != 0 {
		t.Error("a field no grammar has got a number")
	}
}
