package logic

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// MutableDefaultArgument reports parameters whose default value is a mutable
// object, which Python evaluates once and shares between calls.
//
// Source: Python FAQ "Why are default values shared between objects?"; Ruff B006.
var MutableDefaultArgument = &nfi.Rule{
	ID: "LOG-P01", Name: "mutable-default-argument", Aspect: nfi.LogicPatterns, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "parameter default is a mutable object",
		What: "A def parameter (positional or keyword-only; lambdas excluded, as in Ruff) whose default " +
			"is a list, dict or set display, a list/dict/set comprehension, or a call resolving to " +
			"`list`, `dict`, `set`, `collections.Counter`, `collections.OrderedDict`, " +
			"`collections.defaultdict`, `collections.deque`, `collections.ChainMap`, " +
			"`collections.UserDict`/`UserList`/`UserString` or `weakref.WeakKeyDictionary`/" +
			"`WeakValueDictionary`/`WeakSet`.",
		Why: "The default is evaluated once, when the def runs; every call that mutates it changes " +
			"the value later calls see.",
		Bad:  "def append(item, to=[]):\n    to.append(item)\n    return to\n",
		Good: "def append(item, to=None):\n    if to is None:\n        to = []\n    to.append(item)\n    return to\n",
		Exempt: "Parameters annotated with a type Ruff counts as immutable: `Sequence`, `Mapping`, " +
			"`Iterable`, `Collection`, `Container`, `Reversible`, `ByteString`, `AbstractSet`/`Set`, " +
			"`FrozenSet`, `Tuple`, `Callable`, `Literal`, `Never`, `NoReturn` (typing or " +
			"collections.abc; `tuple`, `frozenset`), bare or subscripted; `Sized`, `LiteralString` and " +
			"the builtins `str`, `bytes`, `int`, `float`, `complex`, `bool`, `object`, `range` bare; " +
			"`None`; `Optional[X]`, `Union[X, Y, ...]`, `X | Y` and `Annotated[X, ...]` when every X is " +
			"(`x: Optional[Mapping[str, int]] = {}` passes).",
		Source: "Python FAQ \"Why are default values shared between objects?\"; flake8-bugbear B006",
		Oracle: "Ruff B006 (0.17.6), same semantics, checked against it on every public name of typing, " +
			"typing_extensions, collections, collections.abc and the builtins as an annotation (bare and " +
			"subscripted) and every callable of 49 standard modules as a default (the seeded oracle " +
			"sample, nfi/catalog/testdata/oracle). Before issue #18 this rule flagged " +
			"`x: Optional[Mapping[str, int]] = {}` and `Union[...]`/`X | None`/`Annotated` forms, and " +
			"missed `collections.UserDict()` and weakref containers. As in Ruff, string annotations " +
			"(`x: \"Mapping\" = {}`) and aliases (`Seq = Sequence[int]` then `x: Seq = []`) are not " +
			"resolved and fail; `typing.Iterator`, `Hashable`, `KeysView` and `Any` are not immutable; " +
			"Ruff's `extend-immutable-calls` setting has no counterpart here.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"B006"}, Exact: true},
	Kinds:  []string{"default_parameter", "typed_default_parameter"},
	Visit:  checkMutableDefault,
}

// mutableCalls are the calls whose result Ruff B006 treats as mutable.
// Source: measured against Ruff 0.17.6 (every callable of collections,
// weakref, the builtins and 45 other standard modules as a default; see
// TestMutableDefaultMatrix): besides list, dict, set and the collections
// containers, collections' User* classes, ChainMap and weakref's containers.
var mutableCalls = map[string]bool{
	"builtins.list": true, "builtins.dict": true, "builtins.set": true,
	"collections.Counter": true, "collections.OrderedDict": true,
	"collections.defaultdict": true, "collections.deque": true,
	"collections.ChainMap": true, "collections.UserDict": true,
	"collections.UserList": true, "collections.UserString": true,
	"weakref.WeakKeyDictionary": true, "weakref.WeakSet": true, "weakref.WeakValueDictionary": true,
}

