package pyast

import (
	"strings"

	"github.com/polynfi/polynfi/syntax"
)

// Names is the file's name-binding table: for each scope (the module, each
// def, class, lambda and comprehension) the names bound in it (assignments,
// loop and with/except targets, parameters, def and class names, imports)
// and the names declared global or nonlocal. It resolves references to
// qualified names through the import table, the way Ruff's semantic model
// does for the common cases:
//
//   - a name bound locally in a function (anywhere in it, as in Python) is
//     that binding; a non-import binding shadows imports and builtins;
//   - at module and class level the last binding before the reference wins
//     (bindings after it count for references inside functions, which run
//     later); a binding inside an except handler is a fallback and loses to
//     any other candidate (`try: from collections.abc import Mapping`
//     `except ImportError: from collections import Mapping`);
//   - class scopes are not visible from functions nested in them;
//   - a name bound nowhere is a builtin when Python has a builtin of that name.
//
// Not modelled: match-statement captures, del, star imports (names they bring
// stay unresolved), and dynamic access (getattr, globals()).
type Names struct {
	tree    *syntax.Tree
	imports *Imports
	// bindings holds, for each scope (0 for the module) and name, the
	// name's bindings in that scope in source order; global marks the names
	// a scope declares global or nonlocal (nil until the first). One map
	// for all scopes rather than one per scope: most scopes bind one or two
	// of the names the table records.
	bindings map[scopedName][]nameBinding
	global   map[scopedName]bool
	// bound holds every name some scope has a binding of, with where
	// (boundInModule, boundInScope): a name outside it (most builtins in
	// most files) resolves without a walk up the scopes, and so does a
	// reference after all of a name's bindings when only the module binds
	// it and nothing is declared global (see binding).
	bound map[string]uint8
	// the last Binding answer: an attribute chain asks for its root once per
	// link (a.b.c, a.b, a)
	lastNode    syntax.NodeID
	lastImp     *Import
	lastBuiltin bool
}

// Where a name is bound (Names.bound).
const (
	boundInModule uint8 = 1 << iota // the module scope binds it
	boundInScope                    // some other scope binds it
)

// scopedName is a name in one scope (0 for the module).
type scopedName struct {
	scope syntax.NodeID
	name  string
}

type nameBinding struct {
	at        uint32 // start byte of the binding
	imp       int32  // index into Imports.List, -1 for a non-import binding
	inHandler bool   // inside an except handler of this scope
}

// Names returns the file's binding table, built once per file.
func (m *Module) Names() *Names {
	if m.names == nil {
		m.names = buildNames(m.Tree, m.Imports(), m.index().lists[listBindable])
	}
	return m.names
}

// QualifiedName resolves reference n, an identifier or an attribute chain
// whose root is an identifier, to a qualified name: with `import numpy as
// np`, `np.random.seed` is "numpy.random.seed"; with `from os import path`,
// `path.join` is "os.path.join"; the builtin `open` is "builtins.open". ok is
// false when the root name is bound by something other than an import (a
// variable, a parameter), is unbound and not a builtin, or when the chain has
// a call or subscript in it. It allocates only when the root resolves.
func (m *Module) QualifiedName(n syntax.NodeID) (string, bool) { return m.Names().Resolve(n) }

// ImportedName is QualifiedName restricted to references whose root name
// is bound by an import: builtins stay unresolved. It allocates only for
// such references, so it is cheap enough to call on every node.
func (m *Module) ImportedName(n syntax.NodeID) (string, bool) {
	// Only a root name some import binds can resolve: check that before
	// building the binding table.
	root := refRoot(m.Tree, n)
	if !m.rootBindsLocal(root) {
		return "", false
	}
	return m.Names().resolveRoot(n, root, false)
}

// rootBindsLocal reports whether root (an identifier, or NoNode) is a name
// some import binds. It remembers its last answer: the links of an
// attribute chain, visited one after another, share their root.
func (m *Module) rootBindsLocal(root syntax.NodeID) bool {
	if root == syntax.NoNode {
		return false
	}
	if root != m.lastRoot {
		m.lastRoot, m.lastRootBinds = root, m.Imports().BindsLocal(m.Tree.Text(root))
	}
	return m.lastRootBinds
}

