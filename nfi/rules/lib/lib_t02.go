package lib

import (
	"bytes"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// OutdatedConstructCount reports files with many constructs that pyupgrade
// would rewrite.
//
// Source: pyupgrade docs; PEP 604; Ruff pyupgrade (UP) rules.
var OutdatedConstructCount = &nfi.Rule{
	ID: "LIB-T02", Name: "outdated-construct-count", Aspect: nfi.LibraryConstraints, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 2, Cmp: nfi.AtMost, Unit: "occurrences"},
	Doc: nfi.Doc{
		Summary: "file has too many outdated (pyupgrade-class) constructs",
		What: "The number of occurrences of: `%`-formatting with a str literal on the left (UP031); " +
			"`.format(...)` called on a str literal (UP032); `super(C, self)` naming the enclosing " +
			"class and the method's first parameter (UP008); `object` among a class's bases (UP004); " +
			"a `u`/`U` string prefix (UP025); `open(path, 'r')` / `'rt'` / mode='r' on the builtin " +
			"open or io.open (UP015); `@functools.lru_cache()` with no arguments (UP011); a " +
			"non-async `for x in y: yield x` loop that only yields its target (UP028); a `from " +
			"__future__ import` of a feature mandatory in Python 3 (UP010, one per statement); and " +
			"`typing.Optional[X]` / `typing.Union[X, Y]` (UP045/UP007). The file passes when the " +
			"count is at most the limit (default 2). The diagnostic sits on the first occurrence over the limit.",
		Why: "Each construct has a shorter modern spelling; many of them mark code that was not " +
			"touched since Python 2 or 3.5 and is likely to use other outdated APIs too.",
		Bad: "class Point(object):\n    def __init__(self, x):\n        super(Point, self).__init__()\n" +
			"        self.label = u'point %s' % x\n",
		Good:   "class Point:\n    def __init__(self, x):\n        super().__init__()\n        self.label = f'point {x}'\n",
		Exempt: "A file with no occurrence passes (value 0). Bytes literals (`b'%d' % n`) are not counted.",
		Source: "pyupgrade docs; PEP 604; Ruff UP004, UP007, UP008, UP010, UP011, UP015, UP025, UP028, UP031, UP032, UP045",
		Oracle: "count of those Ruff UP diagnostics (not exact): Ruff skips some cases it cannot " +
			"rewrite safely, e.g. UP032 for `'{}'.format(*args)`, and gates UP007/UP045 on the target version.",
	},
	Kinds: []string{"binary_operator", "call", "class_definition", "string", "decorator",
		"for_statement", "future_import_statement", "subscript", "generic_type"},
	Visit:  visitOutdated,
	Finish: finishOutdated,
}

type outdated struct {
	node syntax.NodeID
	what string
}

func visitOutdated(p *nfi.Pass, n syntax.NodeID) {
	if what := outdatedConstruct(p, n); what != "" {
		s, _ := p.State.([]outdated)
		p.State = append(s, outdated{n, what})
	}
}

func finishOutdated(p *nfi.Pass) {
	s, _ := p.State.([]outdated)
	p.Measure(float64(len(s)))
	if !p.Exceeds(float64(len(s))) {
		return
	}
	over := s[int(p.Limit())]
	p.Reportf(over.node, "file has %d outdated constructs (> %g); this one: %s", len(s), p.Limit(), over.what)
}

var futureFeatures = map[string]bool{
	"nested_scopes": true, "generators": true, "division": true, "absolute_import": true,
	"with_statement": true, "print_function": true, "unicode_literals": true, "generator_stop": true,
}

// node classes of outdatedConstruct
const (
	okOther = iota
	okBinaryOperator
	okCall
	okClassDefinition
	okString
	okDecorator
	okForStatement
	okFutureImport
	okSubscript
	okGenericType
	okAttribute
	okIdentifier
)

var outdatedKinds = &syntax.KindClasses{Names: map[string]uint8{
	"binary_operator":         okBinaryOperator,
	"call":                    okCall,
	"class_definition":        okClassDefinition,
	"string":                  okString,
	"decorator":               okDecorator,
	"for_statement":           okForStatement,
	"future_import_statement": okFutureImport,
	"subscript":               okSubscript,
	"generic_type":            okGenericType,
	"attribute":               okAttribute,
	"identifier":              okIdentifier,
}}

// Fields and kinds that outdatedConstruct looks up in the children of every
// call, string and binary operator (its most frequent kinds) and in the
// strings strLiteral looks at: by number rather than by name.
var (
	fieldAttribute    = syntax.NewFieldKey("attribute")
	fieldFunction     = syntax.NewFieldKey("function")
	fieldLeft         = syntax.NewFieldKey("left")
	fieldObject       = syntax.NewFieldKey("object")
	fieldOperator     = syntax.NewFieldKey("operator")
	stringStartKind   = pyast.NewKindSet("string_start")
	interpolationKind = pyast.NewKindSet("interpolation")
)

