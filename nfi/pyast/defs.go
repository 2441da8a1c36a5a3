package pyast

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/polynfi/polynfi/syntax"
)

// DefKind is the kind of a definition, as Ruff's semantic model
// (ruff_python_semantic definition.rs MemberKind) distinguishes them. The
// parent of a definition is the nearest enclosing module, class or function;
// compound statements (if, try, with, for, while, match) in between do not
// change it.
type DefKind uint8

// The definition kinds.
const (
	ModuleDef         DefKind = iota // the file itself
	ClassDef                         // a class whose parent is the module
	NestedClassDef                   // a class inside a class or a function
	FunctionDef                      // a function whose parent is the module
	NestedFunctionDef                // a function inside a function
	MethodDef                        // a function directly inside a class body
)

var defKindNames = [...]string{"module", "class", "nested class", "function", "nested function", "method"}

// String returns "module", "class", "nested class", "function", "nested
// function" or "method".
func (k DefKind) String() string { return defKindNames[k] }

// IsClass reports a class or nested class.
func (k DefKind) IsClass() bool { return k == ClassDef || k == NestedClassDef }

// IsFunction reports a function, nested function or method.
func (k DefKind) IsFunction() bool {
	return k == FunctionDef || k == NestedFunctionDef || k == MethodDef
}

// Def is one definition of a file: the module, a class or a function
// (async included).
type Def struct {
	Kind DefKind
	// Node is the class_definition or function_definition node; the root
	// (module) node for the module.
	Node syntax.NodeID
	// Outer is the decorated_definition wrapping Node, or Node itself when
	// the definition has no decorator. Line spans come from Node.
	Outer syntax.NodeID
	// NameNode is the identifier of the name; NoNode for the module.
	NameNode syntax.NodeID
	// Name is the defined name; for the module it is the file stem
	// ("__init__" for a package).
	Name string
	// Parent indexes Defs.List: the enclosing module, class or function;
	// -1 for the module.
	Parent int
	// Body is the body block; the root node for the module.
	Body syntax.NodeID
	// Public is the Ruff/pydocstyle visibility (see Definitions).
	Public bool
	// Async is true for `async def`.
	Async bool
	// Decorators lists the decorators in source order.
	Decorators []Decorator
	// Doc is the docstring, nil when the definition has none.
	Doc *Docstring

	// Decorator facts, resolved through the file's imports.
	Overload     bool // @typing.overload / @typing_extensions.overload
	Override     bool // @typing.override / @typing_extensions.override
	StaticMethod bool // @staticmethod (builtins) or @abc.abstractstaticmethod
	ClassMethod  bool // @classmethod (builtins) or @abc.abstractclassmethod
	Property     bool // @property, @functools.cached_property, @abc.abstractproperty
	// SetterOrDeleter is true for a function decorated @<its own name>.setter
	// or @<its own name>.deleter.
	SetterOrDeleter bool
}

