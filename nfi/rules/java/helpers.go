// Package java is polynfi's Java rule catalog: rules in SWE-NFI's five
// aspects over tree-sitter-java trees, each reproducing a PMD 7.27.0 or
// Checkstyle 12.3.1 rule with its default properties (Oracle.PMD,
// Oracle.Checkstyle; Oracle.Exact when the agreement test holds it to that
// rule). IDs are JAVA-<aspect>-<kind><nn>.
//
// The rules see one file at a time and resolve no types: where PMD asks
// whether an expression has a type (java.lang.String, java.lang.Throwable),
// a rule decides by the spelling of the type or expression, and its
// Doc.Oracle says so.
package java

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// java is the grammar of every rule of the catalog.
var java = []nfi.Language{syntax.Java}

// children returns every child of n, named or not, comments included.
func children(t *syntax.Tree, n syntax.NodeID) []syntax.NodeID {
	var out []syntax.NodeID
	for c := t.Node(n).FirstChild; c != syntax.NoNode; c = t.Node(c).NextSibling {
		out = append(out, c)
	}
	return out
}

// modifiers returns n's modifiers node, NoNode when it has none.
func modifiers(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for c := t.Node(n).FirstChild; c != syntax.NoNode; c = t.Node(c).NextSibling {
		if t.Kind(c) == "modifiers" {
			return c
		}
	}
	return syntax.NoNode
}

// hasModifier reports whether declaration n carries the keyword kw
// (public, static, final, ...).
func hasModifier(t *syntax.Tree, n syntax.NodeID, kw string) bool {
	m := modifiers(t, n)
	if m == syntax.NoNode {
		return false
	}
	for c := t.Node(m).FirstChild; c != syntax.NoNode; c = t.Node(c).NextSibling {
		if !t.Node(c).Named && string(t.Text(c)) == kw {
			return true
		}
	}
	return false
}

// annotationNames returns the simple names of the annotations on
// declaration n (Override for @java.lang.Override).
func annotationNames(t *syntax.Tree, n syntax.NodeID) []string {
	m := modifiers(t, n)
	if m == syntax.NoNode {
		return nil
	}
	var out []string
	for c := t.Node(m).FirstChild; c != syntax.NoNode; c = t.Node(c).NextSibling {
		if k := t.Kind(c); k == "annotation" || k == "marker_annotation" {
			out = append(out, simpleName(t.Text(t.ChildByField(c, "name"))))
		}
	}
	return out
}

// hasAnnotation reports whether declaration n has an annotation whose
// simple name is name.
func hasAnnotation(t *syntax.Tree, n syntax.NodeID, name string) bool {
	for _, a := range annotationNames(t, n) {
		if a == name {
			return true
		}
	}
	return false
}

// simpleName returns the part of a qualified name after its last dot.
func simpleName(b []byte) string {
	if i := bytes.LastIndexByte(b, '.'); i >= 0 {
		b = b[i+1:]
	}
	return string(b)
}

// typeName returns the simple name of a type node (List for
// java.util.List<String>), "" for primitive and array types.
func typeName(t *syntax.Tree, n syntax.NodeID) string {
	for n != syntax.NoNode {
		switch t.Kind(n) {
		case "type_identifier":
			return string(t.Text(n))
		case "scoped_type_identifier":
			kids := t.NamedChildren(n)
			n = kids[len(kids)-1]
		case "generic_type":
			n = t.FirstNamedChild(n)
		default:
			return ""
		}
	}
	return ""
}

// nameText returns the text of n's name field.
func nameText(t *syntax.Tree, n syntax.NodeID) string {
	if c := t.ChildByField(n, "name"); c != syntax.NoNode {
		return string(t.Text(c))
	}
	return ""
}

// isComment reports a Java comment node.
func isComment(t *syntax.Tree, n syntax.NodeID) bool {
	k := t.Kind(n)
	return k == "line_comment" || k == "block_comment"
}

// statements returns the named children of a block that are not comments.
func statements(t *syntax.Tree, block syntax.NodeID) []syntax.NodeID {
	var out []syntax.NodeID
	for c := t.Node(block).FirstChild; c != syntax.NoNode; c = t.Node(c).NextSibling {
		if t.Node(c).Named && !isComment(t, c) {
			out = append(out, c)
		}
	}
	return out
}

