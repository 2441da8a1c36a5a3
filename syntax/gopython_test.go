package syntax

import (
	"os"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
)

// TestParsePythonGoNodes checks that ParsePythonGo's trees are Parse's,
// node for node (every field of Node: symbols, fields, spans, points,
// links), on a standard-library sample wherever tree-sitter has no error
// and CPython's grammar (3.11 here, the oracle's) accepts the file.
func TestParsePythonGoNodes(t *testing.T) {
	p := NewParser()
	defer p.Close()
	same, compared := 0, 0
	for _, f := range corpus.StdlibSample(t, 120) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := p.Parse(Python, src)
		if err != nil {
			t.Fatal(err)
		}
		gt, perr := ParsePythonGo(src, 11)
		if ts.HasError() || perr != nil {
			continue
		}
		compared++
		if len(gt.Nodes) != len(ts.Nodes) {
			t.Errorf("%s: %d nodes, tree-sitter %d", f, len(gt.Nodes), len(ts.Nodes))
			continue
		}
		ok := true
		for i := range ts.Nodes {
			if ts.Nodes[i] != gt.Nodes[i] {
				t.Errorf("%s: node %d (%s): %+v, tree-sitter %+v", f, i, ts.Nodes[i].Kind(), gt.Nodes[i], ts.Nodes[i])
				ok = false
				break
			}
		}
		if ok {
			same++
		}
	}
	if compared < 100 {
		t.Fatalf("only %d files compared", compared)
	}
	t.Logf("identical Node arrays on %d of %d files", same, compared)
}
