package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// legacyType reports whether type_identifier n names the java.util type
// name: spelled name alone, or java.util.name.
func legacyType(p *nfi.Pass, n syntax.NodeID, name string) bool {
	t := p.Tree
	if string(t.Text(n)) != name {
		return false
	}
	par := t.Parent(n)
	if par != syntax.NoNode && t.Kind(par) == "scoped_type_identifier" {
		s := string(t.Text(par))
		return s == "java.util."+name
	}
	return true
}

// ReplaceVectorWithList reports uses of java.util.Vector.
//
// Source: PMD bestpractices/ReplaceVectorWithList.
var ReplaceVectorWithList = &nfi.Rule{
	ID: "JAVA-LIB-P04", Name: "replace-vector-with-list", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "legacy Vector used",
		What:    "A type written `Vector` or `java.util.Vector` (declarations, creations, casts, generics).",
		Why:     "Vector synchronises every call; ArrayList (or a concurrent collection where needed) replaced it in Java 1.2.",
		Bad:     "import java.util.Vector;\nclass A {\n  Vector<String> v = new Vector<>();\n}\n",
		Good:    "import java.util.ArrayList;\nimport java.util.List;\nclass A {\n  List<String> v = new ArrayList<>();\n}\n",
		Source:  "PMD bestpractices/ReplaceVectorWithList",
		Oracle:  "PMD 7.27.0 ReplaceVectorWithList: by the type's name rather than its resolution.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/bestpractices.xml/ReplaceVectorWithList"}, Exact: true},
	Kinds:  []string{"type_identifier"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		if legacyType(p, n, "Vector") {
			p.Reportf(n, "consider replacing this Vector with the newer java.util.List")
		}
	},
}
