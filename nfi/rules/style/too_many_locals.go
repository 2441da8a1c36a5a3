package style

import (
	"slices"
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// TooManyLocals reports functions binding more local names than the limit,
// counted as pylint counts them.
//
// Source: pylint R0914 too-many-locals (max-locals=15); Ruff PLR0914 (preview).
var TooManyLocals = &nfi.Rule{
	ID: "STY-T06", Name: "too-many-locals", Aspect: nfi.CodingStyle, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 15, Cmp: nfi.AtMost, Unit: "local variables"},
	Doc: nfi.Doc{
		Summary: "functions bind at most 15 local names",
		What: "For every def: the number of distinct names bound in its own scope (pylint's " +
			"len(node.locals)): parameters (*args and **kwargs included), assignment, " +
			"augmented and annotated targets, for/with/except targets, assignment expressions " +
			"(also those inside comprehensions), match captures, imports, and nested def and " +
			"class names; minus names declared global or nonlocal. As pylint, `_` and " +
			"parameters matching ignored-argument-names `_.*|^ignored_|^unused_` are not " +
			"counted. Comprehension variables, lambda parameters and names bound in nested " +
			"defs and classes belong to their own scopes. The measured value is the largest count.",
		Why:    "Many locals mean a function juggles too much state at once; split it.",
		Bad:    "def f():\n" + numberedAssignments(16),
		Good:   "def f():\n" + numberedAssignments(15),
		Exempt: "nothing; a file without functions passes.",
		Source: "pylint too-many-locals (default 15); Ruff PLR0914",
		Oracle: "Ruff PLR0914 (preview) differs: it counts only names whose binding is a plain " +
			"assignment, so parameters, loop variables and imports are not counted " +
			"(`def f(a, b, ..., p)` with 16 parameters fails here and passes Ruff). Not exact.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PLR0914"}, Preview: true, RuffLimit: "lint.pylint.max-locals", Exact: false},
	// every node kind the count looks at (see visitLocals), not only defs;
	// identifiers come from the bindable list and the children of
	// bindingExtraKinds (dotted_name is one)
	Kinds: []string{"function_definition", "class_definition", "lambda", "list_comprehension",
		"set_comprehension", "dictionary_comprehension", "generator_expression",
		"dotted_name", "aliased_import", "list_splat", "splat_pattern", "as_pattern"},
	Visit:  visitLocals,
	Finish: finishLocals,
}

func numberedAssignments(n int) string {
	s := ""
	for i := range n {
		s += "    v" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + " = 0\n"
	}
	return s
}

// ignoredArgument reports pylint's default ignored-argument-names,
// `^(_.*|ignored_|unused_)` (a match at the start).
func ignoredArgument(s string) bool {
	return strings.HasPrefix(s, "_") || strings.HasPrefix(s, "ignored_") || strings.HasPrefix(s, "unused_")
}

// node classes of checkTooManyLocals's walk
const (
	lkOther         = iota
	lkScope         // def or class: binds its name; its body is another scope
	lkLambda        // a scope of its own, binding nothing here
	lkComprehension // a scope of its own, but := inside binds here
	lkIdentifier
	lkImport // dotted_name or aliased_import: may bind an imported name
)

var localsKinds = &syntax.KindClasses{Names: map[string]uint8{
	"function_definition":      lkScope,
	"class_definition":         lkScope,
	"lambda":                   lkLambda,
	"list_comprehension":       lkComprehension,
	"set_comprehension":        lkComprehension,
	"dictionary_comprehension": lkComprehension,
	"generator_expression":     lkComprehension,
	"identifier":               lkIdentifier,
	"dotted_name":              lkImport,
	"aliased_import":           lkImport,
}}

var functionKinds = pyast.NewKindSet("function_definition")

// localsState is checkTooManyLocals's Pass.State: the defs being walked,
// innermost last, the identifiers still to take, and the file's source as a
// string (sourceString): names are substrings of it, so that none is copied.
type localsState struct {
	frames []localsFrame // frames[:open] are open; the rest keep their maps for reuse
	open   int
	src    string
	kinds  syntax.KindTable // localsKinds.Table(syntax.Python)
	// The identifiers that may bind (see bindingExtraKinds), taken in
	// preorder among the visited nodes: the file's bindable identifiers
	// from bindable[next:], and the identifier children of the visited
	// nodes of bindingExtraKinds, sorted, from extra.
	bindable []syntax.NodeID
	next     int
	extra    []syntax.NodeID
}