// outdatedConstruct names the outdated construct at n, or returns "".
func outdatedConstruct(p *nfi.Pass, n syntax.NodeID) string {
	t := p.Tree
	m := p.Module
	kinds := outdatedKinds.Table(syntax.Python)
	switch kinds.Of(&t.Nodes[n]) {
	case okBinaryOperator:
		op := fieldOperator.Child(t, n)
		if op != syntax.NoNode && string(t.Text(op)) == "%" && strLiteral(t, fieldLeft.Child(t, n)) {
			return "%-format on a string literal (UP031)"
		}
	case okCall:
		f := fieldFunction.Child(t, n)
		if f == syntax.NoNode {
			return ""
		}
		switch kinds.Of(&t.Nodes[f]) {
		case okAttribute:
			a := fieldAttribute.Child(t, f)
			if a == syntax.NoNode {
				return "" // no qualified name either
			}
			switch string(t.Text(a)) {
			case "format":
				if strLiteral(t, fieldObject.Child(t, f)) {
					return ".format() on a string literal (UP032)"
				}
			case "open": // the last part of io.open
				if q, ok := m.ImportedName(f); ok && q == "io.open" && redundantOpenMode(t, n) {
					return "redundant open mode (UP015)"
				}
			}
		case okIdentifier:
			switch string(t.Text(f)) {
			case "super":
				if superWithArgs(p, n) {
					return "super() with explicit class and instance (UP008)"
				}
			case "open":
				if _, builtin := m.Names().Binding(f); builtin && redundantOpenMode(t, n) {
					return "redundant open mode (UP015)"
				}
			}
		}
	case okClassDefinition:
		if sc := t.ChildByField(n, "superclasses"); sc != syntax.NoNode {
			for c := t.Nodes[sc].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				if t.Nodes[c].Kind() == "identifier" && string(t.Text(c)) == "object" {
					if _, builtin := m.Names().Binding(c); builtin {
						return "class inherits from object (UP004)"
					}
				}
			}
		}
	case okString:
		if st := stringStartKind.FirstChild(t, n); st != syntax.NoNode && bytes.ContainsAny(t.Text(st), "uU") {
			return "u'' string prefix (UP025)"
		}
	case okDecorator:
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Kind() != "call" {
				continue
			}
			args := t.ChildByField(c, "arguments")
			if args == syntax.NoNode || t.Nodes[args].Kind() != "argument_list" || len(namedChildren(t, args)) > 0 {
				continue
			}
			if q, ok := m.ImportedName(t.ChildByField(c, "function")); ok && q == "functools.lru_cache" {
				return "@lru_cache() without arguments (UP011)"
			}
		}
	case okForStatement:
		if yieldOnlyLoop(t, n) {
			return "for loop that only yields its target: use yield from (UP028)"
		}
	case okFutureImport:
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			name := c
			if t.Nodes[c].Kind() == "aliased_import" {
				name = t.ChildByField(c, "name")
			}
			if name != syntax.NoNode && t.Nodes[name].Kind() == "dotted_name" && futureFeatures[string(t.Text(name))] {
				return "unnecessary from __future__ import (UP010)"
			}
		}
	case okSubscript, okGenericType:
		v := t.ChildByField(n, "value")
		if kinds.Of(&t.Nodes[n]) == okGenericType {
			v = t.FirstNamedChild(n)
		}
		if v == syntax.NoNode {
			return ""
		}
		switch kinds.Of(&t.Nodes[v]) {
		case okIdentifier:
		case okAttribute:
			// The qualified names below end in Optional or Union.
			a := t.ChildByField(v, "attribute")
			if a == syntax.NoNode {
				return ""
			}
			if w := string(t.Text(a)); w != "Optional" && w != "Union" {
				return ""
			}
		default:
			return ""
		}
		q, ok := m.ImportedName(v)
		if !ok {
			return ""
		}
		switch q {
		case "typing.Optional", "typing_extensions.Optional":
			return "Optional[X] instead of X | None (UP045)"
		case "typing.Union", "typing_extensions.Union":
			return "Union[X, Y] instead of X | Y (UP007)"
		}
	}
	return ""
}

// strLiteral reports whether n is a str literal (or implicit concatenation
// of them) that is neither a bytes literal nor an f-string.
func strLiteral(t *syntax.Tree, n syntax.NodeID) bool {
	if n == syntax.NoNode {
		return false
	}
	switch t.Nodes[n].Kind() {
	case "concatenated_string":
		c := t.FirstNamedChild(n)
		return c != syntax.NoNode && strLiteral(t, c)
	case "string":
		st := stringStartKind.FirstChild(t, n)
		return st != syntax.NoNode && !bytes.ContainsAny(t.Text(st), "bBfF") && interpolationKind.FirstChild(t, n) == syntax.NoNode
	}
	return false
}

