package metrics

import (
	"sort"
	"strings"

	"github.com/polynfi/polynfi/syntax"
)

// Block types of JavaScript, TypeScript and Java code paths (besides
// TypeFunction and TypeMethod).
const (
	// TypeInitializer is a class field's initializer (JavaScript and
	// TypeScript: ESLint measures it as its own code path).
	TypeInitializer = "initializer"
	// TypeStaticBlock is a class static block (JavaScript, TypeScript).
	TypeStaticBlock = "static_block"
	// TypeConstructor is a Java constructor (PMD measures it as a method).
	TypeConstructor = "constructor"
)

// CLikeRaw counts the lines of a JavaScript, TypeScript or Java file from
// its syntax tree, in radon's categories so that SLOC + Multi +
// SingleComments + Blank = LOC holds:
//
//   - LOC: physical lines (a last line without a newline counts; an empty
//     file has 0);
//   - Blank: lines holding only white space (inside a block comment too,
//     as radon counts blank lines inside a multi-line string);
//   - SLOC: lines holding code (any non-blank byte outside comments;
//     a multi-line string or template literal is code on every line);
//   - SingleComments: non-blank lines holding only comments, none of them
//     spanning lines; Multi: non-blank lines holding only comments, part of
//     a comment spanning lines (a /* */ or /** */ block);
//   - Comments: the number of comments (a comment after code counts);
//   - LLOC: the logical lines, counted as statements and declarations:
//     every node whose type ends in "_statement" or "_declaration" (a
//     block, an empty statement `;` and an export wrapping a declaration
//     excepted), plus class fields.
//
// Lines are split at \n (a \r before it belongs to the line). There is no
// oracle for these counts beyond their definition: radon measures Python
// only, and the JavaScript and Java tools' line counts differ among
// themselves (cloc counts a comment after code as code only).
func CLikeRaw(t *syntax.Tree) Raw {
	src := t.Source
	var r Raw
	if len(src) == 0 {
		return r
	}
	lines := strings.Count(string(src), "\n")
	if src[len(src)-1] != '\n' {
		lines++
	}
	r.LOC = lines
	code := make([]bool, lines)
	comment := make([]bool, lines)   // a comment covers part of the line
	multiline := make([]bool, lines) // ... a comment spanning lines
	inComment := make([]bool, len(src))
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		if !isComment(nd.Kind()) {
			if isLogicalLine(t, syntax.NodeID(i)) {
				r.LLOC++
			}
			continue
		}
		r.Comments++
		for b := nd.StartByte; b < nd.EndByte; b++ {
			inComment[b] = true
		}
		first, last := int(t.Row(nd.StartByte)), int(t.Row(max(nd.EndByte, nd.StartByte+1)-1))
		for row := first; row <= last && row < lines; row++ {
			comment[row] = true
			if last > first {
				multiline[row] = true
			}
		}
	}
	blank := make([]bool, lines)
	row := 0
	lineBlank := true
	for i, c := range src {
		if c == '\n' {
			blank[row] = lineBlank
			row++
			lineBlank = true
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
			continue
		}
		lineBlank = false
		if !inComment[i] {
			code[row] = true
		}
	}
	if row < lines {
		blank[row] = lineBlank
	}
	for i := 0; i < lines; i++ {
		switch {
		case blank[i]:
			r.Blank++
		case code[i]:
			r.SLOC++
		case multiline[i]:
			r.Multi++
		case comment[i]:
			r.SingleComments++
		default:
			r.SLOC++ // a non-blank byte that is neither code nor comment cannot happen; count it as code
		}
	}
	return r
}

// isComment reports the comment node types of the JavaScript, TypeScript
// (comment, html_comment) and Java (line_comment, block_comment) grammars.
func isComment(kind string) bool {
	switch kind {
	case "comment", "line_comment", "block_comment", "html_comment":
		return true
	}
	return false
}

// isLogicalLine reports a statement or declaration node (see CLikeRaw).
func isLogicalLine(t *syntax.Tree, n syntax.NodeID) bool {
	nd := &t.Nodes[n]
	if !nd.Named {
		return false
	}
	k := nd.Kind()
	switch k {
	case "statement_block", "block", "empty_statement", "program":
		return false
	case "export_statement":
		return t.ChildByField(n, "declaration") == syntax.NoNode
	case "public_field_definition", "field_definition":
		return true
	}
	return strings.HasSuffix(k, "_statement") || strings.HasSuffix(k, "_declaration")
}

