package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// DoNotTerminateVM reports System.exit, Runtime.exit and Runtime.halt.
//
// Source: PMD errorprone/DoNotTerminateVM.
var DoNotTerminateVM = &nfi.Rule{
	ID: "JAVA-LIB-P02", Name: "do-not-terminate-vm", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "the virtual machine is terminated",
		What:    "A call `System.exit(...)`, or `exit(...)`/`halt(...)` on `Runtime.getRuntime()`, outside a `main` method.",
		Why:     "Library and server code that ends the JVM takes the whole application (and container) down with it.",
		Bad:     "class A {\n  void f() {\n    System.exit(1);\n  }\n}\n",
		Good:    "class A {\n  void f() {\n    throw new IllegalStateException(\"cannot continue\");\n  }\n}\n",
		Exempt:  "Calls inside a method named main.",
		Source:  "PMD errorprone/DoNotTerminateVM",
		Oracle:  "PMD 7.27.0 DoNotTerminateVM: by the spelling of the receiver rather than its type.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/DoNotTerminateVM"}, Exact: true},
	Kinds:  []string{"method_invocation"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		obj, name, _ := invocation(t, n)
		hit := (obj == "System" || obj == "java.lang.System") && name == "exit" ||
			(obj == "Runtime.getRuntime()" || obj == "java.lang.Runtime.getRuntime()") && (name == "exit" || name == "halt")
		if !hit {
			return
		}
		for a := t.Parent(n); a != syntax.NoNode; a = t.Parent(a) {
			if t.Kind(a) == "method_declaration" {
				if nameText(t, a) == "main" {
					return
				}
				break
			}
		}
		p.Reportf(n, "System.exit() should not be used in J2EE/JEE apps")
	},
}
