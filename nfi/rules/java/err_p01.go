package java

import (
	"regexp"
	"sync"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// allowedCatchName is PMD EmptyCatchBlock's allowExceptionNameRegex default.
var allowedCatchName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(ignored|expected)$`) })

// EmptyCatchBlock reports catch blocks with no statement.
//
// Source: PMD errorprone/EmptyCatchBlock (defaults: allowCommentedBlocks
// false, allowExceptionNameRegex ^(ignored|expected)$).
var EmptyCatchBlock = &nfi.Rule{
	ID: "JAVA-ERR-P01", Name: "empty-catch-block", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "catch block swallows the exception",
		What: "A catch clause whose block holds no statement (a comment alone does not count), unless the caught " +
			"parameter is named `ignored` or `expected`.",
		Why:    "An empty catch hides the failure: the program goes on in a state nobody checked.",
		Bad:    "class A {\n  void f() {\n    try { g(); } catch (java.io.IOException e) { }\n  }\n  void g() throws java.io.IOException {}\n}\n",
		Good:   "class A {\n  void f() {\n    try { g(); } catch (java.io.IOException ignored) { }\n  }\n  void g() throws java.io.IOException {}\n}\n",
		Exempt: "A parameter named ignored or expected says the exception is meant to be dropped.",
		Source: "PMD errorprone/EmptyCatchBlock",
		Oracle: "PMD 7.27.0 EmptyCatchBlock with its defaults: same semantics.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/EmptyCatchBlock"}, Exact: true},
	Kinds:  []string{"catch_clause"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		body := t.ChildByField(n, "body")
		if !emptyBlock(t, body) {
			return
		}
		if param := t.FirstChildOfKind(n, "catch_formal_parameter"); param != syntax.NoNode {
			if allowedCatchName().MatchString(nameText(t, param)) {
				return
			}
		}
		p.Reportf(n, "avoid empty catch blocks")
	},
}
