package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// FormalParameterNamingConventions reports parameter names that are not
// camelCase.
//
// Source: PMD codestyle/FormalParameterNamingConventions.
var FormalParameterNamingConventions = &nfi.Rule{
	ID: "JAVA-STY-P04", Name: "formal-parameter-naming-conventions", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "parameter name not in lowerCamelCase",
		What:    "A method, constructor or lambda parameter whose name does not match `[a-z][a-zA-Z0-9]*`; `_` is exempt.",
		Why:     "The Java naming conventions (JLS 6.1) for variables apply to parameters.",
		Bad:     "class A {\n  int f(int My_x) {\n    return My_x;\n  }\n}\n",
		Good:    "class A {\n  int f(int myX) {\n    return myX;\n  }\n}\n",
		Exempt:  "Record components (PMD judges them as fields).",
		Source:  "PMD codestyle/FormalParameterNamingConventions",
		Oracle:  "PMD 7.27.0 FormalParameterNamingConventions with its defaults.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/codestyle.xml/FormalParameterNamingConventions"}, Exact: true},
	Kinds:  []string{"formal_parameter", "spread_parameter", "lambda_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		var names []syntax.NodeID
		switch t.Kind(n) {
		case "lambda_expression":
			params := t.ChildByField(n, "parameters")
			switch t.Kind(params) {
			case "identifier":
				names = append(names, params)
			case "inferred_parameters":
				names = append(names, t.NamedChildren(params)...)
			}
		case "formal_parameter":
			if par := t.Parent(n); par != syntax.NoNode && t.Parent(par) != syntax.NoNode && t.Kind(t.Parent(par)) == "record_declaration" {
				return
			}
			names = append(names, t.ChildByField(n, "name"))
		case "spread_parameter":
			if d := t.FirstChildOfKind(n, "variable_declarator"); d != syntax.NoNode {
				names = append(names, t.ChildByField(d, "name"))
			}
		}
		for _, nm := range names {
			if nm == syntax.NoNode || t.Kind(nm) != "identifier" {
				continue
			}
			s := string(t.Text(nm))
			if s != "_" && !camelRe().MatchString(s) {
				p.Reportf(nm, "the parameter name '%s' doesn't match '[a-z][a-zA-Z0-9]*'", s)
			}
		}
	},
}
