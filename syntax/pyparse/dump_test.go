package pyparse_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/syntax"
)

// dumpTS renders a tree-sitter tree one node a line (debugging aid).
func dumpTS(t *syntax.Tree) string {
	var b strings.Builder
	depth := map[syntax.NodeID]int{}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		d := 0
		if n.Parent != syntax.NoNode {
			d = depth[n.Parent] + 1
		}
		depth[syntax.NodeID(i)] = d
		sr, sc := t.StartPoint(syntax.NodeID(i))
		er, ec := t.EndPoint(syntax.NodeID(i))
		fmt.Fprintf(&b, "%s%s%s [%d:%d-%d:%d] %d-%d named=%v extra=%v\n", strings.Repeat("  ", d), fieldPrefix(n.Field()), n.Kind(), sr, sc, er, ec, n.StartByte, n.EndByte, n.Named, n.Extra)
	}
	return b.String()
}

func fieldPrefix(f string) string {
	if f == "" {
		return ""
	}
	return f + ": "
}

// TestDumpTS prints tree-sitter's tree of the file PYPARSE_DUMP names, a
// debugging aid for finding tree-sitter's shape of a construct
// (PYPARSE_DUMP=x.py go test ./syntax/pyparse -run TestDumpTS -v). It backs
// no claim and does nothing without the variable.
func TestDumpTS(t *testing.T) {
	f := os.Getenv("PYPARSE_DUMP")
	if f == "" {
		t.Skip("PYPARSE_DUMP not set (debugging aid)")
	}
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := syntax.ParseOnce(syntax.Python, src)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Print(dumpTS(tr))
}
