package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// AvoidPrintStackTrace reports calls of printStackTrace() without
// arguments.
//
// Source: PMD bestpractices/AvoidPrintStackTrace.
var AvoidPrintStackTrace = &nfi.Rule{
	ID: "JAVA-ERR-P06", Name: "avoid-print-stack-trace", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "exception printed with printStackTrace()",
		What:    "A call `x.printStackTrace()` with no argument (Throwable's, which writes to standard error).",
		Why:     "The trace goes to standard error, out of the logging configuration, and the failure is otherwise ignored.",
		Bad:     "class A {\n  void f() {\n    try { g(); } catch (IllegalStateException e) { e.printStackTrace(); }\n  }\n  void g() {}\n}\n",
		Good:    "class A {\n  void f() {\n    try { g(); } catch (IllegalStateException e) { throw new IllegalArgumentException(e); }\n  }\n  void g() {}\n}\n",
		Source:  "PMD bestpractices/AvoidPrintStackTrace",
		Oracle:  "PMD 7.27.0 AvoidPrintStackTrace: PMD requires the receiver to resolve to a Throwable; this rule takes any receiver.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/bestpractices.xml/AvoidPrintStackTrace"}},
	Kinds:  []string{"method_invocation"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		if obj, name, args := invocation(p.Tree, n); obj != "" && name == "printStackTrace" && args == 0 {
			p.Reportf(n, "avoid printStackTrace(); use a logger call instead")
		}
	},
}