// IsDunder reports a name of the form __x__ (at least two underscores on
// each side, as Ruff's is_magic).
func IsDunder(name string) bool {
	return len(name) >= 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// Decorator is one `@expr` line of a definition.
type Decorator struct {
	// Node is the decorator node.
	Node syntax.NodeID
	// Expr is the decorator's expression with one call unwrapped to its
	// callee (`@functools.wraps(f)` gives `functools.wraps`).
	Expr syntax.NodeID
	// Called is true when the decorator expression is a call.
	Called bool
	// Name is Expr as a dotted name ("property", "x.setter",
	// "functools.wraps"); "" when Expr is not a name or attribute chain.
	Name string
	// Qualified is Name resolved through the file's imports
	// ("typing.overload" for `@overload` after `from typing import
	// overload`); an unimported bare name resolves to "builtins.<name>"
	// unless the module defines that name itself. "" when Name is "".
	Qualified string
}

// Defs is every definition of a file, in preorder (source order). List[0]
// is the module.
type Defs struct {
	List []Def
	// All holds the names listed in the module's `__all__`: the string
	// literals of module-level assignments `__all__ = [...]`, `= (...)`,
	// `= "a", "b"`, `+=`, `+` concatenations and list()/tuple() wrappers.
	// HasAll is true when the module assigns `__all__` at module level in
	// any way (as in Ruff, `__all__ = compute()` declares exports whose
	// names are unknown, so every top-level name is then private). Like
	// Ruff, `__all__.append(...)`/`.extend(...)` calls add no names.
	All    map[string]bool
	HasAll bool

	hint int // the List index of Lookup's last answer by Node
}

// Module returns the module definition.
func (d *Defs) Module() *Def { return &d.List[0] }

// Lookup returns the definition whose Node (class_definition,
// function_definition or the root) or Outer (decorated_definition) is n.
//
// Lookup remembers the index of its last answer and tries it and the next
// definition before searching: rules visit definitions in preorder, so
// most lookups find one of those two. (Like the rest of a Module, Defs is
// used by one goroutine at a time.)
func (d *Defs) Lookup(n syntax.NodeID) (*Def, bool) {
	if h := d.hint; h < len(d.List) && d.List[h].Node == n {
		return &d.List[h], true
	}
	if h := d.hint + 1; h < len(d.List) && d.List[h].Node == n {
		d.hint = h
		return &d.List[h], true
	}
	i := sort.Search(len(d.List), func(i int) bool { return d.List[i].Node >= n })
	if i < len(d.List) && d.List[i].Node == n {
		d.hint = i
		return &d.List[i], true
	}
	// n may be a decorated_definition: its inner definition follows it.
	if i < len(d.List) && d.List[i].Outer == n {
		return &d.List[i], true
	}
	return nil, false
}

// Enclosing returns the innermost definition containing node n (the module
// when n is at top level).
func (d *Defs) Enclosing(t *syntax.Tree, n syntax.NodeID) *Def {
	best := 0
	for i := 1; i < len(d.List); i++ {
		nd := d.List[i].Node
		if nd > n {
			break
		}
		if n < t.Nodes[nd].End {
			best = i
		}
	}
	return &d.List[best]
}

// ParentDef returns the parent definition, nil for the module.
func (d *Defs) ParentDef(def *Def) *Def {
	if def.Parent < 0 {
		return nil
	}
	return &d.List[def.Parent]
}

// Definitions returns the file's definitions with their visibility,
// decorators and docstrings, computed once per file.
//
// Visibility follows Ruff/pydocstyle (ruff_python_semantic definition.rs
// Definitions::resolve and analyze/visibility.rs):
//   - the module is private when its file stem or a package directory on its
//     path starts with `_` and is not a dunder (see ModulePrivate);
//   - a top-level class or function is private when the module is, when its
//     name starts with `_`, or when the module has `__all__` and the name is
//     not in it;
//   - a method is private when its class is, when it is decorated
//     `@<name>.setter`/`@<name>.deleter`, or when its name starts with `_`
//     and is not a dunder;
//   - a nested function is always private; a class nested in a function is
//     private; a class nested in a class is private when its parent is or its
//     name starts with `_`.
//
// Source: Ruff crates/ruff_python_semantic (definition.rs, analyze/visibility.rs);
// shared/spec/nfi-rules.md §0 "Public".
func (m *Module) Definitions() *Defs {
	if m.defs == nil {
		m.defs = buildDefs(m)
	}
	return m.defs
}

func buildDefs(m *Module) *Defs {
	t := m.Tree
	d := &Defs{}
	collectAll(t, d)
	var imp map[string]importTarget // built on the first decorator
	stem := path.Base(m.Path)
	stem = strings.TrimSuffix(strings.TrimSuffix(stem, ".py"), ".pyi")
	defNodes := m.index().lists[listDef]
	d.List = make([]Def, 0, 1+len(defNodes))
	d.List = append(d.List, Def{
		Kind: ModuleDef, Node: 0, Outer: 0, NameNode: syntax.NoNode, Name: stem,
		Parent: -1, Body: 0, Public: !ModulePrivate(m.Path), Doc: DocstringOf(t, 0),
	})
	type open struct {
		def int
		end syntax.NodeID
	}
	stack := []open{{0, syntax.NodeID(len(t.Nodes))}}
	for _, id := range defNodes {
		n := &t.Nodes[id]
		for len(stack) > 1 && id >= stack[len(stack)-1].end {
			stack = stack[:len(stack)-1]
		}
		isClass := classDefKinds.Has(n)
		parent := stack[len(stack)-1].def
		pk := d.List[parent].Kind
		def := Def{Node: id, Outer: id, Parent: parent, NameNode: defNameField.Child(t, id), Body: defBodyField.Child(t, id)}
		if def.NameNode != syntax.NoNode {
			def.Name = t.TextString(def.NameNode)
		}
		if p := n.Parent; p != syntax.NoNode && decoratedDefKinds.Has(&t.Nodes[p]) {
			def.Outer = p
			if imp == nil {
				imp = m.decoratorImports()
			}
			def.Decorators = decorators(t, p, imp)
		}
		if !isClass && n.FirstChild != syntax.NoNode && t.Nodes[n.FirstChild].Kind() == "async" {
			def.Async = true
		}
		switch {
		case isClass && pk == ModuleDef:
			def.Kind = ClassDef
		case isClass:
			def.Kind = NestedClassDef
		case pk == ModuleDef:
			def.Kind = FunctionDef
		case pk.IsClass():
			def.Kind = MethodDef
		default:
			def.Kind = NestedFunctionDef
		}
		def.setDecoratorFacts()
		if def.Body != syntax.NoNode {
			def.Doc = DocstringOf(t, def.Body)
		}
		def.Public = d.visible(&def)
		d.List = append(d.List, def)
		stack = append(stack, open{len(d.List) - 1, n.End})
	}
	return d
}

// The kinds and fields buildDefs looks at for every definition.
var (
	classDefKinds     = NewKindSet("class_definition")
	decoratedDefKinds = NewKindSet("decorated_definition")
	defNameField      = syntax.NewFieldKey("name")
	defBodyField      = syntax.NewFieldKey("body")
)

// visible decides def's visibility from its parent's (already decided).
func (d *Defs) visible(def *Def) bool {
	parent := &d.List[def.Parent]
	switch def.Kind {
	case ClassDef, FunctionDef:
		if !parent.Public || (d.HasAll && !d.All[def.Name]) {
			return false
		}
		return !strings.HasPrefix(def.Name, "_")
	case NestedClassDef:
		if !parent.Public || parent.Kind.IsFunction() {
			return false
		}
		return !strings.HasPrefix(def.Name, "_")
	case MethodDef:
		if !parent.Public || def.SetterOrDeleter {
			return false
		}
		return IsDunder(def.Name) || !strings.HasPrefix(def.Name, "_")
	}
	return false // nested functions
}

func (def *Def) setDecoratorFacts() {
	for _, dec := range def.Decorators {
		switch dec.Qualified {
		case "typing.overload", "typing_extensions.overload":
			def.Overload = true
		case "typing.override", "typing_extensions.override":
			def.Override = true
		case "builtins.staticmethod", "abc.abstractstaticmethod":
			def.StaticMethod = true
		case "builtins.classmethod", "abc.abstractclassmethod":
			def.ClassMethod = true
		case "builtins.property", "functools.cached_property", "abc.abstractproperty":
			def.Property = true
		}
		if !dec.Called && (dec.Name == def.Name+".setter" || dec.Name == def.Name+".deleter") {
			def.SetterOrDeleter = true
		}
	}
}

func decorators(t *syntax.Tree, outer syntax.NodeID, imp map[string]importTarget) []Decorator {
	var out []Decorator
	for c := t.Nodes[outer].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Kind() != "decorator" {
			continue
		}
		dec := Decorator{Node: c, Expr: syntax.NoNode}
		for e := t.Nodes[c].FirstChild; e != syntax.NoNode; e = t.Nodes[e].NextSibling {
			if t.Nodes[e].Named && !t.Nodes[e].Extra {
				dec.Expr = e
				break
			}
		}
		if dec.Expr != syntax.NoNode && t.Nodes[dec.Expr].Kind() == "call" {
			dec.Called = true
			dec.Expr = t.ChildByField(dec.Expr, "function")
		}
		if dec.Expr != syntax.NoNode {
			dec.Name = DottedName(t, dec.Expr)
			dec.Qualified = resolveDotted(dec.Name, imp)
		}
		out = append(out, dec)
	}
	return out
}

