package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// MissingJavadocMethod reports public methods and constructors without a
// Javadoc comment.
//
// Source: Checkstyle MissingJavadocMethod (scope public, allowedAnnotations
// Override, minLineCount -1).
var MissingJavadocMethod = &nfi.Rule{
	ID: "JAVA-DOC-R02", Name: "missing-javadoc-method", Aspect: nfi.Documentation, Kind: nfi.Required, Languages: java,
	Doc: nfi.Doc{
		Summary: "public method without Javadoc",
		What: "A method, constructor, compact constructor or annotation element that is public (interface members " +
			"implicitly) in types that are all public, without a Javadoc comment ending on the line before it " +
			"(blank and `//` lines between allowed).",
		Why:    "A public method is API: its contract (parameters, result, exceptions) belongs in its Javadoc.",
		Bad:    "/** A parser. */\npublic class Parser {\n  public int parse(String s) {\n    return s.length();\n  }\n}\n",
		Good:   "/** A parser. */\npublic class Parser {\n  /** Returns the length of s. */\n  public int parse(String s) {\n    return s.length();\n  }\n}\n",
		Exempt: "Methods annotated @Override (their documentation is inherited); members of anonymous classes.",
		Source: "Checkstyle MissingJavadocMethod",
		Oracle: "Checkstyle 12.3.1 MissingJavadocMethod with its defaults.",
	},
	Oracle: nfi.Oracle{Checkstyle: []string{"MissingJavadocMethod"}, Exact: true},
	Kinds:  []string{"method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if declaredScope(t, n) != scopePublic || surroundingScope(t, n) != scopePublic || hasAnnotation(t, n, "Override") {
			return
		}
		if !hasJavadoc(p, n) {
			p.Reportf(n, "missing a Javadoc comment")
		}
	},
}
