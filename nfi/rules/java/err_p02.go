package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// caughtTypes returns the type nodes a catch clause names (each
// alternative of a multi-catch).
func caughtTypes(t *syntax.Tree, n syntax.NodeID) []syntax.NodeID {
	param := t.FirstChildOfKind(n, "catch_formal_parameter")
	if param == syntax.NoNode {
		return nil
	}
	ct := t.FirstChildOfKind(param, "catch_type")
	if ct == syntax.NoNode {
		return nil
	}
	return t.NamedChildren(ct)
}

// genericExceptions are PMD 7.27.0 AvoidCatchingGenericException's default
// types (Throwable among them since the rule absorbed AvoidCatchingThrowable).
var genericExceptions = map[string]bool{"NullPointerException": true, "RuntimeException": true, "Exception": true, "Throwable": true}

// AvoidCatchingGenericException reports catching Throwable, Exception,
// RuntimeException or NullPointerException.
//
// Source: PMD errorprone/AvoidCatchingGenericException.
var AvoidCatchingGenericException = &nfi.Rule{
	ID: "JAVA-ERR-P02", Name: "avoid-catching-generic-exception", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "catch of a generic exception type",
		What: "A catch clause (each alternative of a multi-catch) naming Throwable, Exception, RuntimeException or " +
			"NullPointerException (simple or java.lang-qualified name).",
		Why:    "A broad catch also handles the failures nobody anticipated, and hides programming errors.",
		Bad:    "class A {\n  void f() {\n    try { g(); } catch (Exception e) { throw new IllegalStateException(e); }\n  }\n  void g() {}\n}\n",
		Good:   "class A {\n  void f() {\n    try { g(); } catch (IllegalArgumentException e) { throw new IllegalStateException(e); }\n  }\n  void g() {}\n}\n",
		Source: "PMD errorprone/AvoidCatchingGenericException",
		Oracle: "PMD 7.27.0 AvoidCatchingGenericException: PMD resolves the type; this rule reads its name, so a " +
			"class of the project named Exception differs.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/errorprone.xml/AvoidCatchingGenericException"}, Exact: true},
	Kinds:  []string{"catch_clause"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		for _, c := range caughtTypes(t, n) {
			name := typeName(t, c)
			if genericExceptions[name] && javaLangOrSimple(t, c) {
				p.Reportf(c, "avoid catching generic exceptions such as %s", name)
			}
		}
	},
}

// javaLangOrSimple reports whether a type is spelled by its simple name or
// as java.lang.X.
func javaLangOrSimple(t *syntax.Tree, n syntax.NodeID) bool {
	if t.Kind(n) == "type_identifier" {
		return true
	}
	s := string(t.Text(n))
	return len(s) > 10 && s[:10] == "java.lang."
}
