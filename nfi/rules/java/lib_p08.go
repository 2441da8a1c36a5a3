package java

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// DontImportSun reports imports of sun.* packages.
//
// Source: PMD errorprone/DontImportSun; Checkstyle IllegalImport (its
// default list is sun.*).
var DontImportSun = &nfi.Rule{
	ID: "JAVA-LIB-P08", Name: "dont-import-sun", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "import of a sun.* package",
		What:    "An import (single, on demand or static) of a name under `sun.`.",
		Why:     "sun.* are JDK internals: unsupported, changing without notice, closed by the module system.",
		Bad:     "import sun.misc.Unsafe;\nclass A {\n}\n",
		Good:    "import java.lang.invoke.VarHandle;\nclass A {\n}\n",
		Source:  "PMD errorprone/DontImportSun",
		Oracle:  "PMD 7.27.0 DontImportSun: same semantics.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/DontImportSun"}, Exact: true},
	Kinds:  []string{"import_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		for _, c := range t.NamedChildren(n) {
			if k := t.Kind(c); k == "scoped_identifier" || k == "identifier" {
				s := string(t.Text(c))
				if strings.HasPrefix(s, "sun.") {
					p.Reportf(n, "avoid importing anything from the sun.* packages")
				}
				return
			}
		}
	},
}
