package jsts

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// Complexity reports functions whose cyclomatic complexity exceeds the limit.
//
// Source: McCabe (1976); ESLint complexity (default maximum 20, classic variant).
var Complexity = &nfi.Rule{
	ID: "JS-LOG-T01", Name: "complexity", Aspect: nfi.LogicPatterns, Kind: nfi.Threshold, Languages: all,
	Limit: &nfi.Limit{Default: 20, Cmp: nfi.AtMost, Unit: "branches"},
	Doc: nfi.Doc{
		Summary: "function too complex",
		What: "The cyclomatic complexity of each function, class field initializer and class static block: 1, plus " +
			"one per if, ternary, `&&`/`||`/`??`, for/for-in/for-of, while, do-while, catch, case with a test, " +
			"default value (parameter or destructuring), logical assignment (`&&=`, `||=`, `??=`) and optional " +
			"member access or call (`?.`); nested functions count on their own. Fails when one exceeds the limit.",
		Why:    "Each branch is a path to test; past some twenty, a function is hard to test and to change safely.",
		Bad:    "function f(a, b, c, d, e) {\n  return a && b && c && d && e && a && b && c && d && e && a && b && c && d && e && a && b && c && d && e && a && b;\n}\n",
		Good:   "function f(xs) {\n  return xs.every(Boolean);\n}\n",
		Source: "McCabe, \"A Complexity Measure\" (1976); ESLint complexity",
		Oracle: "ESLint 10.15.0 complexity with maximum 20 (its default): same semantics.",
	},
	Oracle: nfi.Oracle{ESLint: []string{"complexity"}, ESLintOptions: "[20]", Exact: true},
	Kinds:  append([]string{"class_static_block", "public_field_definition", "field_definition"}, functionKinds...),
	Visit: func(p *nfi.Pass, n syntax.NodeID) {
		t := p.Tree
		root := n
		switch t.Kind(n) {
		case "public_field_definition", "field_definition":
			root = t.ChildByField(n, "value")
			if root == syntax.NoNode {
				return
			}
		}
		if root != n && (isFunction(t.Kind(root)) || t.Kind(root) == "class") {
			return // a function as a field's value is its own code path
		}
		c := 1 + complexityIn(t, root)
		p.Measure(float64(c))
		if p.Exceeds(float64(c)) {
			p.Reportf(n, "%s has a complexity of %d; maximum allowed is %v", t.Kind(n), c, p.Limit())
		}
	},
}

// complexityIn counts the branch points of the code path rooted at root,
// not descending into nested functions, class static blocks and field
// initializers (their own code paths).
func complexityIn(t *syntax.Tree, root syntax.NodeID) int {
	c := 0
	end := t.Node(root).End
	for i := root; i < end; i++ {
		nd := t.Node(i)
		k := nd.Kind()
		if i != root && (isFunction(k) || k == "class_static_block" || k == "public_field_definition" || k == "field_definition") {
			i = nd.End - 1
			continue
		}
		switch k {
		case "if_statement", "ternary_expression", "for_statement", "for_in_statement", "while_statement",
			"do_statement", "catch_clause", "assignment_pattern", "object_assignment_pattern":
			c++
		case "switch_case":
			c++
		case "binary_expression":
			switch operator(t, i) {
			case "&&", "||", "??":
				c++
			}
		case "augmented_assignment_expression":
			switch operator(t, i) {
			case "&&=", "||=", "??=":
				c++
			}
		case "required_parameter", "optional_parameter":
			if t.ChildByField(i, "value") != syntax.NoNode {
				c++
			}
		case "optional_chain":
			c++
		}
	}
	return c
}
