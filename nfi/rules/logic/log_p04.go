package logic

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// LoopClosure reports functions defined in a loop that use a variable the
// loop rebinds, so every closure sees its last value.
//
// Source: Python FAQ "Why do lambdas defined in a loop with different values all return the same result?"; Ruff B023.
var LoopClosure = &nfi.Rule{
	ID: "LOG-P04", Name: "loop-closure", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "function defined in a loop uses a loop variable",
		What: "A `lambda` or def inside the body of a `for`/`while` loop or the element of a " +
			"comprehension that reads a name the loop (re)binds on each iteration (the for target, " +
			"or a name assigned, augmented-assigned or walrus-bound in the loop body), where that " +
			"name is not bound inside the function itself (a parameter, e.g. the `x=x` default idiom, or a local).",
		Why: "Closures capture variables, not values: every function made in the loop sees the value " +
			"the variable has when it is called, usually the last iteration's.",
		Bad:  "callbacks = []\nfor i in range(3):\n    callbacks.append(lambda: i)\n",
		Good: "callbacks = []\nfor i in range(3):\n    callbacks.append(lambda i=i: i)\n",
		Exempt: "Names bound in the function (parameters, locals). Functions defined outside the loop. " +
			"A class body in a loop does not stop the search: its methods and lambdas are checked " +
			"against the loop (`for i in xs:\n    class A:\n        def m(self): return i` fails).",
		Source: "Python FAQ (lambdas defined in a loop); flake8-bugbear B023",
		Oracle: "Ruff B023 (0.17.6), not exact. Before issue #18 this rule skipped methods of a class " +
			"defined in a loop; they are checked now, as in Ruff. Remaining differences, each checked " +
			"with ruff 0.17.6: (1) Ruff does not report lambdas passed to `map`, `filter`, `reduce` or " +
			"as `key=`, or returned (`for x in xs: sorted(ys, key=lambda y: y - x)` passes Ruff and " +
			"fails here); (2) Ruff checks the whole body of a def made in a loop, nested defs and " +
			"lambdas included, and counts as local only names assigned somewhere in it, so " +
			"`for i in xs:\n    def f():\n        def g(i): return i` fails Ruff (not here) and " +
			"`for n in xs:\n    def f():\n        def g(): n = 2\n        return n` passes Ruff " +
			"(fails here); (3) only the innermost loop's names count here, so a lambda in a " +
			"comprehension inside a for loop is not checked against the for loop's target.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"B023"}},
	Kinds:  []string{"lambda", "function_definition"},
	Visit:  checkLoopClosure,
}

// classes of the ancestors checkLoopClosure looks through for every def
// and lambda
const (
	csOther         = iota
	csDef           // a def or lambda: the search stops (a class does not: its body runs in the loop)
	csLoop          // for or while: its body runs repeatedly
	csComprehension // a comprehension (see isComprehension)
)

var closureScopeKinds = &syntax.KindClasses{Names: map[string]uint8{
	"function_definition": csDef, "lambda": csDef,
	"for_statement": csLoop, "while_statement": csLoop,
	"list_comprehension": csComprehension, "set_comprehension": csComprehension,
	"dictionary_comprehension": csComprehension, "generator_expression": csComprehension,
}}

func checkLoopClosure(p *nfi.Pass, fn syntax.NodeID) {
	t := p.Tree
	// the innermost loop enclosing fn, without crossing another def
	loop := syntax.NoNode
	kinds := closureScopeKinds.Table(syntax.Python)
	for a := t.Parent(fn); a != syntax.NoNode && loop == syntax.NoNode; a = t.Parent(a) {
		switch kinds.Of(&t.Nodes[a]) {
		case csDef:
			return
		case csLoop:
			if body := bodyField.Child(t, a); body != syntax.NoNode && t.IsAncestor(body, fn) {
				loop = a
			}
		case csComprehension:
			if body := bodyField.Child(t, a); body != syntax.NoNode && (body == fn || t.IsAncestor(body, fn)) {
				loop = a
			}
		}
	}
	if loop == syntax.NoNode {
		return
	}
	bound := loopBindings(t, loop)
	if len(bound) == 0 {
		return
	}
	local := functionBindings(t, fn)
	reported := map[string]bool{}
	body := t.ChildByField(fn, "body")
	if body == syntax.NoNode {
		return
	}
	// defaults and decorators run when the function is made: only the body
	// runs later
	t.Walk(body, func(n syntax.NodeID) bool {
		nd := &t.Nodes[n]
		if nd.Kind() == "function_definition" || nd.Kind() == "lambda" {
			return false
		}
		if nd.Kind() != "identifier" || !isReference(t, n) {
			return true
		}
		name := t.TextString(n)
		if bound[name] && !local[name] && !reported[name] {
			reported[name] = true
			p.Reportf(n, "function defined in a loop uses loop variable %s", name)
		}
		return true
	})
}