// immutableGeneric are the annotations Ruff B006 accepts as immutable both
// bare and subscripted (`Sequence`, `Sequence[int]`); the builtins among
// them also as `builtins.tuple`. Source: Ruff 0.17.6, measured on every
// public name of typing, typing_extensions, collections, collections.abc and
// the builtin types, bare and subscripted (TestMutableDefaultMatrix).
var immutableGeneric = map[string]bool{
	"builtins.frozenset": true, "builtins.tuple": true,
	"collections.abc.ByteString": true, "collections.abc.Collection": true, "collections.abc.Container": true,
	"collections.abc.Iterable": true, "collections.abc.Mapping": true, "collections.abc.Reversible": true,
	"collections.abc.Sequence": true, "collections.abc.Set": true,
	"typing.AbstractSet": true, "typing.ByteString": true, "typing.Callable": true, "typing.Collection": true,
	"typing.Container": true, "typing.FrozenSet": true, "typing.Iterable": true, "typing.Literal": true,
	"typing.Mapping": true, "typing.Never": true, "typing.NoReturn": true, "typing.Reversible": true,
	"typing.Sequence": true, "typing.Tuple": true,
}

// immutableBare are the further annotations Ruff B006 accepts only bare
// (not subscripted). The builtins count only as bare names (`str`), not as
// `builtins.str`. Source: as immutableGeneric.
var (
	immutableBare = map[string]bool{
		"typing.LiteralString": true, "typing.Sized": true, "collections.abc.Sized": true,
	}
	immutableBareBuiltins = map[string]bool{
		"bool": true, "bytes": true, "complex": true, "float": true, "frozenset": true,
		"int": true, "object": true, "range": true, "str": true,
	}
)

func checkMutableDefault(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	params := t.Parent(n)
	if t.Kind(params) != "parameters" || t.Kind(t.Parent(params)) != "function_definition" {
		return
	}
	if ann := t.ChildByField(n, "type"); ann != syntax.NoNode && isImmutableAnnotation(p, ann) {
		return
	}
	v := unparen(t, t.ChildByField(n, "value"))
	if v == syntax.NoNode || !isMutableExpr(p, v) {
		return
	}
	name := t.ChildByField(n, "name")
	p.Reportf(v, "parameter %s has a mutable default %s", t.TextString(name), kindWord(t.Kind(v)))
}

func kindWord(k string) string {
	switch k {
	case "list", "list_comprehension":
		return "list"
	case "dictionary", "dictionary_comprehension":
		return "dict"
	case "set", "set_comprehension":
		return "set"
	}
	return "object"
}

func isMutableExpr(p *nfi.Pass, v syntax.NodeID) bool {
	t := p.Tree
	switch t.Kind(v) {
	case "list", "dictionary", "set", "list_comprehension", "dictionary_comprehension", "set_comprehension":
		return true
	case "call":
		q, ok := p.Module.QualifiedName(t.ChildByField(v, "function"))
		return ok && mutableCalls[q]
	}
	return false
}

