package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// DoNotCallGarbageCollectionExplicitly reports System.gc() and the like.
//
// Source: PMD errorprone/DoNotCallGarbageCollectionExplicitly.
var DoNotCallGarbageCollectionExplicitly = &nfi.Rule{
	ID: "JAVA-LIB-P03", Name: "do-not-call-garbage-collection-explicitly", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "explicit garbage collection",
		What:    "A call `System.gc()`, `Runtime.getRuntime().gc()` or `System.runFinalization()`/`Runtime.getRuntime().runFinalization()`.",
		Why:     "An explicit collection is a hint the JVM may ignore or obey at great cost; it papers over a memory problem.",
		Bad:     "class A {\n  void f() {\n    System.gc();\n  }\n}\n",
		Good:    "class A {\n  void f() {\n  }\n}\n",
		Source:  "PMD errorprone/DoNotCallGarbageCollectionExplicitly",
		Oracle:  "PMD 7.27.0 DoNotCallGarbageCollectionExplicitly: by the spelling of the receiver.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/DoNotCallGarbageCollectionExplicitly"}, Exact: true},
	Kinds:  []string{"method_invocation"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		obj, name, args := invocation(p.Tree, n)
		if args != 0 || (name != "gc" && name != "runFinalization") {
			return
		}
		switch obj {
		case "System", "java.lang.System", "Runtime.getRuntime()", "java.lang.Runtime.getRuntime()":
			p.Reportf(n, "do not explicitly trigger a garbage collection")
		}
	},
}
