package java

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// LongVariable reports variable names longer than 17 characters.
//
// Source: PMD codestyle/LongVariable (minimum 17).
var LongVariable = &nfi.Rule{
	ID: "JAVA-STY-P10", Name: "long-variable", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited, Languages: java,
	Doc: nfi.Doc{
		Summary: "variable name over 17 characters",
		What: "A field, local variable, parameter (lambda and catch parameters, resources, record components) or enum " +
			"constant whose name is longer than 17 characters (UTF-16 code units).",
		Why:    "Very long names crowd every expression they appear in.",
		Bad:    "class A {\n  int numberOfIncomingRequests = 0;\n}\n",
		Good:   "class A {\n  int incomingRequests = 0;\n}\n",
		Source: "PMD codestyle/LongVariable",
		Oracle: "PMD 7.27.0 LongVariable with minimum 17.",
	},
	Oracle: nfi.Oracle{PMD: []string{"category/java/codestyle.xml/LongVariable"}, Exact: true},
	Kinds:  []string{"variable_declarator", "formal_parameter", "catch_formal_parameter", "enhanced_for_statement", "resource", "enum_constant", "lambda_expression"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		var names []syntax.NodeID
		if t.Kind(n) == "lambda_expression" {
			params := t.ChildByField(n, "parameters")
			switch t.Kind(params) {
			case "identifier":
				names = append(names, params)
			case "inferred_parameters":
				names = append(names, t.NamedChildren(params)...)
			}
		} else if nm := t.ChildByField(n, "name"); nm != syntax.NoNode {
			names = append(names, nm)
		}
		for _, nm := range names {
			if t.Kind(nm) != "identifier" {
				continue
			}
			if s := t.Text(nm); utf16Len(s) > 17 {
				p.Reportf(nm, "avoid excessively long variable names like %s", s)
			}
		}
	},
}

// utf16Len is the length of UTF-8 text in UTF-16 code units (Java's
// String.length).
func utf16Len(b []byte) int {
	n := 0
	for _, r := range string(b) {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
