package pyast

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/syntax"
)

func TestScratchDump(t *testing.T) {
	f := os.Getenv("DUMP")
	if f == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(f)
	tr, err := syntax.ParseOnce(syntax.Python, src)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Nodes {
		n := &tr.Nodes[i]
		d := 0
		for p := n.Parent; p >= 0; p = tr.Nodes[p].Parent {
			d++
		}
		txt := ""
		if n.FirstChild < 0 {
			txt = fmt.Sprintf("%q", tr.TextString(syntax.NodeID(i)))
		}
		fmt.Printf("%s%s [%s] named=%v extra=%v %d:%d %s\n", strings.Repeat("  ", d), n.Kind, n.Field, n.Named, n.Extra, n.StartRow+1, n.StartCol, txt)
	}
}
