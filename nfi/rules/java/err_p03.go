package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// AvoidCatchingThrowable reports catching Throwable.
//
// Source: PMD errorprone/AvoidCatchingThrowable.
var AvoidCatchingThrowable = &nfi.Rule{
	ID: "JAVA-ERR-P03", Name: "avoid-catching-throwable", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "catch of Throwable",
		What:    "A catch clause (each alternative of a multi-catch) naming Throwable or java.lang.Throwable.",
		Why:     "Throwable includes Errors (OutOfMemoryError, StackOverflowError) that a program cannot recover from.",
		Bad:     "class A {\n  void f() {\n    try { g(); } catch (Throwable e) { throw new IllegalStateException(e); }\n  }\n  void g() {}\n}\n",
		Good:    "class A {\n  void f() {\n    try { g(); } catch (IllegalArgumentException e) { throw new IllegalStateException(e); }\n  }\n  void g() {}\n}\n",
		Source:  "PMD errorprone/AvoidCatchingThrowable",
		Oracle:  "PMD 7.27.0 AvoidCatchingThrowable: by the type's name rather than its resolution.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/AvoidCatchingThrowable"}, Exact: true},
	Kinds:  []string{"catch_clause"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		for _, c := range caughtTypes(t, n) {
			if typeName(t, c) == "Throwable" && javaLangOrSimple(t, c) {
				p.Reportf(c, "a catch statement should never catch throwable since it includes errors")
			}
		}
	},
}