// AppendImportedName is ImportedName appending the qualified name to dst
// instead of allocating a string: for scans that only look the name up
// (map lookups keyed by string(b) do not allocate). On false it returns
// dst unchanged.
func (m *Module) AppendImportedName(dst []byte, n syntax.NodeID) ([]byte, bool) {
	r := refRoot(m.Tree, n)
	if !m.rootBindsLocal(r) {
		return dst, false
	}
	nm := m.Names()
	imp, _ := nm.Binding(r)
	if imp == nil || imp.Qualified == "" {
		return dst, false
	}
	return nm.appendSegments(append(dst, imp.Qualified...), dst, n)
}

// refRoot returns the identifier at the root of an attribute chain n (n
// itself for an identifier), NoNode when the root is not an identifier.
func refRoot(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	if n == syntax.NoNode {
		return syntax.NoNode
	}
	for attributeKinds.Has(&t.Nodes[n]) {
		n = t.ChildByField(n, "object")
		if n == syntax.NoNode {
			return syntax.NoNode
		}
	}
	if !identifierKinds.Has(&t.Nodes[n]) {
		return syntax.NoNode
	}
	return n
}

// attributeKinds is the attribute node kind, for refRoot's walk down a
// chain (every reference of a scan passes through it).
var attributeKinds = NewKindSet("attribute")

// Resolve is QualifiedName.
func (nm *Names) Resolve(n syntax.NodeID) (string, bool) { return nm.resolve(n, true) }

func (nm *Names) resolve(n syntax.NodeID, builtins bool) (string, bool) {
	return nm.resolveRoot(n, refRoot(nm.tree, n), builtins)
}

// resolveRoot is resolve for reference n whose refRoot is root.
func (nm *Names) resolveRoot(n, root syntax.NodeID, builtins bool) (string, bool) {
	if n == syntax.NoNode || root == syntax.NoNode {
		return "", false
	}
	t := nm.tree
	imp, builtin := nm.Binding(root)
	var buf [128]byte
	b := buf[:0]
	switch {
	case imp != nil && imp.Qualified != "":
		if root == n {
			return imp.Qualified, true
		}
		b = append(b, imp.Qualified...)
	case builtin && builtins:
		b = append(append(b, "builtins."...), t.Text(root)...)
	default:
		return "", false
	}
	b, ok := nm.appendSegments(b, nil, n)
	if !ok {
		return "", false
	}
	return string(b), true
}

// appendSegments appends to b, which holds the qualified name of the root
// of attribute chain n, the attribute names from the root outwards; the
// source text between root end and n end holds them, possibly with spaces,
// comments or line continuations, so it reads the attribute identifiers
// instead. When an attribute name is missing it returns fail, false.
func (nm *Names) appendSegments(b, fail []byte, n syntax.NodeID) ([]byte, bool) {
	t := nm.tree
	var segs [8]syntax.NodeID
	s := segs[:0]
	for a := n; t.Nodes[a].Kind() == "attribute"; a = t.ChildByField(a, "object") {
		s = append(s, t.ChildByField(a, "attribute"))
	}
	for _, id := range s {
		if id == syntax.NoNode {
			return fail, false
		}
	}
	for i := len(s) - 1; i >= 0; i-- {
		b = append(b, '.')
		b = append(b, t.Text(s[i])...)
	}
	return b, true
}

// Binding reports how identifier reference n is bound: imp is the import
// that binds it (nil when it is not an import), builtin is true when it is
// bound nowhere and names a Python builtin. Both are zero when a local
// variable, parameter, def or class binds it, or when it is unbound.
func (nm *Names) Binding(n syntax.NodeID) (imp *Import, builtin bool) {
	if n == nm.lastNode {
		return nm.lastImp, nm.lastBuiltin
	}
	imp, builtin = nm.binding(n)
	nm.lastNode, nm.lastImp, nm.lastBuiltin = n, imp, builtin
	return imp, builtin
}

func (nm *Names) binding(n syntax.NodeID) (imp *Import, builtin bool) {
	t := nm.tree
	name := t.Text(n)
	if !nm.imports.BindsLocal(name) {
		if !isBuiltinName(name) {
			return nil, false
		}
	}
	where := nm.bound[string(name)]
	if where == 0 {
		return nil, isBuiltinName(name)
	}
	var b nameBinding
	found := false
	if where == boundInModule && nm.global == nil {
		// No scope but the module binds the name and none declares it
		// global: lookup would walk up to the module and pick among its
		// bindings, those before the reference unless it runs deferred.
		// With every binding before the reference, both pick the same.
		bs := nm.bindings[scopedName{0, string(name)}]
		if at := t.Nodes[n].StartByte; allBefore(bs, at) {
			b, found = pickBinding(bs, at, false, false)
		} else {
			b, found = nm.lookup(n, name)
		}
	} else {
		b, found = nm.lookup(n, name)
	}
	if !found {
		return nil, isBuiltinName(name)
	}
	if b.imp < 0 {
		return nil, false
	}
	return &nm.imports.List[b.imp], false
}

