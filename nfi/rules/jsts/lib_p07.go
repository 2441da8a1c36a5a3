package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoUnsafeFunctionType reports the `Function` type.
//
// Source: typescript-eslint no-unsafe-function-type.
var NoUnsafeFunctionType = &nfi.Rule{
	ID: "JS-LIB-P07", Name: "no-unsafe-function-type", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: tsOnly,
	Doc: nfi.Doc{
		Summary: "the Function type",
		What:    "The global type `Function` used as a type (annotations, type arguments, implements/extends clauses).",
		Why:     "`Function` accepts any callable and returns any: a typed signature keeps calls checked.",
		Bad:     "function run(cb: Function) {\n  cb();\n}\n",
		Good:    "function run(cb: () => void) {\n  cb();\n}\n",
		Exempt:  "A file that declares a type or value named Function.",
		Source:  "typescript-eslint no-unsafe-function-type",
		Oracle:  "typescript-eslint 8.73.0 @typescript-eslint/no-unsafe-function-type; the global is resolved by the file's declarations.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"@typescript-eslint/no-unsafe-function-type"}, Exact: true},
	Kinds:  []string{"type_identifier"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		if t.TextString(n) != "Function" || isTypeDeclName(t, n) || declaredType(p, "Function") {
			return
		}
		p.Reportf(n, "the `Function` type accepts any function-like value")
	},
}

// isTypeDeclName reports a type_identifier that names a declaration (a
// class, interface, type alias or type parameter) rather than a use.
func isTypeDeclName(t *syntax.Tree, n syntax.NodeID) bool {
	par := t.Parent(n)
	if par == syntax.NoNode {
		return true
	}
	switch t.Kind(par) {
	case "class_declaration", "abstract_class_declaration", "interface_declaration", "type_alias_declaration",
		"type_parameter", "class", "enum_declaration":
		return t.Node(n).Field() == "name"
	case "nested_type_identifier":
		return true // A.Function is not the global
	}
	return false
}

// declaredType reports whether the file declares name as a type or value;
// the answer is kept in the pass's declared map (under "type:"+name), so
// that a file using a name many times is walked once per name.
func declaredType(p *nfi.Pass, name string) bool {
	m := declared(p)
	if v, ok := m["type:"+name]; ok {
		return v
	}
	v := declaresType(p.Tree, name) || m[name]
	m["type:"+name] = v
	return v
}

func declaresType(t *syntax.Tree, name string) bool {
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		if nd.Field() != "name" {
			continue
		}
		switch nd.Kind() {
		case "type_identifier", "identifier":
			if string(t.Text(syntax.NodeID(i))) == name {
				switch t.Kind(nd.Parent) {
				case "class_declaration", "abstract_class_declaration", "interface_declaration", "type_alias_declaration",
					"type_parameter", "enum_declaration", "variable_declarator", "function_declaration":
					return true
				}
			}
		}
	}
	return false
}
