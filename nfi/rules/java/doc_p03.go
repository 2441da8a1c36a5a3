package java

import (
	"bytes"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// TodoComment reports comments containing "TODO:".
//
// Source: Checkstyle TodoComment (format TODO:).
var TodoComment = &nfi.Rule{
	ID: "JAVA-DOC-P03", Name: "todo-comment", Aspect: nfi.Documentation, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "TODO: comment",
		What:    "A line or block comment (Javadoc included) containing `TODO:`.",
		Why:     "A task comment documents unfinished work in the code instead of in the tracker.",
		Bad:     "class A {\n  // TODO: handle overflow\n  int x;\n}\n",
		Good:    "class A {\n  // overflow is handled by the caller\n  int x;\n}\n",
		Source:  "Checkstyle TodoComment",
		Oracle:  "Checkstyle 12.3.1 TodoComment with its default format: same semantics.",
	},
	Oracle: nfi.Oracle{Checkstyle: []string{"TodoComment"}, Exact: true},
	Kinds:  []string{"line_comment", "block_comment"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		if bytes.Contains(p.Tree.Text(n), []byte("TODO:")) {
			p.Reportf(n, "comment matches to-do format 'TODO:'")
		}
	},
}