// localsFrame is one def whose body is being walked.
type localsFrame struct {
	def           syntax.NodeID
	body, end     syntax.NodeID // the body's nodes are [body, end)
	skip          syntax.NodeID // the nodes before skip are not the def's own
	names, global nameSet
}

// nameSet is a set of names (substrings of localsState.src): a list
// searched in order while it is short, as it is for most defs, and a map
// once it holds more than nameSetListMax names. Its list's storage is kept
// when it is reset, for the next def.
type nameSet struct {
	list []string
	m    map[string]struct{} // nil while list holds the set
}

// nameSetListMax is the most names a nameSet holds in its list.
const nameSetListMax = 32

// add adds name to s.
func (s *nameSet) add(name string) {
	if s.m != nil {
		s.m[name] = struct{}{}
		return
	}
	for _, x := range s.list {
		if x == name {
			return
		}
	}
	if len(s.list) < nameSetListMax {
		s.list = append(s.list, name)
		return
	}
	s.m = make(map[string]struct{}, 2*nameSetListMax)
	for _, x := range s.list {
		s.m[x] = struct{}{}
	}
	s.m[name] = struct{}{}
}

// has reports whether name is in s.
func (s *nameSet) has(name string) bool {
	if s.m != nil {
		_, ok := s.m[name]
		return ok
	}
	for _, x := range s.list {
		if x == name {
			return true
		}
	}
	return false
}

// len returns the number of names in s.
func (s *nameSet) len() int {
	if s.m != nil {
		return len(s.m)
	}
	return len(s.list)
}

// each calls fn with each name of s, in no particular order.
func (s *nameSet) each(fn func(string)) {
	if s.m != nil {
		for x := range s.m {
			fn(x)
		}
		return
	}
	for _, x := range s.list {
		fn(x)
	}
}

// reset empties s. A map (a def with many names) is dropped rather than
// cleared: clearing costs its capacity, and would on every later def.
func (s *nameSet) reset() {
	s.list, s.m = s.list[:0], nil
}

// visitLocals takes, in preorder, the nodes of the kinds TooManyLocals
// lists and the identifiers that may bind. Each def opens a frame whose
// body's nodes it takes as the def's own, less those of nested scopes
// (other than := targets in comprehensions) and of imports already
// counted; a def is measured when the walk leaves its body (or in
// finishLocals).
//
// Of the identifiers, only those bindingRole may give a role count: the
// file's bindable identifiers and the identifier children of the nodes of
// bindingExtraKinds. Before node n, visitLocals takes those before n, so
// that each is taken in the preorder place where a visit of every
// identifier would take it (the others took nothing; they only closed the
// frames that the next node taken closes in the same order).
func visitLocals(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	st, _ := p.State.(*localsState)
	if st == nil {
		st = &localsState{src: sourceString(p), kinds: localsKinds.Table(syntax.Python),
			bindable: p.Module.BindableIdentifiers()}
		p.State = st
	}
	st.takeIdentifiers(p, n)
	if st.kinds.Of(&t.Nodes[n]) != lkOther { // (a node of bindingExtraKinds may be neither)
		st.takeNode(p, n)
	}
	if extraBindingKinds.Has(&t.Nodes[n]) {
		// n's identifiers come after n and after the extra ones of the
		// nodes around n, but before those of nodes after n.
		at := len(st.extra)
		for at > 0 && st.extra[at-1] > n {
			at--
		}
		if at == len(st.extra) {
			st.extra = appendIdentifierChildren(t, n, st.extra)
		} else {
			kids := appendIdentifierChildren(t, n, nil)
			st.extra = slices.Insert(st.extra, at, kids...)
		}
	}
}

var extraBindingKinds = pyast.NewKindSet(bindingExtraKinds...)

// takeIdentifiers takes, in preorder, the identifiers that may bind that
// come before node before.
func (st *localsState) takeIdentifiers(p *nfi.Pass, before syntax.NodeID) {
	for {
		id := syntax.NoNode
		fromExtra := false
		if st.next < len(st.bindable) && st.bindable[st.next] < before {
			id = st.bindable[st.next]
		}
		if len(st.extra) > 0 && st.extra[0] < before && (id == syntax.NoNode || st.extra[0] < id) {
			id, fromExtra = st.extra[0], true
		}
		if id == syntax.NoNode {
			return
		}
		if fromExtra {
			st.extra = st.extra[1:]
		} else {
			st.next++
		}
		st.takeNode(p, id)
	}
}