// hasComment reports whether the subtree of n holds a comment.
func hasComment(t *syntax.Tree, n syntax.NodeID) bool {
	for i := n + 1; i < t.Node(n).End; i++ {
		if isComment(t, i) {
			return true
		}
	}
	return false
}

// emptyBlock reports a block with no statements (comments aside).
func emptyBlock(t *syntax.Tree, n syntax.NodeID) bool {
	return n != syntax.NoNode && (t.Kind(n) == "block" || t.Kind(n) == "constructor_body") && len(statements(t, n)) == 0
}

// isTypeDecl reports the node types that declare a class-like type.
func isTypeDecl(kind string) bool {
	switch kind {
	case "class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration":
		return true
	}
	return false
}

// typeDeclKinds are the node types isTypeDecl accepts.
var typeDeclKinds = []string{"class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration"}

// isBoundary reports node types that start a new body of code: a method,
// constructor, lambda, class body or initializer. Searches for what a
// statement does stop there.
func isBoundary(kind string) bool {
	switch kind {
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration",
		"lambda_expression", "class_body", "interface_body", "enum_body", "static_initializer":
		return true
	}
	return false
}

// invocation splits a method_invocation: the receiver's text ("" when
// none), the method name and the argument count.
func invocation(t *syntax.Tree, n syntax.NodeID) (object, name string, args int) {
	if o := t.ChildByField(n, "object"); o != syntax.NoNode {
		object = string(t.Text(o))
	}
	name = nameText(t, n)
	if a := t.ChildByField(n, "arguments"); a != syntax.NoNode {
		for _, c := range t.NamedChildren(a) {
			if !isComment(t, c) {
				args++
			}
		}
	}
	return object, name, args
}

// arguments returns the argument expressions of a call or creation.
func arguments(t *syntax.Tree, n syntax.NodeID) []syntax.NodeID {
	a := t.ChildByField(n, "arguments")
	if a == syntax.NoNode {
		return nil
	}
	var out []syntax.NodeID
	for _, c := range t.NamedChildren(a) {
		if !isComment(t, c) {
			out = append(out, c)
		}
	}
	return out
}

// unparen returns the expression inside any parentheses around n.
func unparen(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for n != syntax.NoNode && t.Kind(n) == "parenthesized_expression" {
		n = t.FirstNamedChild(n)
		for n != syntax.NoNode && isComment(t, n) {
			n = t.Node(n).NextSibling
		}
	}
	return n
}

// inInterface reports whether member n is declared directly in an
// interface or annotation type body (implicitly public; fields implicitly
// static final).
func inInterface(t *syntax.Tree, n syntax.NodeID) bool {
	p := t.Parent(n)
	return p != syntax.NoNode && (t.Kind(p) == "interface_body" || t.Kind(p) == "annotation_type_body")
}

// declarators returns the variable_declarator children of a field or
// local variable declaration.
func declarators(t *syntax.Tree, n syntax.NodeID) []syntax.NodeID {
	return t.ChildrenByField(n, "declarator")
}

// camelRe is PMD's default naming pattern of methods, variables and
// parameters: [a-z][a-zA-Z0-9]*.
var camelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`) })

// pascalRe is PMD's default naming pattern of types: [A-Z][a-zA-Z0-9]*.
var pascalRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z][a-zA-Z0-9]*$`) })

// enclosingTypeBody returns the nearest class/interface/enum/record body
// around n (NoNode at the top level).
func enclosingTypeBody(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for p := t.Parent(n); p != syntax.NoNode; p = t.Parent(p) {
		switch t.Kind(p) {
		case "class_body", "interface_body", "enum_body", "annotation_type_body":
			return p
		}
	}
	return syntax.NoNode
}

// outermostType returns the top-level declaration around n (the root when
// there is none).
func outermostType(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	top := syntax.NodeID(0)
	for p := t.Parent(n); p != syntax.NoNode; p = t.Parent(p) {
		if isTypeDecl(t.Kind(p)) {
			top = p
		}
	}
	return top
}
