package style

import (
	"unicode/utf8"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// VariableName reports names bound inside a function that are not lowercase.
//
// Source: PEP 8 "Function and Variable Names"; Ruff N806 (pep8-naming); SWE-IF style_6.
var VariableName = &nfi.Rule{
	ID: "STY-R05", Name: "local-variable-name-lowercase", Aspect: nfi.CodingStyle, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "function-local variables are lowercase",
		What: "Every name bound in a function's own scope by assignment (plain, annotated, " +
			"augmented, unpacking), a for target, a with-as target, an assignment expression " +
			"(:=) or a match-statement capture is lowercase (Ruff is_lowercase). Names bound in " +
			"a class body, lambda or comprehension inside the function are not function locals.",
		Why:  "PEP 8: variable names follow the function convention; capitalized locals read like classes or constants.",
		Bad:  "def total(items):\n    Sum = 0\n    for x in items:\n        Sum += x\n    return Sum\n",
		Good: "def total(items):\n    acc = 0\n    for x in items:\n        acc += x\n    return acc\n",
		Exempt: "names declared `global` in the function; plain assignments whose value is a " +
			"call of collections.namedtuple, typing.NamedTuple, typing.TypedDict, " +
			"typing.TypeVar, typing.NewType or typing.TypeAliasType (typing_extensions too); " +
			"annotated assignments to typing.TypeAlias; pep8-naming's default ignore-names.",
		Source: "PEP 8 (\"Function and Variable Names\"); Ruff N806; SWE-IF style_6",
		Oracle: "Ruff N806. Differences: the catalog also exempts TypeAliasType(...) " +
			"(`Alias = TypeAliasType(\"Alias\", int)` inside a def, which Ruff 0.17 reports), and " +
			"Django's `Model = apps.get_model(...)` exemption is not modelled.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"N806"}, Exact: true},
	// only the identifiers that may bind (see bindingExtraKinds), not all
	Kinds:  bindingExtraKinds,
	Visit:  bindingCheck(checkVariableName).visit,
	Finish: bindingCheck(checkVariableName).finish,
}

// checkVariableName checks identifier n.
func checkVariableName(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	name := t.Text(n)
	if isLowercase(name) {
		return
	}
	r, stmt := bindingRole(t, n)
	switch r {
	case roleAssign, roleAug, roleFor, roleWith, roleWalrus, roleMatch:
	default:
		return
	}
	scope := scopeOf(t, n)
	if t.Nodes[scope].Kind() != "function_definition" || pyast.IsIgnoredName(string(name)) {
		return
	}
	if declaredGlobal(p, scope, string(name)) {
		return
	}
	if r == roleAssign && typingFactoryAssignment(p.Module, stmt) {
		return
	}
	p.Reportf(n, "variable %s in function is not lowercase", name)
}

// isLowercase is pyast.IsLowercase of a name's bytes, without converting
// the (all-ASCII, nearly always) name to a string: an ASCII upper-case letter
// before any non-ASCII byte decides false, and only a name with non-ASCII
// bytes is handed to pyast.IsLowercase.
func isLowercase(name []byte) bool {
	for _, c := range name {
		switch {
		case c >= 'A' && c <= 'Z':
			return false
		case c >= utf8.RuneSelf:
			return pyast.IsLowercase(string(name))
		}
	}
	return true
}

// declaredGlobal reports whether function fn declares name global (a
// `global` statement in its own scope). The per-function sets are cached in
// p.State.
func declaredGlobal(p *nfi.Pass, fn syntax.NodeID, name string) bool {
	cache, _ := p.State.(map[syntax.NodeID]map[string]bool)
	if cache == nil {
		cache = map[syntax.NodeID]map[string]bool{}
		p.State = cache
	}
	set, ok := cache[fn]
	if !ok {
		t := p.Tree
		body := t.ChildByField(fn, "body")
		if body != syntax.NoNode {
			t.Walk(body, func(id syntax.NodeID) bool {
				switch t.Nodes[id].Kind() {
				case "function_definition", "class_definition", "lambda":
					return false
				case "global_statement":
					for c := t.Nodes[id].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
						if t.Nodes[c].Kind() == "identifier" {
							if set == nil {
								set = map[string]bool{}
							}
							set[t.TextString(c)] = true
						}
					}
					return false
				}
				return true
			})
		}
		cache[fn] = set
	}
	return set[name]
}

// typingFactoryAssignment reports an assignment statement (the top of a
// chain `A = B = value`) whose value is a call of a typing factory
// (NamedTuple, TypedDict, TypeVar, NewType, TypeAliasType,
// collections.namedtuple), or an annotated assignment whose annotation is
// typing.TypeAlias.
func typingFactoryAssignment(m *pyast.Module, stmt syntax.NodeID) bool {
	t := m.Tree
	for t.Kind(t.Nodes[stmt].Parent) == "assignment" {
		stmt = t.Nodes[stmt].Parent
	}
	if ty := t.ChildByField(stmt, "type"); ty != syntax.NoNode {
		if e := t.FirstNamedChild(ty); e != syntax.NoNode {
			q, _ := m.QualifiedName(e)
			return isTyping(q, "TypeAlias")
		}
		return false
	}
	v := stmt
	for t.Nodes[v].Kind() == "assignment" {
		v = t.ChildByField(v, "right")
		if v == syntax.NoNode {
			return false
		}
	}
	if t.Nodes[v].Kind() != "call" {
		return false
	}
	q, ok := m.QualifiedName(t.ChildByField(v, "function"))
	if !ok {
		return false
	}
	return q == "collections.namedtuple" || isTyping(q, "NamedTuple") || isTyping(q, "TypedDict") ||
		isTyping(q, "TypeVar") || isTyping(q, "NewType") || isTyping(q, "TypeAliasType")
}

// isTyping reports q == typing.<name> or typing_extensions.<name>.
func isTyping(q, name string) bool {
	return q == "typing."+name || q == "typing_extensions."+name
}