// DottedName returns an identifier or attribute chain as "a.b.c", or "" when
// n is anything else (a call, a subscript, ...).
func DottedName(t *syntax.Tree, n syntax.NodeID) string {
	switch t.Nodes[n].Kind() {
	case "identifier":
		return t.TextString(n)
	case "attribute":
		obj := t.ChildByField(n, "object")
		attr := t.ChildByField(n, "attribute")
		if obj == syntax.NoNode || attr == syntax.NoNode {
			return ""
		}
		left := DottedName(t, obj)
		if left == "" {
			return ""
		}
		return left + "." + t.TextString(attr)
	}
	return ""
}

// resolveDotted maps the first segment of a dotted name through imp (local
// name → import target); unbound names are builtins. The result never
// shares the tree's source bytes.
func resolveDotted(name string, imp map[string]importTarget) string {
	if name == "" {
		return ""
	}
	head, rest, _ := strings.Cut(name, ".")
	tg, ok := imp[head]
	var q string
	switch {
	case !ok:
		q = "builtins." + head
	case tg.dotted:
		q = tg.module + "." + tg.name
	case tg.name == "": // defined locally, not imported
		return name
	case rest != "":
		q = tg.name
	default:
		return strings.Clone(tg.name)
	}
	if rest != "" {
		return q + "." + rest
	}
	return q
}