// isImmutableAnnotation reports an annotation Ruff B006 counts as immutable
// (Ruff's is_immutable_annotation, checked case by case against Ruff 0.17.6):
//   - a name or attribute chain resolving to immutableGeneric or
//     immutableBare, or a bare builtin of immutableBareBuiltins;
//   - a subscript whose value resolves to immutableGeneric (whatever the
//     slice); `Optional[X]` when X is (a slice that is not a tuple);
//     `Union[X, Y, ...]` when every element of the tuple slice is (a slice
//     that is not a tuple fails, `Union[X,]` is a tuple); `Annotated[X, ...]`
//     (typing or typing_extensions) when X is;
//   - `X | Y` when both are; `None`.
//
// String (forward-reference) annotations are never immutable, and aliases
// (`Seq = Sequence[int]`) are not followed: Ruff does neither.
func isImmutableAnnotation(p *nfi.Pass, ann syntax.NodeID) bool {
	t := p.Tree
	ann = unwrapType(t, ann)
	if ann == syntax.NoNode {
		return false
	}
	switch t.Kind(ann) {
	case "none":
		return true
	case "identifier", "attribute":
		q, ok := p.Module.QualifiedName(ann)
		if !ok {
			return false
		}
		if immutableGeneric[q] || immutableBare[q] {
			return true
		}
		if name, isBuiltin := strings.CutPrefix(q, "builtins."); isBuiltin && t.Kind(ann) == "identifier" {
			_, viaBuiltin := p.Module.Names().Binding(ann)
			return viaBuiltin && immutableBareBuiltins[name]
		}
		return false
	case "binary_operator":
		if t.TextString(t.ChildByField(ann, "operator")) != "|" {
			return false
		}
		return isImmutableAnnotation(p, t.ChildByField(ann, "left")) && isImmutableAnnotation(p, t.ChildByField(ann, "right"))
	case "union_type":
		var sides []syntax.NodeID
		for c := t.Nodes[ann].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Named && !t.Nodes[c].Extra {
				sides = append(sides, c)
			}
		}
		return len(sides) == 2 && isImmutableAnnotation(p, sides[0]) && isImmutableAnnotation(p, sides[1])
	case "generic_type", "subscript":
		head, elems, tuple := subscriptParts(t, ann)
		if head == syntax.NoNode || (t.Kind(head) != "identifier" && t.Kind(head) != "attribute") {
			return false
		}
		q, ok := p.Module.QualifiedName(head)
		if !ok {
			return false
		}
		switch {
		case immutableGeneric[q]:
			return true
		case q == "typing.Union":
			if !tuple {
				return false
			}
			for _, e := range elems {
				if !isImmutableAnnotation(p, e) {
					return false
				}
			}
			return true
		case q == "typing.Optional":
			return !tuple && len(elems) == 1 && isImmutableAnnotation(p, elems[0])
		case q == "typing.Annotated" || q == "typing_extensions.Annotated":
			return tuple && len(elems) > 0 && isImmutableAnnotation(p, elems[0])
		}
	}
	return false
}

// unwrapType strips `type` wrappers and parentheses around an annotation
// expression (a parenthesized tuple stays a tuple).
func unwrapType(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for n != syntax.NoNode {
		switch t.Kind(n) {
		case "type", "parenthesized_expression":
			c := t.Nodes[n].FirstChild
			for c != syntax.NoNode && (!t.Nodes[c].Named || t.Nodes[c].Extra) {
				c = t.Nodes[c].NextSibling
			}
			n = c
		default:
			return n
		}
	}
	return n
}

// subscriptParts splits `head[slice]` (a generic_type or a subscript) into
// its head and the slice's elements as Python's AST sees them: tuple is
// true when the slice is a tuple (`X[A, B]`, `X[A,]`, `X[(A, B)]`), and
// elems are then its elements; otherwise elems holds the one slice
// expression.
func subscriptParts(t *syntax.Tree, n syntax.NodeID) (head syntax.NodeID, elems []syntax.NodeID, tuple bool) {
	head = syntax.NoNode
	commas := 0
	if t.Kind(n) == "subscript" {
		head = t.ChildByField(n, "value")
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			switch {
			case t.Nodes[c].Field() == "subscript":
				elems = append(elems, c)
			case !t.Nodes[c].Named && t.Kind(c) == ",":
				commas++
			}
		}
	} else {
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if !t.Nodes[c].Named || t.Nodes[c].Extra {
				continue
			}
			if t.Kind(c) != "type_parameter" {
				head = c
				continue
			}
			for e := t.Nodes[c].FirstChild; e != syntax.NoNode; e = t.Nodes[e].NextSibling {
				switch {
				case t.Nodes[e].Named && !t.Nodes[e].Extra:
					elems = append(elems, e)
				case !t.Nodes[e].Named && t.Kind(e) == ",":
					commas++
				}
			}
		}
	}
	if commas > 0 {
		return head, elems, true
	}
	if len(elems) == 1 {
		if inner := unwrapType(t, elems[0]); inner != syntax.NoNode && t.Kind(inner) == "tuple" {
			var items []syntax.NodeID
			for c := t.Nodes[inner].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				if t.Nodes[c].Named && !t.Nodes[c].Extra {
					items = append(items, c)
				}
			}
			return head, items, true
		}
	}
	return head, elems, false
}