// ECMAScriptComplexity measures the cyclomatic complexity of every code
// path of a JavaScript or TypeScript file as ESLint's complexity rule
// (classic variant, ESLint 10) counts it: 1, plus one per if, conditional
// expression (`?:`), `&&`, `||` and `??`, for, for-in and for-of, while,
// do-while, catch clause, switch case with a test, default value (of a
// parameter or in a destructuring pattern), logical assignment (`&&=`,
// `||=`, `??=`) and optional chain (`?.`). The code paths are ESLint's:
// every function (declaration, expression, arrow, method, accessor),
// every class field initializer and every class static block; the
// branches of a nested path count in that path only. Functions lists them
// all, flat and in source order (a nested function is its own block, not
// a closure of its parent), Module is 1 plus the branches outside every
// path (ESLint does not report it).
//
// A Block's Name is ESLint's: the function's or method's name, the
// variable or property a function expression is assigned to, else
// "<anonymous>"; Lineno, ColOffset (0-based bytes) and Endline span the
// node. Source: McCabe, "A Complexity Measure" (1976); ESLint 10.15.0
// lib/rules/complexity.js (its documentation lists the counted nodes).
func ECMAScriptComplexity(t *syntax.Tree) Complexity {
	c := Complexity{Module: 1}
	var stack []int // index into c.Functions of the enclosing paths
	var ends []syntax.NodeID
	for i := syntax.NodeID(0); int(i) < len(t.Nodes); i++ {
		for len(ends) > 0 && i >= ends[len(ends)-1] {
			stack, ends = stack[:len(stack)-1], ends[:len(ends)-1]
		}
		nd := &t.Nodes[i]
		if !nd.Named {
			continue // the keyword `function` has the type name "function" too
		}
		k := nd.Kind()
		if typ, root, ok := ecmaPath(t, i, k); ok {
			b := Block{Type: typ, Name: ecmaName(t, i), Lineno: t.Line(i), Endline: int(t.Row(max(nd.EndByte, nd.StartByte+1)-1)) + 1,
				ColOffset: t.Column(i) - 1, Complexity: 1, RealComplexity: 1, Node: i}
			if cls := t.Ancestor(i, "class_declaration", "class", "abstract_class_declaration"); cls != syntax.NoNode {
				if name := t.ChildByField(cls, "name"); name != syntax.NoNode {
					b.Classname = t.TextString(name)
				}
			}
			c.Functions = append(c.Functions, b)
			stack = append(stack, len(c.Functions)-1)
			ends = append(ends, t.Nodes[root].End)
			if root != i {
				// a field: its initializer is the path, its key is not
				i = root - 1
			}
			continue
		}
		if n := ecmaBranches(t, i, k); n > 0 {
			if len(stack) == 0 {
				c.Module += n
			} else {
				f := &c.Functions[stack[len(stack)-1]]
				f.Complexity += n
				f.RealComplexity += n
			}
		}
	}
	return c
}

// ecmaPath reports whether node n of kind k starts an ESLint code path:
// its block type and the node whose subtree is the path (a field's value).
func ecmaPath(t *syntax.Tree, n syntax.NodeID, k string) (typ string, root syntax.NodeID, ok bool) {
	switch k {
	case "function_declaration", "function_expression", "function", "arrow_function",
		"generator_function_declaration", "generator_function":
		return TypeFunction, n, true
	case "method_definition":
		return TypeMethod, n, true
	case "class_static_block":
		return TypeStaticBlock, n, true
	case "public_field_definition", "field_definition":
		v := t.ChildByField(n, "value")
		if v == syntax.NoNode {
			return "", 0, false
		}
		switch t.Kind(v) {
		case "function_expression", "function", "arrow_function", "generator_function", "class":
			return "", 0, false // the value is a path (or class) of its own
		}
		return TypeInitializer, v, true
	}
	return "", 0, false
}

// ecmaBranches is the number of branches node n of kind k adds (see
// ECMAScriptComplexity).
func ecmaBranches(t *syntax.Tree, n syntax.NodeID, k string) int {
	switch k {
	case "if_statement", "ternary_expression", "for_statement", "for_in_statement", "while_statement",
		"do_statement", "catch_clause", "assignment_pattern", "object_assignment_pattern", "optional_chain":
		return 1
	case "switch_case":
		return 1 // switch_default is the case without a test
	case "binary_expression":
		switch opText(t, n) {
		case "&&", "||", "??":
			return 1
		}
	case "augmented_assignment_expression":
		switch opText(t, n) {
		case "&&=", "||=", "??=":
			return 1
		}
	case "required_parameter", "optional_parameter":
		if t.ChildByField(n, "value") != syntax.NoNode {
			return 1
		}
	}
	return 0
}

func opText(t *syntax.Tree, n syntax.NodeID) string {
	op := t.ChildByField(n, "operator")
	if op == syntax.NoNode {
		return ""
	}
	return string(t.Text(op))
}

// ecmaName names a code path as ESLint's messages do (without the
// "Function"/"Method" prefix).
func ecmaName(t *syntax.Tree, n syntax.NodeID) string {
	for _, f := range []string{"name", "property"} { // property: a JavaScript field_definition's key
		if name := t.ChildByField(n, f); name != syntax.NoNode {
			return t.TextString(name)
		}
	}
	p := t.Parent(n)
	switch t.Kind(p) {
	case "variable_declarator", "assignment_expression", "pair", "public_field_definition", "field_definition":
		for _, f := range []string{"name", "left", "key", "property"} {
			if id := t.ChildByField(p, f); id != syntax.NoNode {
				return t.TextString(id)
			}
		}
	}
	return "<anonymous>"
}