// importTarget is what a local name stands for in decoratorImports: the
// qualified name module + "." + name when dotted (a from-import), else name
// ("" for a module-level class or def, which shadows a builtin). Both are
// views of the tree's source bytes, kept only while the definitions are
// built.
type importTarget struct {
	module, name string
	dotted       bool
}

// decoratorImports builds the local-name → qualified-name table used to
// resolve decorators: every import in the file (module level or not), and
// module-level class/def names mapped to "" (shadowing a builtin).
func (m *Module) decoratorImports() map[string]importTarget {
	t := m.Tree
	// Keys and targets are views of the source, not copies: the table is
	// dropped once the definitions are built, and resolveDotted copies
	// what it keeps.
	text := func(n syntax.NodeID) string {
		b := t.Text(n)
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	imp := map[string]importTarget{}
	for _, id := range m.index().lists[listImportish] {
		n := &t.Nodes[id]
		switch n.Kind() {
		case "import_statement":
			for c := n.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				switch t.Nodes[c].Kind() {
				case "dotted_name":
					head, _, _ := strings.Cut(text(c), ".")
					imp[head] = importTarget{name: head}
				case "aliased_import":
					name, alias := t.ChildByField(c, "name"), t.ChildByField(c, "alias")
					if name != syntax.NoNode && alias != syntax.NoNode {
						imp[text(alias)] = importTarget{name: text(name)}
					}
				}
			}
		case "import_from_statement":
			modNode := t.ChildByField(id, "module_name")
			if modNode == syntax.NoNode {
				continue
			}
			mod := text(modNode)
			for c := n.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				if t.Nodes[c].Field() != "name" {
					continue
				}
				switch t.Nodes[c].Kind() {
				case "dotted_name":
					nm := text(c)
					imp[nm] = importTarget{module: mod, name: nm, dotted: true}
				case "aliased_import":
					name, alias := t.ChildByField(c, "name"), t.ChildByField(c, "alias")
					if name != syntax.NoNode && alias != syntax.NoNode {
						imp[text(alias)] = importTarget{module: mod, name: text(name), dotted: true}
					}
				}
			}
		case "class_definition", "function_definition":
			if p := n.Parent; p != syntax.NoNode && (t.Nodes[p].Kind() == "module" ||
				(t.Nodes[p].Kind() == "decorated_definition" && t.Nodes[p].Parent == 0)) {
				if nm := t.ChildByField(id, "name"); nm != syntax.NoNode {
					imp[text(nm)] = importTarget{}
				}
			}
		}
	}
	return imp
}

// collectAll reads the module-level `__all__` definitions into d.
func collectAll(t *syntax.Tree, d *Defs) {
	// Module-level statements: children of the root, and of blocks of
	// compound statements that are not class or function bodies.
	var visit func(block syntax.NodeID)
	visit = func(block syntax.NodeID) {
		for c := t.Nodes[block].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			switch t.Nodes[c].Kind() {
			case "expression_statement":
				allStatement(t, c, d)
			case "function_definition", "class_definition", "decorated_definition":
			default:
				if t.Nodes[c].Named && !t.Nodes[c].Extra {
					visitCompound(t, c, visit)
				}
			}
		}
	}
	visit(0)
}

// visitCompound calls visit on every block of a compound statement
// (if/elif/else, try/except/finally, for, while, with, match/case).
func visitCompound(t *syntax.Tree, n syntax.NodeID, visit func(syntax.NodeID)) {
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		switch t.Nodes[c].Kind() {
		case "block":
			visit(c)
		case "elif_clause", "else_clause", "except_clause", "except_group_clause",
			"finally_clause", "case_clause", "block_list":
			visitCompound(t, c, visit)
		}
	}
}

func allStatement(t *syntax.Tree, stmt syntax.NodeID, d *Defs) {
	e := t.FirstNamedChild(stmt)
	if e == syntax.NoNode {
		return
	}
	switch t.Nodes[e].Kind() {
	case "assignment", "augmented_assignment":
		left := t.ChildByField(e, "left")
		right := t.ChildByField(e, "right")
		if left == syntax.NoNode || t.Nodes[left].Kind() != "identifier" || string(t.Text(left)) != "__all__" || right == syntax.NoNode {
			return
		}
		// Any binding of __all__ declares the exports, as in Ruff; names
		// come from the literal parts Ruff recognizes.
		d.HasAll = true
		allNames(t, right, d)
	}
}