// lookup finds the binding a reference at node n to name sees.
func (nm *Names) lookup(n syntax.NodeID, name []byte) (nameBinding, bool) {
	t := nm.tree
	at := t.Nodes[n].StartByte
	innermost := true
	deferred := false // inside a def or lambda: runs after the module body
	for s := nm.enclosingScope(n); ; s = nm.enclosingScope(s) {
		kind := "module"
		if s != 0 {
			kind = t.Nodes[s].Kind()
		}
		if skip := kind == "class_definition" && !innermost; !skip {
			if s != 0 && nm.global[scopedName{s, string(name)}] {
				s = 0
				kind = "module"
				deferred = true
			}
			if bs := nm.bindings[scopedName{s, string(name)}]; len(bs) > 0 {
				if b, ok := pickBinding(bs, at, kind != "module" && kind != "class_definition", deferred); ok {
					return b, true
				}
			}
		}
		if s == 0 {
			return nameBinding{}, false
		}
		switch kind {
		case "function_definition", "lambda":
			deferred = true
		}
		innermost = false
	}
}

// allBefore reports whether every binding of bs starts before byte at.
func allBefore(bs []nameBinding, at uint32) bool {
	for _, b := range bs {
		if b.at >= at {
			return false
		}
	}
	return true
}

// pickBinding chooses among one scope's bindings of a name, as documented
// on Names. all is true for references that run after the scope's body has
// bound everything (a reference inside a def, seen from an enclosing scope).
func pickBinding(bs []nameBinding, at uint32, function, all bool) (nameBinding, bool) {
	best, bestHandler := -1, -1
	for i, b := range bs {
		if !all && b.at >= at {
			break
		}
		if b.inHandler {
			bestHandler = i
		} else {
			best = i
		}
	}
	switch {
	case best >= 0:
		return bs[best], true
	case bestHandler >= 0:
		return bs[bestHandler], true
	case function:
		// Python makes the name local to the whole function.
		return bs[0], true
	}
	return nameBinding{}, false
}

// enclosingScope returns the nearest scope node containing n (0 for the
// module). A def's or class's own name, decorators, bases, parameter
// defaults and annotations belong to the enclosing scope.
func (nm *Names) enclosingScope(n syntax.NodeID) syntax.NodeID {
	t := nm.tree
	child := n
	for p := t.Nodes[n].Parent; p != syntax.NoNode; child, p = p, t.Nodes[p].Parent {
		switch scopeClassOf(&t.Nodes[p]) {
		case scopeDef:
			if f := t.Nodes[child].Field(); f == "body" || (f == "parameters" && isParamName(t, n, child)) {
				return p
			}
		case scopeComprehension:
			return p
		}
	}
	return 0
}

// Scope classes of node kinds, see enclosingScope.
const (
	scopeNone          uint8 = iota
	scopeDef                 // function_definition, class_definition, lambda: the body and parameter names
	scopeComprehension       // the four comprehensions: the whole node
)

// scopeClasses maps a Python KindID to its scope class.
var scopeClasses = (&syntax.KindClasses{Names: map[string]uint8{
	"function_definition": scopeDef, "class_definition": scopeDef, "lambda": scopeDef,
	"list_comprehension": scopeComprehension, "set_comprehension": scopeComprehension,
	"dictionary_comprehension": scopeComprehension, "generator_expression": scopeComprehension,
}}).Table(syntax.Python)

func scopeClassOf(n *syntax.Node) uint8 { return scopeClasses.Of(n) }

// isParamName reports whether n, inside parameter list params, is a
// parameter's own name (not part of a default or annotation).
func isParamName(t *syntax.Tree, n, params syntax.NodeID) bool {
	for c := n; c != params && c != syntax.NoNode; c = t.Nodes[c].Parent {
		switch t.Nodes[c].Field() {
		case "value", "type":
			return false
		}
		if t.Nodes[c].Kind() == "type" {
			return false
		}
	}
	return true
}

var (
	identifierKinds      = NewKindSet("identifier")
	globalStatementKinds = NewKindSet("global_statement", "nonlocal_statement")
)

