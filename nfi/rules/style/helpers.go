package style

import (
	"unsafe"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// sourceString returns the file's source as a string that shares the
// tree's Source bytes (no copy): the rules that key maps with names use
// substrings of it, so that no name is copied either. Nothing modifies
// Source while a file is scored; the string and its substrings must not
// outlive the pass (they key maps local to the pass or its State, never a
// diagnostic's message).
func sourceString(p *nfi.Pass) string {
	src := p.Tree.Source
	return unsafe.String(unsafe.SliceData(src), len(src))
}

// nodeString returns node n's text as a string that shares the tree's
// Source bytes (no copy), under the same terms as sourceString: for names
// that are compared, key maps of the pass or are formatted into messages
// (which copies them), never kept past the pass.
func nodeString(t *syntax.Tree, n syntax.NodeID) string {
	b := t.Text(n)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// unparen strips parenthesized_expression wrappers, as Python's AST does.
func unparen(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for n != syntax.NoNode && t.Nodes[n].Kind() == "parenthesized_expression" {
		n = t.FirstNamedChild(n)
	}
	return n
}

// namedChildren appends the named, non-comment children of n to buf.
func namedChildren(t *syntax.Tree, n syntax.NodeID, buf []syntax.NodeID) []syntax.NodeID {
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Named && !t.Nodes[c].Extra {
			buf = append(buf, c)
		}
	}
	return buf
}

// isScopeKind reports node kinds that open a Python scope.
func isScopeKind(k string) bool {
	switch k {
	case "function_definition", "class_definition", "lambda", "list_comprehension",
		"set_comprehension", "dictionary_comprehension", "generator_expression":
		return true
	}
	return false
}

// scopeOf returns the node whose scope n's code runs in: the nearest
// enclosing def, class, lambda or comprehension, or the root (0). Parameter
// defaults, annotations, return types and base classes belong to the scope
// around the def, class or lambda.
func scopeOf(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	child := n
	for p := t.Nodes[n].Parent; p != syntax.NoNode; child, p = p, t.Nodes[p].Parent {
		k := t.Nodes[p].Kind()
		if !isScopeKind(k) {
			continue
		}
		switch f := t.Nodes[child].Field(); {
		case k == "function_definition" && (f == "parameters" || f == "return_type" || f == "type_parameters"):
			continue
		case k == "class_definition" && (f == "superclasses" || f == "type_parameters"):
			continue
		case k == "lambda" && f == "parameters":
			continue
		}
		return p
	}
	return 0
}

// role is how an identifier binds a name.
type role uint8

const (
	roleNone    role = iota
	roleAssign       // target of =, annotated assignment (with or without value), including unpacking
	roleAug          // target of an augmented assignment (+=)
	roleFor          // target of a for statement
	roleCompFor      // target of a comprehension's for clause
	roleWith         // with ... as target
	roleExcept       // except ... as name
	roleWalrus       // (name := value)
	roleGlobal       // name in a global or nonlocal statement
	roleParam        // parameter of a def or lambda
	roleMatch        // capture in a match-statement pattern
	roleDef          // function name
	roleClass        // class name
)

// bindingRole classifies identifier id by the construct that binds it, and
// returns the statement-level node that binds (the assignment, for
// statement, with item, ...), or roleNone when id is not a binding (a load,
// an attribute name, a keyword argument, an import).
func bindingRole(t *syntax.Tree, id syntax.NodeID) (role, syntax.NodeID) {
	kinds := roleKinds.Table(syntax.Python)
	child := id
	p := t.Nodes[id].Parent
	for p != syntax.NoNode && kinds.Of(&t.Nodes[p]) == rkContainer {
		child, p = p, t.Nodes[p].Parent
	}
	if p == syntax.NoNode {
		return roleNone, syntax.NoNode
	}
	f := t.Nodes[child].Field()
	switch kinds.Of(&t.Nodes[p]) {
	case rkOther:
		return roleNone, syntax.NoNode
	case rkAssignment:
		if f == "left" {
			return roleAssign, p
		}
	case rkAugmented:
		if f == "left" {
			return roleAug, p
		}
	case rkFor:
		if f == "left" {
			return roleFor, p
		}
	case rkForIn:
		if f == "left" {
			return roleCompFor, p
		}
	case rkAsTarget:
		ap := t.Nodes[p].Parent
		if ap != syntax.NoNode {
			switch t.Kind(t.Nodes[ap].Parent) {
			case "with_item":
				return roleWith, t.Nodes[ap].Parent
			case "except_clause", "except_group_clause":
				return roleExcept, t.Nodes[ap].Parent
			}
		}
	case rkWalrus:
		if f == "name" {
			return roleWalrus, p
		}
	case rkGlobal:
		return roleGlobal, p
	case rkParameters:
		if child == id || t.Nodes[child].Kind() == "list_splat_pattern" || t.Nodes[child].Kind() == "dictionary_splat_pattern" {
			return roleParam, p
		}
	case rkTypedParameter:
		if child == id || t.Nodes[child].Kind() == "list_splat_pattern" || t.Nodes[child].Kind() == "dictionary_splat_pattern" {
			return roleParam, p
		}
	case rkDictSplat:
		if isParams(t.Kind(t.Nodes[p].Parent)) || t.Kind(t.Nodes[p].Parent) == "typed_parameter" {
			return roleParam, p
		}
	case rkDefault:
		if f == "name" {
			return roleParam, p
		}
	case rkDef:
		if f == "name" {
			return roleDef, p
		}
	case rkClass:
		if f == "name" {
			return roleClass, p
		}
	case rkDottedName:
		// A capture pattern is a one-identifier dotted name directly in a
		// case pattern or as a keyword pattern's value.
		if t.Nodes[p].FirstChild == id && t.Nodes[id].NextSibling == syntax.NoNode {
			switch t.Kind(t.Nodes[p].Parent) {
			case "case_pattern", "keyword_pattern":
				if string(t.Text(id)) != "_" {
					return roleMatch, p
				}
			}
		}
	case rkSplat:
		if string(t.Text(id)) != "_" {
			return roleMatch, p
		}
	case rkAs:
		if t.Kind(t.Nodes[p].Parent) == "case_pattern" && t.Nodes[id].NextSibling == syntax.NoNode {
			return roleMatch, p
		}
	}
	return roleNone, syntax.NoNode
}

// node classes of bindingRole: the containers it climbs through, then the
// constructs that bind
const (
	rkOther = iota
	rkContainer
	rkAssignment
	rkAugmented
	rkFor
	rkForIn
	rkAsTarget
	rkWalrus
	rkGlobal
	rkParameters
	rkTypedParameter
	rkDictSplat
	rkDefault
	rkDef
	rkClass
	rkDottedName
	rkSplat
	rkAs
)

var roleKinds = &syntax.KindClasses{Names: map[string]uint8{
	"pattern_list":             rkContainer,
	"tuple_pattern":            rkContainer,
	"list_pattern":             rkContainer,
	"list_splat_pattern":       rkContainer,
	"tuple":                    rkContainer,
	"list":                     rkContainer,
	"parenthesized_expression": rkContainer,
	"list_splat":               rkContainer,
	"expression_list":          rkContainer,
	"assignment":               rkAssignment,
	"augmented_assignment":     rkAugmented,
	"for_statement":            rkFor,
	"for_in_clause":            rkForIn,
	"as_pattern_target":        rkAsTarget,
	"named_expression":         rkWalrus,
	"global_statement":         rkGlobal,
	"nonlocal_statement":       rkGlobal,
	"parameters":               rkParameters,
	"lambda_parameters":        rkParameters,
	"typed_parameter":          rkTypedParameter,
	"dictionary_splat_pattern": rkDictSplat,
	"default_parameter":        rkDefault,
	"typed_default_parameter":  rkDefault,
	"function_definition":      rkDef,
	"class_definition":         rkClass,
	"dotted_name":              rkDottedName,
	"splat_pattern":            rkSplat,
	"as_pattern":               rkAs,
}}

// Binding candidates. bindingRole gives a role other than roleNone only to
// an identifier whose parent has one of roleKinds' kinds (a container it
// climbs through, or the construct it stops at). Of those parent kinds, all
// but the four of bindingExtraKinds may bind a name or declare it global in
// pyast's sense, so their identifiers are listed in
// pyast.Module.BindableIdentifiers (about a quarter of all identifiers).
// The rules that act on bound names only therefore look at that list plus
// the identifier children of the nodes of bindingExtraKinds (a starred
// with-as target element `*b`, match captures), rather than at every
// identifier. TestBindingCandidates checks this on a stdlib sample.
var bindingExtraKinds = []string{"list_splat", "dotted_name", "splat_pattern", "as_pattern"}

var identifierKinds = pyast.NewKindSet("identifier")

// bindingCheck checks one identifier that bindingRole may give a role. A
// rule acting on bound names only runs it over the binding candidates (see
// bindingExtraKinds) with Kinds: bindingExtraKinds, Visit: its visit and
// Finish: its finish. Each identifier is checked once and reported at its
// own position, so the engine's sort by position gives the order of a
// visit of every identifier.
type bindingCheck func(p *nfi.Pass, id syntax.NodeID)

// visit checks the identifier children of n, a node of bindingExtraKinds.
func (check bindingCheck) visit(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if identifierKinds.Has(&t.Nodes[c]) {
			check(p, c)
		}
	}
}

