package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// MethodNamingConventions reports method names that are not camelCase.
//
// Source: PMD codestyle/MethodNamingConventions (default pattern
// [a-z][a-zA-Z0-9]*).
var MethodNamingConventions = &nfi.Rule{
	ID: "JAVA-STY-P01", Name: "method-naming-conventions", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "method name not in lowerCamelCase",
		What:    "A method declaration whose name does not match `[a-z][a-zA-Z0-9]*` (no underscores, no leading capital).",
		Why:     "The Java naming conventions (JLS 6.1) make a method recognisable at a glance.",
		Bad:     "class A {\n  void Do_it() {\n  }\n}\n",
		Good:    "class A {\n  void doIt() {\n  }\n}\n",
		Exempt:  "Methods annotated @Override: the name is the overridden method's.",
		Source:  "PMD codestyle/MethodNamingConventions",
		Oracle:  "PMD 7.27.0 MethodNamingConventions with its defaults; JUnit 3 test methods (test_x) are judged by the same pattern here.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/codestyle.xml/MethodNamingConventions"}, Exact: true},
	Kinds:  []string{"method_declaration"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		name := nameText(t, n)
		if camelRe().MatchString(name) || hasAnnotation(t, n, "Override") {
			return
		}
		p.Reportf(t.ChildByField(n, "name"), "the method name '%s' doesn't match '[a-z][a-zA-Z0-9]*'", name)
	},
}
