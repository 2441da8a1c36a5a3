package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// UncommentedEmptyConstructor reports empty non-private constructors
// without a comment.
//
// Source: PMD documentation/UncommentedEmptyConstructor
// (ignoreExplicitConstructorInvocation false).
var UncommentedEmptyConstructor = &nfi.Rule{
	ID: "JAVA-DOC-P02", Name: "uncommented-empty-constructor", Aspect: nfi.Documentation, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "empty constructor without a comment",
		What: "A constructor that is not private (enum constructors are) whose body is empty and holds no comment; " +
			"`super()` or `this(...)` counts as a statement.",
		Why:    "An empty constructor is either noise or a deliberate restriction; a comment says which.",
		Bad:    "class A {\n  A() {\n  }\n}\n",
		Good:   "class A {\n  A() {\n    // for frameworks that instantiate A reflectively\n  }\n}\n",
		Exempt: "Constructors annotated @Inject or @Autowired.",
		Source: "PMD documentation/UncommentedEmptyConstructor",
		Oracle: "PMD 7.27.0 UncommentedEmptyConstructor with its defaults.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/documentation.xml/UncommentedEmptyConstructor"}, Exact: true},
	Kinds:  []string{"constructor_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if declaredScope(t, n) == scopePrivate || hasAnnotation(t, n, "Inject") || hasAnnotation(t, n, "Autowired") {
			return
		}
		if b := t.ChildByField(n, "body"); emptyBlock(t, b) && !hasComment(t, b) {
			p.Reportf(n, "document empty constructor")
		}
	},
}