// finish checks the file's bindable identifiers
// (pyast.Module.BindableIdentifiers), in preorder.
func (check bindingCheck) finish(p *nfi.Pass) {
	for _, id := range p.Module.BindableIdentifiers() {
		check(p, id)
	}
}

// appendIdentifierChildren appends the identifier children of n to buf, in
// order.
func appendIdentifierChildren(t *syntax.Tree, n syntax.NodeID, buf []syntax.NodeID) []syntax.NodeID {
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if identifierKinds.Has(&t.Nodes[c]) {
			buf = append(buf, c)
		}
	}
	return buf
}

func isParams(k string) bool { return k == "parameters" || k == "lambda_parameters" }

// isFString reports a string node with an f prefix.
func isFString(t *syntax.Tree, n syntax.NodeID) bool {
	if t.Nodes[n].Kind() != "string" {
		return false
	}
	for _, c := range t.Text(n) {
		switch c {
		case 'f', 'F':
			return true
		case '"', '\'':
			return false
		}
	}
	return false
}

// sameLogicalLine reports whether the source between byte offsets from and
// to holds no line break that ends a logical line: only spaces, tabs,
// form feeds and backslash continuations. A comment ends the line.
func sameLogicalLine(src []byte, from, to uint32) bool {
	for i := from; i < to; i++ {
		switch src[i] {
		case '#':
			return false
		case '\n':
			k := i
			if k > from && src[k-1] == '\r' {
				k--
			}
			if k == from || src[k-1] != '\\' {
				return false
			}
		}
	}
	return true
}

// funcName returns the name of a function or class definition node.
func defName(t *syntax.Tree, n syntax.NodeID) (syntax.NodeID, string) {
	id := t.ChildByField(n, "name")
	if id == syntax.NoNode {
		return id, ""
	}
	return id, nodeString(t, id)
}
