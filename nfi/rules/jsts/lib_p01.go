package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoEval reports eval.
//
// Source: ESLint no-eval (allowIndirect false).
var NoEval = &nfi.Rule{
	ID: "JS-LIB-P01", Name: "no-eval", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "use of eval",
		What: "A call whose callee is the identifier `eval`; a reference to the global `eval` other than a " +
			"callee; `globalThis.eval`.",
		Why:    "eval runs text as code: an injection hole, and it defeats every optimizer and static check.",
		Bad:    "const v = eval(\"obj.\" + key);\n",
		Good:   "const v = obj[key];\n",
		Exempt: "`this.eval` at the top level of a non-strict script, which ESLint also reports, is not.",
		Source: "ESLint no-eval",
		Oracle: "ESLint 10.15.0 no-eval with its defaults; the global is resolved by the file's declarations, not by scope.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-eval"}, Exact: true},
	Kinds:  []string{"identifier"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		switch t.TextString(n) {
		case "eval":
			par := t.Parent(n)
			if par != syntax.NoNode && t.Kind(par) == "call_expression" && t.Node(n).Field() == "function" {
				p.Reportf(n, "eval can be harmful")
				return
			}
			if declared(p)["eval"] || !isReference(t, n) {
				return
			}
			p.Reportf(n, "eval can be harmful")
		case "globalThis":
			par := t.Parent(n)
			if declared(p)["globalThis"] || par == syntax.NoNode || t.Node(n).Field() != "object" {
				return
			}
			if k := t.Kind(par); k == "member_expression" && t.TextString(t.ChildByField(par, "property")) == "eval" {
				p.Reportf(par, "eval can be harmful")
			}
		}
	},
}

// isReference reports whether identifier n is read as a variable (not a
// declaration's name, a property key or a label).
func isReference(t *syntax.Tree, n syntax.NodeID) bool {
	par := t.Parent(n)
	if par == syntax.NoNode {
		return false
	}
	f := t.Node(n).Field()
	switch t.Kind(par) {
	case "variable_declarator", "function_declaration", "function_expression", "class_declaration", "generator_function_declaration":
		return f != "name"
	case "formal_parameters", "required_parameter", "optional_parameter", "catch_clause", "import_specifier",
		"import_clause", "namespace_import", "export_specifier", "pair_pattern", "rest_pattern", "array_pattern",
		"object_pattern", "labeled_statement", "break_statement", "continue_statement", "method_definition":
		return false
	case "assignment_pattern", "assignment_expression", "augmented_assignment_expression":
		return f != "left"
	}
	return true
}
