package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// LocalVariableNamingConventions reports local variable names that are not
// camelCase.
//
// Source: PMD codestyle/LocalVariableNamingConventions.
var LocalVariableNamingConventions = &nfi.Rule{
	ID: "JAVA-STY-P03", Name: "local-variable-naming-conventions", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "local variable name not in lowerCamelCase",
		What: "A local variable (final or not, for loop variables, try resources, catch parameters) whose name " +
			"does not match `[a-z][a-zA-Z0-9]*`. The unnamed variable `_` and for-each variables (PMD 7.27.0 does not judge them) are exempt.",
		Why:    "Snake_case or capitalised locals read as constants or types to a Java reader.",
		Bad:    "class A {\n  int f() {\n    int my_count = 1;\n    return my_count;\n  }\n}\n",
		Good:   "class A {\n  int f() {\n    int myCount = 1;\n    return myCount;\n  }\n}\n",
		Source: "PMD codestyle/LocalVariableNamingConventions",
		Oracle: "PMD 7.27.0 LocalVariableNamingConventions with its defaults.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/codestyle.xml/LocalVariableNamingConventions"}, Exact: true},
	Kinds:  []string{"local_variable_declaration", "resource", "catch_formal_parameter"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		var names []syntax.NodeID
		if t.Kind(n) == "local_variable_declaration" {
			for _, d := range declarators(t, n) {
				names = append(names, t.ChildByField(d, "name"))
			}
		} else if nm := t.ChildByField(n, "name"); nm != syntax.NoNode {
			names = append(names, nm)
		}
		for _, nm := range names {
			if nm == syntax.NoNode {
				continue
			}
			s := string(t.Text(nm))
			if s != "_" && !camelRe().MatchString(s) {
				p.Reportf(nm, "the local variable name '%s' doesn't match '[a-z][a-zA-Z0-9]*'", s)
			}
		}
	},
}