func namedChildren(t *syntax.Tree, n syntax.NodeID) []syntax.NodeID {
	var out []syntax.NodeID
	if n == syntax.NoNode {
		return nil
	}
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Named && t.Nodes[c].Kind() != "comment" {
			out = append(out, c)
		}
	}
	return out
}

// redundantOpenMode reports an open call whose mode is "r", "rt" or "tr",
// given as the second positional argument or as mode=.
func redundantOpenMode(t *syntax.Tree, call syntax.NodeID) bool {
	args := t.ChildByField(call, "arguments")
	if args == syntax.NoNode {
		return false
	}
	pos := 0
	for _, c := range namedChildren(t, args) {
		var mode syntax.NodeID = syntax.NoNode
		switch t.Nodes[c].Kind() {
		case "keyword_argument":
			if name := t.ChildByField(c, "name"); name != syntax.NoNode && string(t.Text(name)) == "mode" {
				mode = t.ChildByField(c, "value")
			}
		case "list_splat", "dictionary_splat":
			return false
		default:
			pos++
			if pos == 2 {
				mode = c
			}
		}
		if mode == syntax.NoNode || !strLiteral(t, mode) || t.Nodes[mode].Kind() != "string" {
			continue
		}
		content := t.FirstChildOfKind(mode, "string_content")
		if content == syntax.NoNode {
			return false
		}
		switch string(t.Text(content)) {
		case "r", "rt", "tr":
			return true
		}
		return false
	}
	return false
}

// superWithArgs reports super(C, self) inside a method of class C whose
// first parameter is self.
func superWithArgs(p *nfi.Pass, call syntax.NodeID) bool {
	t := p.Tree
	if _, builtin := p.Module.Names().Binding(t.ChildByField(call, "function")); !builtin {
		return false
	}
	args := t.ChildByField(call, "arguments")
	if args == syntax.NoNode {
		return false
	}
	a := namedChildren(t, args)
	if len(a) != 2 || t.Nodes[a[0]].Kind() != "identifier" || t.Nodes[a[1]].Kind() != "identifier" {
		return false
	}
	fn := t.Ancestor(call, "function_definition")
	if fn == syntax.NoNode {
		return false
	}
	class := t.Ancestor(fn, "class_definition")
	if class == syntax.NoNode || t.Ancestor(fn, "function_definition") > class {
		return false // not a method (a def nested in another def)
	}
	name := t.ChildByField(class, "name")
	params := t.ChildByField(fn, "parameters")
	if name == syntax.NoNode || params == syntax.NoNode {
		return false
	}
	first := t.FirstNamedChild(params)
	if first == syntax.NoNode {
		return false
	}
	if k := t.Nodes[first].Kind(); k == "typed_parameter" {
		first = t.FirstNamedChild(first)
	} else if k != "identifier" {
		return false
	}
	return first != syntax.NoNode && string(t.Text(a[0])) == string(t.Text(name)) && string(t.Text(a[1])) == string(t.Text(first))
}

// yieldOnlyLoop reports `for x in y: yield x` (not async, no else, in a
// non-async def).
func yieldOnlyLoop(t *syntax.Tree, n syntax.NodeID) bool {
	if c := t.Nodes[n].FirstChild; c != syntax.NoNode && t.Nodes[c].Kind() == "async" {
		return false
	}
	if t.ChildByField(n, "alternative") != syntax.NoNode {
		return false
	}
	if fn := t.Ancestor(n, "function_definition"); fn != syntax.NoNode {
		if c := t.Nodes[fn].FirstChild; c != syntax.NoNode && t.Nodes[c].Kind() == "async" {
			return false
		}
	}
	left := t.ChildByField(n, "left")
	body := namedChildren(t, t.ChildByField(n, "body"))
	if left == syntax.NoNode || len(body) != 1 || t.Nodes[body[0]].Kind() != "expression_statement" {
		return false
	}
	e := namedChildren(t, body[0])
	if len(e) != 1 || t.Nodes[e[0]].Kind() != "yield" {
		return false
	}
	for c := t.Nodes[e[0]].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Kind() == "from" {
			return false
		}
	}
	val := t.FirstNamedChild(e[0])
	switch t.Nodes[left].Kind() {
	case "identifier", "pattern_list", "tuple_pattern":
	default:
		return false
	}
	return val != syntax.NoNode && bytes.Equal(bytes.Join(bytes.Fields(t.Text(val)), nil), bytes.Join(bytes.Fields(t.Text(left)), nil))
}
