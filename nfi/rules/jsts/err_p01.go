package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NoThrowLiteral reports throwing a value that cannot be an Error.
//
// Source: ESLint no-throw-literal.
var NoThrowLiteral = &nfi.Rule{
	ID: "JS-ERR-P01", Name: "no-throw-literal", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited, Languages: all,
	Doc: nfi.Doc{
		Summary: "thrown value cannot be an Error object",
		What: "A throw statement whose argument cannot be an Error: a literal, template, object, array, " +
			"arithmetic or other expression that never yields an object, or `undefined`. Identifiers, calls, " +
			"`new`, member accesses, tagged templates, `yield` and `await` could be errors; assignments, " +
			"sequences, `&&`/`||`/`??` and ternaries are judged by the operands they can yield.",
		Why:    "Only Error objects carry a stack trace; a thrown string loses where the failure happened.",
		Bad:    "throw \"cannot parse \" + name;\n",
		Good:   "throw new Error(\"cannot parse \" + name);\n",
		Source: "ESLint no-throw-literal",
		Oracle: "ESLint 10.15.0 no-throw-literal: same semantics (ESLint's couldBeError).",
	},
	Oracle: nfi.Oracle{ESLint: []string{"no-throw-literal"}, Exact: true},
	Kinds:  []string{"throw_statement"},
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		a := unparen(t, t.FirstNamedChild(n))
		for a != syntax.NoNode && t.Node(a).Extra {
			a = t.Node(a).NextSibling
		}
		if a == syntax.NoNode {
			return
		}
		if !couldBeError(t, a) {
			p.Reportf(n, "expected an error object to be thrown")
		} else if t.Kind(a) == "undefined" || identText(t, a, "undefined") {
			p.Reportf(n, "do not throw undefined")
		}
	},
}

// couldBeError reports whether expression n could evaluate to an Error
// object, in the terms of ESLint's astUtils.couldBeError.
func couldBeError(t *syntax.Tree, n syntax.NodeID) bool {
	n = unparen(t, n)
	if n == syntax.NoNode {
		return false
	}
	switch t.Kind(n) {
	case "identifier", "call_expression", "new_expression", "member_expression", "subscript_expression",
		"yield_expression", "await_expression", "this", "super", "undefined":
		return true
	case "template_string":
		// a tagged template is a call_expression in tree-sitter
		return false
	case "assignment_expression":
		return couldBeError(t, t.ChildByField(n, "right"))
	case "augmented_assignment_expression":
		switch operator(t, n) {
		case "||=", "??=":
			return couldBeError(t, t.ChildByField(n, "left")) || couldBeError(t, t.ChildByField(n, "right"))
		case "&&=":
			return couldBeError(t, t.ChildByField(n, "right"))
		}
		return false
	case "sequence_expression":
		kids := t.NamedChildren(n)
		return couldBeError(t, kids[len(kids)-1])
	case "binary_expression":
		switch operator(t, n) {
		case "&&":
			return couldBeError(t, t.ChildByField(n, "right"))
		case "||", "??":
			return couldBeError(t, t.ChildByField(n, "left")) || couldBeError(t, t.ChildByField(n, "right"))
		}
		return false
	case "ternary_expression":
		return couldBeError(t, t.ChildByField(n, "consequence")) || couldBeError(t, t.ChildByField(n, "alternative"))
	}
	return false
}
