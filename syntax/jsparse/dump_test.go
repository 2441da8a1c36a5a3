package jsparse_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/syntax/jsparse"
)

// TestDump prints tree-sitter's and jsparse's trees of the file
// JSPARSE_DUMP (a debugging aid; skipped without it).
func TestDump(t *testing.T) {
	f := os.Getenv("JSPARSE_DUMP")
	if f == "" {
		t.Skip("JSPARSE_DUMP not set")
	}
	src, err := os.ReadFile(f)
	if err != nil {
		src = []byte(f)
	}
	ts, err := syntax.ParseOnce(syntax.JavaScript, src)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range ts.Nodes {
		n := &ts.Nodes[i]
		d := 0
		for q := n.Parent; q >= 0; q = ts.Nodes[q].Parent {
			d++
		}
		fmt.Fprintf(&b, "%5d %s%s:%s %d-%d\n", i, strings.Repeat(" ", d), n.Field(), n.Kind(), n.StartByte, n.EndByte)
	}
	t.Log("tree-sitter:\n" + b.String())
	mine, err := jsparse.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	for i := range mine.Nodes {
		n := &mine.Nodes[i]
		d := 0
		for q := n.Parent; q >= 0; q = mine.Nodes[q].Parent {
			d++
		}
		fmt.Fprintf(&b, "%5d %s%s:%s %d-%d\n", i, strings.Repeat(" ", d), jsparse.FieldName(n.Field), jsparse.KindName(n.Kind), n.StartByte, n.EndByte)
	}
	t.Log("jsparse:\n" + b.String())
}
