package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/polynfi/polynfi/syntax"
)

func main() {
	src, _ := os.ReadFile(os.Args[1])
	t, err := syntax.ParseOnce(syntax.Python, src)
	if err != nil {
		panic(err)
	}
	depth := map[syntax.NodeID]int{}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		d := 0
		if n.Parent >= 0 {
			d = depth[n.Parent] + 1
		}
		depth[syntax.NodeID(i)] = d
		if !n.Named {
			continue
		}
		txt := ""
		if n.FirstChild < 0 {
			txt = " " + t.TextString(syntax.NodeID(i))
		}
		f := ""
		if n.Field != "" {
			f = n.Field + ": "
		}
		fmt.Printf("%s%s%s [%d]%s\n", strings.Repeat("  ", d), f, n.Kind, n.StartRow+1, txt)
	}
}