func isComprehension(k string) bool {
	switch k {
	case "list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression":
		return true
	}
	return false
}

// loopBindings returns the names a loop binds on every iteration.
func loopBindings(t *syntax.Tree, loop syntax.NodeID) map[string]bool {
	out := map[string]bool{}
	if isComprehension(t.Kind(loop)) {
		for c := t.Nodes[loop].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Kind(c) == "for_in_clause" {
				addTargets(t, t.ChildByField(c, "left"), out)
			}
		}
		return out
	}
	if t.Kind(loop) == "for_statement" {
		addTargets(t, t.ChildByField(loop, "left"), out)
	}
	body := t.ChildByField(loop, "body")
	if body == syntax.NoNode {
		return out
	}
	t.Walk(body, func(n syntax.NodeID) bool {
		switch t.Kind(n) {
		case "function_definition", "lambda", "class_definition":
			return false
		case "assignment", "augmented_assignment":
			addTargets(t, t.ChildByField(n, "left"), out)
		case "named_expression":
			addTargets(t, t.ChildByField(n, "name"), out)
		case "for_statement":
			addTargets(t, t.ChildByField(n, "left"), out)
		}
		return true
	})
	return out
}

// addTargets adds the plain names of an assignment target (tuples and
// lists unpacked; attributes and subscripts bind no name).
func addTargets(t *syntax.Tree, n syntax.NodeID, out map[string]bool) {
	if n == syntax.NoNode {
		return
	}
	switch t.Kind(n) {
	case "identifier":
		out[t.TextString(n)] = true
	case "pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple", "list", "parenthesized_expression", "list_splat_pattern":
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Named {
				addTargets(t, c, out)
			}
		}
	}
}

// functionBindings returns the names bound inside fn: its parameters and
// the names it assigns (its locals).
func functionBindings(t *syntax.Tree, fn syntax.NodeID) map[string]bool {
	out := map[string]bool{}
	if ps := t.ChildByField(fn, "parameters"); ps != syntax.NoNode {
		for c := t.Nodes[ps].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			switch t.Kind(c) {
			case "identifier":
				out[t.TextString(c)] = true
			case "default_parameter", "typed_default_parameter", "typed_parameter":
				if nm := t.ChildByField(c, "name"); nm != syntax.NoNode {
					out[t.TextString(nm)] = true
				} else if id := t.FirstChildOfKind(c, "identifier"); id != syntax.NoNode {
					out[t.TextString(id)] = true
				}
			case "list_splat_pattern", "dictionary_splat_pattern":
				if id := t.FirstChildOfKind(c, "identifier"); id != syntax.NoNode {
					out[t.TextString(id)] = true
				}
			}
		}
	}
	if t.Kind(fn) == "function_definition" {
		if body := t.ChildByField(fn, "body"); body != syntax.NoNode {
			t.Walk(body, func(n syntax.NodeID) bool {
				switch t.Kind(n) {
				case "function_definition", "class_definition":
					if nm := t.ChildByField(n, "name"); nm != syntax.NoNode {
						out[t.TextString(nm)] = true
					}
					return false
				case "lambda":
					return false
				case "assignment", "augmented_assignment", "for_statement":
					addTargets(t, t.ChildByField(n, "left"), out)
				case "named_expression":
					addTargets(t, t.ChildByField(n, "name"), out)
				}
				return true
			})
		}
	}
	return out
}

// isReference reports an identifier used as a variable (not an attribute
// name, keyword-argument name, parameter or def name).
func isReference(t *syntax.Tree, n syntax.NodeID) bool {
	nd := &t.Nodes[n]
	parent := nd.Parent
	switch t.Kind(parent) {
	case "attribute":
		return nd.Field() != "attribute"
	case "keyword_argument":
		return nd.Field() != "name"
	case "function_definition", "class_definition":
		return nd.Field() != "name"
	case "parameters", "lambda_parameters", "default_parameter", "typed_default_parameter", "typed_parameter",
		"list_splat_pattern", "dictionary_splat_pattern":
		return nd.Field() == "value"
	}
	return true
}