// buildNames builds the table from the imports and the references refs in
// preorder: the file's identifiers and attributes, or just those that
// may bind a name, the index's listBindable (the others are skipped).
func buildNames(t *syntax.Tree, im *Imports, refs []syntax.NodeID) *Names {
	nm := &Names{tree: t, imports: im, bindings: map[scopedName][]nameBinding{}, bound: map[string]uint8{}, lastNode: syntax.NoNode}
	// Only names that some import binds, or that name a builtin, are ever
	// looked up (see binding): the table records the bindings and global
	// declarations of those names alone, which leaves out most identifiers.
	for _, id := range refs {
		nd := &t.Nodes[id]
		if !identifierKinds.Has(nd) || nd.Parent == syntax.NoNode {
			continue
		}
		global := globalStatementKinds.Has(&t.Nodes[nd.Parent])
		if !global && !isBindingTarget(t, id) {
			continue
		}
		name := t.Text(id)
		if !im.BindsLocal(name) && !isBuiltinName(name) {
			continue
		}
		s := nm.enclosingScope(id)
		if global {
			if nm.global == nil {
				nm.global = map[scopedName]bool{}
			}
			nm.global[scopedName{s, string(name)}] = true
			continue
		}
		k := scopedName{s, string(name)}
		nm.bindings[k] = append(nm.bindings[k], nameBinding{at: nd.StartByte, imp: -1, inHandler: inHandler(t, id, s)})
		nm.bound[k.name] |= boundWhere(s)
	}
	for i := range im.List {
		in := &im.List[i]
		if in.Local == "" {
			continue
		}
		s := nm.enclosingScope(in.Node)
		b := nameBinding{at: t.Nodes[in.Node].StartByte, imp: int32(i), inHandler: inHandler(t, in.Node, s)}
		// Keep each name's bindings in source order.
		k := scopedName{s, in.Local}
		bs := nm.bindings[k]
		j := len(bs)
		for j > 0 && bs[j-1].at > b.at {
			j--
		}
		bs = append(bs, nameBinding{})
		copy(bs[j+1:], bs[j:])
		bs[j] = b
		nm.bindings[k] = bs
		nm.bound[in.Local] |= boundWhere(s)
	}
	return nm
}

// bindableParents marks, by KindID, the parent kinds of the identifiers
// that buildNames may record: the kinds isBindingTarget accepts as an
// identifier's parent (a target pattern or a binding construct) and the
// global and nonlocal statements. The index lists those identifiers
// (listBindable) so that buildNames need not look at every reference.
var bindableParents = func() []bool {
	names := syntax.KindNames(syntax.Python)
	b := make([]bool, len(names))
	for id := range names {
		n := &syntax.Node{KindID: uint16(id)}
		b[id] = bindingParents[id] != bindsNot || targetPatternKinds.Has(n) || globalStatementKinds.Has(n)
	}
	return b
}()

func bindableParent(n *syntax.Node) bool {
	return int(n.KindID) < len(bindableParents) && bindableParents[n.KindID]
}

// boundWhere is the Names.bound bit of a binding in scope s.
func boundWhere(s syntax.NodeID) uint8 {
	if s == 0 {
		return boundInModule
	}
	return boundInScope
}

// inHandler reports whether n lies in an except handler inside scope s.
func inHandler(t *syntax.Tree, n, s syntax.NodeID) bool {
	for p := t.Nodes[n].Parent; p != syntax.NoNode && p != s; p = t.Nodes[p].Parent {
		switch t.Nodes[p].Kind() {
		case "except_clause", "except_group_clause":
			return true
		}
	}
	return false
}

// targetPatternKinds are the kinds that may sit between a binding target
// field and an identifier.
var targetPatternKinds = NewKindSet("pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern",
	"tuple", "list", "parenthesized_expression", "expression_list")

// How isBindingTarget treats the parent kinds that may bind a name.
const (
	bindsNot       uint8 = iota
	bindsLeft            // assignment, augmented_assignment, for_statement, for_in_clause: the left field
	bindsAlways          // as_pattern_target
	bindsOwnName         // named_expression, function_definition, class_definition: the name field, the identifier itself
	bindsNameField       // default_parameter, typed_default_parameter: the name field
	bindsParameter       // parameters and the like: an unnamed child that is a parameter's own name
	bindsAlias           // except_clause: the alias field (Python 2 `except E, e:`)
)

