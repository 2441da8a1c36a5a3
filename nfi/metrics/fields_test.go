package metrics

import (
	"os"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/syntax"
)

// TestFieldChild checks the field keys and binaryFields against
// syntax.Tree.ChildByField on every node of a 40-file stdlib sample.
func TestFieldChild(t *testing.T) {
	fields := []*syntax.FieldKey{fieldAlternative, fieldArgument, fieldAttribute, fieldBody, fieldDefinition, fieldLeft, fieldName, fieldOperator, fieldRight}
	p := syntax.NewParser()
	defer p.Close()
	checked := 0
	for _, f := range corpus.StdlibSample(t, 40) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := p.Parse(syntax.Python, src)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tree.Nodes {
			n := syntax.NodeID(i)
			for _, fd := range fields {
				if got, want := fd.Child(tree, n), tree.ChildByField(n, fd.Name()); got != want {
					t.Fatalf("%s: node %d: %s: Child = %d, ChildByField = %d", f, n, fd.Name(), got, want)
				}
			}
			l, o, r := binaryFields(tree, n)
			if l != tree.ChildByField(n, "left") || o != tree.ChildByField(n, "operator") || r != tree.ChildByField(n, "right") {
				t.Fatalf("%s: node %d: binaryFields = %d, %d, %d", f, n, l, o, r)
			}
			if l != syntax.NoNode {
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no node with a left field in the sample")
	}
}