// JavaComplexity measures the cyclomatic complexity of every method and
// constructor of a Java file as PMD 7's CyclomaticComplexity rule counts
// it (metric CYCLO; an annotation type's element is a method of
// complexity 1): 1, plus one per if, for, enhanced for, while,
// do-while, catch clause, throw statement, conditional expression (`?:`)
// and non-default switch label (`case A, B ->` is one label), plus one
// per `&&` and `||` in the condition of an if, for, while, do-while or
// conditional expression (a boolean operator elsewhere, as in
// `return a && b`, adds nothing). A lambda's body counts nowhere, and
// the methods of a local or anonymous class are measured on their own,
// not in the enclosing method. Functions lists the methods and
// constructors, flat, in source order; Classname is the innermost
// enclosing type's name ("<anonymous>" for an anonymous class).
//
// Source: McCabe (1976); PMD 7 documentation of the CYCLO metric ("Java
// metrics": decision points), refined against PMD 7.27.0's output on the
// sources of Maven Central libraries (TestPMDCyclomaticAgreement).
func JavaComplexity(t *syntax.Tree) Complexity {
	c := Complexity{Module: 1}
	const inLambda = -1
	var stack []int // index into c.Functions, or inLambda
	var ends []syntax.NodeID
	for i := syntax.NodeID(0); int(i) < len(t.Nodes); i++ {
		for len(ends) > 0 && i >= ends[len(ends)-1] {
			stack, ends = stack[:len(stack)-1], ends[:len(ends)-1]
		}
		nd := &t.Nodes[i]
		if !nd.Named {
			continue
		}
		k := nd.Kind()
		switch k {
		case "lambda_expression":
			stack = append(stack, inLambda)
			ends = append(ends, nd.End)
			continue
		case "method_declaration", "constructor_declaration", "compact_constructor_declaration", "annotation_type_element_declaration":
			typ := TypeMethod
			if k == "constructor_declaration" || k == "compact_constructor_declaration" {
				typ = TypeConstructor
			}
			b := Block{Type: typ, Lineno: t.Line(i), Endline: int(t.Row(max(nd.EndByte, nd.StartByte+1)-1)) + 1,
				ColOffset: t.Column(i) - 1, Complexity: 1, RealComplexity: 1, Node: i}
			if name := t.ChildByField(i, "name"); name != syntax.NoNode {
				b.Name = t.TextString(name)
			}
			if cls := t.Ancestor(i, "class_declaration", "enum_declaration", "record_declaration", "interface_declaration", "annotation_type_declaration", "object_creation_expression"); cls != syntax.NoNode {
				if name := t.ChildByField(cls, "name"); name != syntax.NoNode {
					b.Classname = t.TextString(name)
				} else {
					b.Classname = "<anonymous>"
				}
			}
			c.Functions = append(c.Functions, b)
			stack = append(stack, len(c.Functions)-1)
			ends = append(ends, nd.End)
			continue
		}
		n := javaBranches(t, i, k)
		if n == 0 {
			continue
		}
		switch {
		case len(stack) == 0:
			c.Module += n
		case stack[len(stack)-1] != inLambda:
			f := &c.Functions[stack[len(stack)-1]]
			f.Complexity += n
			f.RealComplexity += n
		}
	}
	return c
}

// javaBranches is the number of decision points node n of kind k adds
// (see JavaComplexity).
func javaBranches(t *syntax.Tree, n syntax.NodeID, k string) int {
	switch k {
	case "if_statement", "for_statement", "enhanced_for_statement", "while_statement", "do_statement",
		"catch_clause", "ternary_expression", "throw_statement":
		return 1
	case "switch_label":
		if strings.HasPrefix(strings.TrimSpace(t.TextString(n)), "default") {
			return 0
		}
		return 1
	case "binary_expression":
		switch opText(t, n) {
		case "&&", "||":
			if inJavaCondition(t, n) {
				return 1
			}
		}
	}
	return 0
}

// inJavaCondition reports whether n lies in the condition of an if, for,
// while, do-while or conditional expression, with no lambda, class body
// or statement between them.
func inJavaCondition(t *syntax.Tree, n syntax.NodeID) bool {
	for c := n; c != syntax.NoNode; c = t.Parent(c) {
		p := t.Parent(c)
		if p == syntax.NoNode {
			return false
		}
		switch t.Kind(p) {
		case "if_statement", "while_statement", "do_statement", "for_statement", "ternary_expression":
			return t.Nodes[c].Field() == "condition"
		case "lambda_expression", "class_body", "block", "expression_statement", "method_declaration", "constructor_declaration":
			return false
		}
	}
	return false
}

// SortedComplexities returns the complexities of c's blocks in ascending
// order (a multiset to compare with a linter's per-file report).
func SortedComplexities(c Complexity) []int {
	out := make([]int, 0, len(c.Functions))
	for _, b := range c.Functions {
		out = append(out, b.Complexity)
	}
	sort.Ints(out)
	return out
}
