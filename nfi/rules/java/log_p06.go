package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// serializationMethods are private methods the JVM calls by name
// (java.io.Serializable).
var serializationMethods = map[string]bool{"writeObject": true, "readObject": true, "readObjectNoData": true,
	"writeReplace": true, "readResolve": true}

// UnusedPrivateMethod reports private methods that are never called.
//
// Source: PMD bestpractices/UnusedPrivateMethod.
var UnusedPrivateMethod = &nfi.Rule{
	ID: "JAVA-LOG-P06", Name: "unused-private-method", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "private method never called",
		What:    "A private method whose name is neither called nor referenced (`::name`) anywhere in its top-level class.",
		Why:     "An uncalled method is dead code that still has to be read and maintained.",
		Bad:     "class A {\n  private void helper() {\n  }\n}\n",
		Good:    "class A {\n  private void helper() {\n  }\n  void f() {\n    helper();\n  }\n}\n",
		Exempt:  "The serialization methods (writeObject, readObject, readObjectNoData, writeReplace, readResolve) and annotated methods.",
		Source:  "PMD bestpractices/UnusedPrivateMethod",
		Oracle:  "PMD 7.27.0 UnusedPrivateMethod: by name rather than by resolved overload.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/bestpractices.xml/UnusedPrivateMethod"}, Exact: true},
	Kinds:  []string{"method_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if !hasModifier(t, n, "private") || len(annotationNames(t, n)) > 0 {
			return
		}
		name := nameText(t, n)
		if serializationMethods[name] {
			return
		}
		top := outermostType(t, n)
		if anyIn(indexNames(p).calls[name], top, t.Node(top).End, syntax.NoNode) {
			return
		}
		p.Reportf(t.ChildByField(n, "name"), "avoid unused private methods such as '%s'", name)
	},
}
