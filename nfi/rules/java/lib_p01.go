package java

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// SystemPrintln reports printing to System.out or System.err.
//
// Source: PMD bestpractices/SystemPrintln.
var SystemPrintln = &nfi.Rule{
	ID: "JAVA-LIB-P01", Name: "system-println", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "output through System.out or System.err",
		What:    "A call of a method whose name starts with print (print, println, printf) on `System.out` or `System.err` (or java.lang.System's).",
		Why:     "Console output bypasses the logging framework: no levels, no destinations, no way to turn it off.",
		Bad:     "class A {\n  void f(int x) {\n    System.out.println(x);\n  }\n}\n",
		Good:    "class A {\n  private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(\"a\");\n  void f(int x) {\n    LOG.info(() -> \"x=\" + x);\n  }\n}\n",
		Source:  "PMD bestpractices/SystemPrintln",
		Oracle:  "PMD 7.27.0 SystemPrintln: by the spelling System.out/System.err rather than the resolution of System.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/bestpractices.xml/SystemPrintln"}, Exact: true},
	Kinds:  []string{"method_invocation"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		obj, name, _ := invocation(p.Tree, n)
		if !strings.HasPrefix(name, "print") {
			return
		}
		switch obj {
		case "System.out", "System.err", "java.lang.System.out", "java.lang.System.err":
			p.Reportf(n, "usage of System.out/err")
		}
	},
}
