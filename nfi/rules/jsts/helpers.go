// Package jsts is polynfi's JavaScript and TypeScript rule catalog: rules in
// SWE-NFI's five aspects over tree-sitter-javascript and
// tree-sitter-typescript trees, each reproducing an ESLint core or
// typescript-eslint rule (Oracle.ESLint; Oracle.Exact when the agreement
// test holds it to that rule). IDs are JS-<aspect>-<kind><nn>.
package jsts

import (
	"bytes"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// The grammars of the catalog: every rule judges JavaScript, TypeScript and
// TSX files unless it is about TypeScript syntax (tsOnly).
var (
	all    = []nfi.Language{syntax.JavaScript, syntax.TypeScript, syntax.TSX}
	tsOnly = []nfi.Language{syntax.TypeScript, syntax.TSX}
)

// unparen returns the expression inside any parentheses around n (ESTree,
// which ESLint's rules see, has no parenthesized node).
func unparen(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for n != syntax.NoNode && t.Kind(n) == "parenthesized_expression" {
		n = t.FirstNamedChild(n)
	}
	return n
}

// parentSkippingParens returns the parent of n above any parentheses.
func parentSkippingParens(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	p := t.Parent(n)
	for p != syntax.NoNode && t.Kind(p) == "parenthesized_expression" {
		p = t.Parent(p)
	}
	return p
}

// operator returns the text of n's operator field ("" when none).
func operator(t *syntax.Tree, n syntax.NodeID) string {
	op := t.ChildByField(n, "operator")
	if op == syntax.NoNode {
		return ""
	}
	return string(t.Text(op))
}

// isFunction reports the node types that are ESTree functions (function
// declarations and expressions, generators, arrows, methods).
func isFunction(kind string) bool {
	switch kind {
	case "function_declaration", "function_expression", "function", "arrow_function",
		"generator_function_declaration", "generator_function", "method_definition":
		return true
	}
	return false
}

// functionKinds are the node types isFunction accepts.
var functionKinds = []string{"function_declaration", "function_expression", "arrow_function",
	"generator_function_declaration", "generator_function", "method_definition"}

// identText reports whether n is an identifier spelled name.
func identText(t *syntax.Tree, n syntax.NodeID, name string) bool {
	return n != syntax.NoNode && t.Kind(n) == "identifier" && string(t.Text(n)) == name
}

// tokensText returns n's text without blanks, for token-by-token
// comparison of two expressions (ESLint's equalTokens), comments aside.
func tokensText(t *syntax.Tree, n syntax.NodeID) []byte {
	b := t.Text(n)
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			out = append(out, c)
		}
	}
	return out
}

// declared returns the names the file declares anywhere (variables,
// parameters, functions, classes, imports): a global such as `eval` or
// `console` spelled as one of them may be shadowed, and the rules that
// judge global references leave it alone. ESLint resolves scopes; this is
// the file-wide approximation, computed once per file and rule.
func declared(p *nfi.Pass) map[string]bool {
	if m, ok := p.State.(map[string]bool); ok {
		return m
	}
	t := p.Tree
	m := map[string]bool{}
	for i := range t.Nodes {
		n := syntax.NodeID(i)
		nd := t.Node(n)
		if nd.Kind() != "identifier" {
			continue
		}
		par := nd.Parent
		if par == syntax.NoNode {
			continue
		}
		switch t.Kind(par) {
		case "variable_declarator", "function_declaration", "generator_function_declaration",
			"class_declaration", "import_specifier", "import_clause", "namespace_import",
			"formal_parameters", "required_parameter", "optional_parameter", "catch_clause",
			"rest_pattern", "shorthand_property_identifier_pattern", "assignment_pattern", "function_expression":
			if nd.Field() == "name" || nd.Field() == "pattern" || nd.Field() == "parameter" || nd.Field() == "alias" ||
				nd.Field() == "left" || nd.Field() == "" {
				m[string(t.Text(n))] = true
			}
		}
	}
	p.State = m
	return m
}

// commentValue returns a comment's text without its delimiters.
func commentValue(b []byte) []byte {
	if bytes.HasPrefix(b, []byte("//")) {
		return b[2:]
	}
	if bytes.HasPrefix(b, []byte("/*")) {
		b = b[2:]
		return bytes.TrimSuffix(b, []byte("*/"))
	}
	return b
}