// bindingParents maps a Python KindID to its binds* class.
var bindingParents = (&syntax.KindClasses{Names: map[string]uint8{
	"assignment": bindsLeft, "augmented_assignment": bindsLeft, "for_statement": bindsLeft, "for_in_clause": bindsLeft,
	"as_pattern_target": bindsAlways,
	"named_expression":  bindsOwnName, "function_definition": bindsOwnName, "class_definition": bindsOwnName,
	"default_parameter": bindsNameField, "typed_default_parameter": bindsNameField,
	"parameters": bindsParameter, "lambda_parameters": bindsParameter, "typed_parameter": bindsParameter,
	"list_splat_pattern": bindsParameter, "dictionary_splat_pattern": bindsParameter,
	"except_clause": bindsAlias,
}}).Table(syntax.Python)

// isBindingTarget reports whether identifier n is bound (not read) where it
// stands: an assignment, augmented assignment, for or comprehension target,
// a with/except `as` target, a walrus name, a def or class name, or a
// parameter.
func isBindingTarget(t *syntax.Tree, n syntax.NodeID) bool {
	c := n
	p := t.Nodes[c].Parent
	for p != syntax.NoNode && targetPatternKinds.Has(&t.Nodes[p]) && t.Nodes[c].Field() == "" {
		c, p = p, t.Nodes[p].Parent
	}
	if p == syntax.NoNode {
		return false
	}
	class := bindsNot
	if k := int(t.Nodes[p].KindID); k < len(bindingParents) {
		class = bindingParents[k]
	}
	if class == bindsNot {
		return false
	}
	f := t.Nodes[c].Field()
	switch class {
	case bindsLeft:
		return f == "left"
	case bindsAlways:
		return true
	case bindsOwnName:
		return f == "name" && c == n
	case bindsNameField:
		return f == "name"
	case bindsParameter:
		return f == "" && isParamName(t, n, p)
	case bindsAlias:
		return f == "alias"
	}
	return false
}

// IsReference reports whether identifier n is read where it stands (a load):
// not an attribute name after a dot, a keyword-argument name, a binding
// target, a def/class name, a parameter, or a part of an import or a
// global/nonlocal statement.
func IsReference(t *syntax.Tree, n syntax.NodeID) bool {
	nd := &t.Nodes[n]
	if nd.Kind() != "identifier" || nd.Parent == syntax.NoNode {
		return false
	}
	switch t.Nodes[nd.Parent].Kind() {
	case "attribute":
		return nd.Field() == "object"
	case "keyword_argument":
		return nd.Field() != "name"
	case "dotted_name", "aliased_import", "global_statement", "nonlocal_statement",
		"import_statement", "import_from_statement", "future_import_statement",
		"keyword_pattern", "class_pattern":
		return false
	}
	return !isBindingTarget(t, n)
}

// builtinNames are the names of Python's builtins module (CPython 3.11 plus
// WindowsError, which exists on Windows only and which Ruff treats as a
// builtin everywhere).
var builtinNames = map[string]bool{}

// builtinShapes summarizes builtinNames: three identifiers in four fail it
// without a hash.
var builtinShapes nameShapes

// isBuiltinName reports whether name is in builtinNames.
func isBuiltinName(name []byte) bool {
	return builtinShapes.mayHave(name) && builtinNames[string(name)]
}

func init() {
	for _, s := range strings.Fields(`ArithmeticError AssertionError AttributeError BaseException
		BaseExceptionGroup BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError
		ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError
		DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception
		ExceptionGroup False FileExistsError FileNotFoundError FloatingPointError FutureWarning
		GeneratorExit IOError ImportError ImportWarning IndentationError IndexError
		InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
		ModuleNotFoundError NameError None NotADirectoryError NotImplemented NotImplementedError
		OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError
		PythonFinalizationError RecursionError ReferenceError ResourceWarning RuntimeError
		RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError
		SystemExit TabError TimeoutError True TypeError UnboundLocalError UnicodeDecodeError
		UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning
		ValueError Warning WindowsError ZeroDivisionError __build_class__ __debug__ __doc__
		__import__ __loader__ __name__ __package__ __spec__ abs aiter all anext any ascii bin
		bool breakpoint bytearray bytes callable chr classmethod compile complex copyright
		credits delattr dict dir divmod enumerate eval exec exit filter float format frozenset
		getattr globals hasattr hash help hex id input int isinstance issubclass iter len license
		list locals map max memoryview min next object oct open ord pow print property quit range
		repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip`) {
		builtinNames[s] = true
		builtinShapes.add(s)
	}
}
