package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// AvoidStringBufferField reports fields of type StringBuffer or
// StringBuilder.
//
// Source: PMD bestpractices/AvoidStringBufferField.
var AvoidStringBufferField = &nfi.Rule{
	ID: "JAVA-LIB-P09", Name: "avoid-string-buffer-field", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "StringBuffer or StringBuilder field",
		What:    "A field declared with type StringBuffer or StringBuilder (simple or java.lang name).",
		Why:     "A builder kept in a field holds its whole buffer for the object's lifetime; builders belong in locals.",
		Bad:     "class A {\n  private StringBuilder buf = new StringBuilder();\n}\n",
		Good:    "class A {\n  String f(int x) {\n    StringBuilder buf = new StringBuilder();\n    return buf.append(x).toString();\n  }\n}\n",
		Source:  "PMD bestpractices/AvoidStringBufferField",
		Oracle:  "PMD 7.27.0 AvoidStringBufferField: by the type's name rather than its resolution.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/bestpractices.xml/AvoidStringBufferField"}, Exact: true},
	Kinds:  []string{"field_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		typ := t.ChildByField(n, "type")
		if name := typeName(t, typ); (name == "StringBuffer" || name == "StringBuilder") && javaLangOrSimple(t, typ) {
			p.Reportf(n, "StringBuffers/StringBuilders can grow considerably, and so may become a source of memory leaks if held within objects with long lifetimes")
		}
	},
}
