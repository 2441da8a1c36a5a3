package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// rawExceptions are the types PMD AvoidThrowingRawExceptionTypes reports.
var rawExceptions = map[string]bool{"Throwable": true, "Exception": true, "Error": true, "RuntimeException": true}

// thrownCreations calls fn with each `new T(...)` in the subtree of a throw
// statement n whose type's simple name satisfies want.
func thrownCreations(t *syntax.Tree, n syntax.NodeID, want func(string) bool, fn func(c syntax.NodeID, name string)) {
	for i := n + 1; i < t.Node(n).End; i++ {
		if t.Kind(i) != "object_creation_expression" {
			continue
		}
		typ := t.ChildByField(i, "type")
		if name := typeName(t, typ); want(name) && javaLangOrSimple(t, typ) {
			fn(i, name)
		}
	}
}

// AvoidThrowingRawExceptionTypes reports throwing new Exception,
// RuntimeException, Throwable or Error.
//
// Source: PMD design/AvoidThrowingRawExceptionTypes.
var AvoidThrowingRawExceptionTypes = &nfi.Rule{
	ID: "JAVA-ERR-P04", Name: "avoid-throwing-raw-exception-types", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "thrown exception of a raw type",
		What: "A `new Throwable`, `new Exception`, `new Error` or `new RuntimeException` (simple or java.lang " +
			"name) anywhere in a throw statement's expression.",
		Why:    "A raw type says nothing of the failure: callers can only catch everything or nothing.",
		Bad:    "class A {\n  void f(int x) {\n    if (x < 0) throw new RuntimeException(\"negative\");\n  }\n}\n",
		Good:   "class A {\n  void f(int x) {\n    if (x < 0) throw new IllegalArgumentException(\"negative\");\n  }\n}\n",
		Source: "PMD design/AvoidThrowingRawExceptionTypes",
		Oracle: "PMD 7.27.0 AvoidThrowingRawExceptionTypes: by the type's name rather than its resolution.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/design.xml/AvoidThrowingRawExceptionTypes"}, Exact: true},
	Kinds:  []string{"throw_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		thrownCreations(p.Tree, n, func(s string) bool { return rawExceptions[s] }, func(c syntax.NodeID, name string) {
			p.Reportf(c, "avoid throwing raw exception type %s", name)
		})
	},
}