// takeNode takes node n: it closes the defs n is after, counts n for the
// def it belongs to, if any, and opens n's frame if n is a def.
func (st *localsState) takeNode(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	for st.open > 0 && n >= st.frames[st.open-1].end {
		st.close(p)
	}
	kind := st.kinds.Of(&t.Nodes[n])
	var f *localsFrame // the def n belongs to, if any
	if st.open > 0 {
		if f = &st.frames[st.open-1]; n < f.body || n < f.skip {
			f = nil // a def header, or a nested scope
		}
	}
	if f != nil {
		f.take(st, t, n, kind)
	}
	if kind == lkScope && functionKinds.Has(&t.Nodes[n]) { // (a def in a class in a def too)
		st.push(t, n)
	}
}

// take counts node n, of class kind, for frame f.
func (f *localsFrame) take(st *localsState, t *syntax.Tree, n syntax.NodeID, kind uint8) {
	text := func(id syntax.NodeID) string {
		nd := &t.Nodes[id]
		return st.src[nd.StartByte:nd.EndByte]
	}
	nd := &t.Nodes[n]
	switch kind {
	case lkScope:
		if id := t.ChildByField(n, "name"); id != syntax.NoNode {
			f.names.add(text(id))
		}
		// Decorators, defaults and bases run in this scope but rarely
		// bind; the body is another scope.
		f.skip = nd.End
	case lkLambda:
		f.skip = nd.End
	case lkComprehension:
		// Only assignment expressions inside bind here.
		t.Walk(n, func(w syntax.NodeID) bool {
			k := t.Nodes[w].Kind()
			if k == "lambda" || k == "function_definition" || k == "class_definition" {
				return false
			}
			if k == "named_expression" {
				if id := t.ChildByField(w, "name"); id != syntax.NoNode {
					f.names.add(text(id))
				}
			}
			return true
		})
		f.skip = nd.End
	case lkIdentifier:
		switch r, _ := bindingRole(t, n); r {
		case roleAssign, roleAug, roleFor, roleWith, roleExcept, roleWalrus, roleMatch:
			f.names.add(text(n))
		case roleGlobal:
			f.global.add(text(n))
		}
	case lkImport:
		if s := importedName(t, n); s != "" {
			f.names.add(s)
			f.skip = nd.End
		} // else its identifiers come next
	}
}

// push opens the frame of def fn and counts its parameters.
func (st *localsState) push(t *syntax.Tree, fn syntax.NodeID) {
	body := t.ChildByField(fn, "body")
	if body == syntax.NoNode {
		return // not measured
	}
	if st.open == len(st.frames) {
		st.frames = append(st.frames, localsFrame{})
	}
	f := &st.frames[st.open]
	st.open++
	f.names.reset()
	f.global.reset()
	f.def, f.body, f.end, f.skip = fn, body, t.Nodes[body].End, body
	if params := t.ChildByField(fn, "parameters"); params != syntax.NoNode {
		for c := t.Nodes[params].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if id := paramName(t, c); id != syntax.NoNode {
				nd := &t.Nodes[id]
				if s := st.src[nd.StartByte:nd.EndByte]; !ignoredArgument(s) {
					f.names.add(s)
				}
			}
		}
	}
}

// close measures the innermost open def.
func (st *localsState) close(p *nfi.Pass) {
	st.open--
	f := &st.frames[st.open]
	// the names, less `_` and the names declared global
	count := f.names.len()
	if f.names.has("_") {
		count--
	}
	f.global.each(func(s string) {
		if s != "_" && f.names.has(s) {
			count--
		}
	})
	p.Measure(float64(count))
	if p.Exceeds(float64(count)) {
		t := p.Tree
		id, name := defName(t, f.def)
		if id == syntax.NoNode {
			id = f.def
		}
		p.Reportf(id, "function %s has %d local variables (> %d)", name, count, int(p.Limit()))
	}
}

// finishLocals measures the defs still open at the end of the file.
func finishLocals(p *nfi.Pass) {
	if st, _ := p.State.(*localsState); st != nil {
		st.takeIdentifiers(p, syntax.NodeID(len(p.Tree.Nodes)))
		for st.open > 0 {
			st.close(p)
		}
	}
}
