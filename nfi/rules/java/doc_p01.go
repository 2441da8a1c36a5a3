package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// UncommentedEmptyMethodBody reports empty method bodies without a
// comment.
//
// Source: PMD documentation/UncommentedEmptyMethodBody.
var UncommentedEmptyMethodBody = &nfi.Rule{
	ID: "JAVA-DOC-P01", Name: "uncommented-empty-method-body", Aspect: nfi.Documentation, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "empty method body without a comment",
		What:    "A method whose body block is empty and holds no comment.",
		Why:     "An empty body may be intended (a no-op hook) or forgotten; a comment says which.",
		Bad:     "class A {\n  void reset() {\n  }\n}\n",
		Good:    "class A {\n  void reset() {\n    // nothing to reset: A is stateless\n  }\n}\n",
		Source:  "PMD documentation/UncommentedEmptyMethodBody",
		Oracle:  "PMD 7.27.0 UncommentedEmptyMethodBody: same semantics.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/documentation.xml/UncommentedEmptyMethodBody"}, Exact: true},
	Kinds:  []string{"method_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if b := t.ChildByField(n, "body"); emptyBlock(t, b) && !hasComment(t, b) {
			p.Reportf(b, "document empty method body")
		}
	},
}
