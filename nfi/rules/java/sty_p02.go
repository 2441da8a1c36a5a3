package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// ClassNamingConventions reports type names that are not PascalCase.
//
// Source: PMD codestyle/ClassNamingConventions (default patterns
// [A-Z][a-zA-Z0-9]*).
var ClassNamingConventions = &nfi.Rule{
	ID: "JAVA-STY-P02", Name: "class-naming-conventions", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "type name not in UpperCamelCase",
		What:    "A class, interface, enum, record or annotation type whose name does not match `[A-Z][a-zA-Z0-9]*`.",
		Why:     "The Java naming conventions (JLS 6.1) tell types from variables and methods.",
		Bad:     "class my_parser {\n}\n",
		Good:    "class MyParser {\n}\n",
		Source:  "PMD codestyle/ClassNamingConventions",
		Oracle:  "PMD 7.27.0 ClassNamingConventions with its defaults (every pattern [A-Z][a-zA-Z0-9]*).",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/codestyle.xml/ClassNamingConventions"}, Exact: true},
	Kinds:  typeDeclKinds,
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if name := nameText(t, n); !pascalRe().MatchString(name) {
			p.Reportf(t.ChildByField(n, "name"), "the type name '%s' doesn't match '[A-Z][a-zA-Z0-9]*'", name)
		}
	},
}
