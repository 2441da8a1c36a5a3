package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// ReplaceHashtableWithMap reports uses of java.util.Hashtable.
//
// Source: PMD bestpractices/ReplaceHashtableWithMap.
var ReplaceHashtableWithMap = &nfi.Rule{
	ID: "JAVA-LIB-P05", Name: "replace-hashtable-with-map", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "legacy Hashtable used",
		What:    "A type written `Hashtable` or `java.util.Hashtable`.",
		Why:     "Hashtable synchronises every call and rejects null; HashMap or ConcurrentHashMap replaced it.",
		Bad:     "import java.util.Hashtable;\nclass A {\n  Hashtable<String, String> m = new Hashtable<>();\n}\n",
		Good:    "import java.util.HashMap;\nimport java.util.Map;\nclass A {\n  Map<String, String> m = new HashMap<>();\n}\n",
		Source:  "PMD bestpractices/ReplaceHashtableWithMap",
		Oracle:  "PMD 7.27.0 ReplaceHashtableWithMap: by the type's name rather than its resolution.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/bestpractices.xml/ReplaceHashtableWithMap"}, Exact: true},
	Kinds:  []string{"type_identifier"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		if legacyType(p, n, "Hashtable") {
			p.Reportf(n, "consider replacing this Hashtable with the newer java.util.Map")
		}
	},
}