// allNames adds the string elements of an `__all__` value and reports
// whether the value had a recognized shape.
func allNames(t *syntax.Tree, v syntax.NodeID, d *Defs) bool {
	switch t.Nodes[v].Kind() {
	case "list", "tuple", "expression_list":
		for c := t.Nodes[v].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Kind() == "string" {
				if s, ok := plainString(t, c); ok {
					d.addAll(s)
				}
			}
		}
		return true
	case "parenthesized_expression":
		if c := t.FirstNamedChild(v); c != syntax.NoNode {
			return allNames(t, c, d)
		}
	case "binary_operator":
		l, r := t.ChildByField(v, "left"), t.ChildByField(v, "right")
		ok := false
		if l != syntax.NoNode && allNames(t, l, d) {
			ok = true
		}
		if r != syntax.NoNode && allNames(t, r, d) {
			ok = true
		}
		return ok
	case "call":
		fn := t.ChildByField(v, "function")
		if fn != syntax.NoNode {
			if nm := DottedName(t, fn); nm == "list" || nm == "tuple" {
				args := t.ChildByField(v, "arguments")
				if args == syntax.NoNode {
					return false
				}
				if a := t.FirstNamedChild(args); a != syntax.NoNode {
					return allNames(t, a, d)
				}
				return true
			}
		}
	}
	return false
}

func (d *Defs) addAll(s string) {
	if d.All == nil {
		d.All = map[string]bool{}
	}
	d.All[s] = true
}

// plainString returns the raw body of a non-f, non-bytes string literal.
func plainString(t *syntax.Tree, n syntax.NodeID) (string, bool) {
	p, ok := stringPart(t, n)
	if !ok || !p.IsText() {
		return "", false
	}
	return p.Body, true
}

// ModulePrivate reports whether a module is private by its path: its file
// stem, or the name of a package directory it sits in, starts with `_` and
// is not a dunder (`__init__.py`, `__main__.py` and `__about__/x.py` are
// public). A package directory is an ancestor directory holding an
// `__init__.py`, found by walking up from the file while that holds (as
// Ruff's package detection does). When a directory cannot be examined on
// disk (a repository path scored from a diff), every directory component
// of the relative path is taken to be a package. Results for directories
// are cached; safe for concurrent use.
//
// Source: Ruff analyze/visibility.rs module_visibility and is_private_module.
func ModulePrivate(p string) bool {
	p = filepath.ToSlash(p)
	stem := path.Base(p)
	stem = strings.TrimSuffix(strings.TrimSuffix(stem, ".py"), ".pyi")
	if isPrivateName(stem) {
		return true
	}
	return dirPrivate(path.Dir(p))
}

// privateDirs caches dirPrivate's results: the files of one directory
// share its answer (the climb costs a cache lookup and two path
// operations per level, per file otherwise).
var privateDirs sync.Map // string → bool

// dirPrivate reports whether the modules in dir (slash-separated, as
// path.Dir returns it) are private by their packages: climbing while the
// directories are packages (or cannot be examined), one of them has a
// private name.
func dirPrivate(dir string) bool {
	if v, ok := privateDirs.Load(dir); ok {
		return v.(bool)
	}
	private := false
	for d := dir; d != "." && d != "/" && d != ""; d = path.Dir(d) {
		base := path.Base(d)
		if base == ".." || base == "." {
			break
		}
		if isPackageDir(d) == dirNotPackage {
			break
		}
		if isPrivateName(base) {
			private = true
			break
		}
	}
	privateDirs.Store(dir, private)
	return private
}

func isPrivateName(s string) bool {
	return strings.HasPrefix(s, "_") && !(strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__") && len(s) >= 4)
}

type dirState uint8

const (
	dirUnknown dirState = iota
	dirPackage
	dirNotPackage
)

var packageDirs sync.Map // string → dirState

func isPackageDir(dir string) dirState {
	if v, ok := packageDirs.Load(dir); ok {
		return v.(dirState)
	}
	// __init__.py first: in a package (most directories asked about) one
	// stat answers, as an existing __init__.py's parent is a directory
	st := dirUnknown
	for _, f := range []string{"__init__.py", "__init__.pyi"} {
		if _, err := os.Stat(filepath.Join(filepath.FromSlash(dir), f)); err == nil {
			st = dirPackage
			break
		}
	}
	if st == dirUnknown {
		if fi, err := os.Stat(filepath.FromSlash(dir)); err == nil && fi.IsDir() {
			st = dirNotPackage
		}
	}
	packageDirs.Store(dir, st)
	return st
}
