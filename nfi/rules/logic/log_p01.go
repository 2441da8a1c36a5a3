package logic

import (
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
			"`collections.defaultdict` or `collections.deque`.",
		Why: "The default is evaluated once, when the def runs; every call that mutates it changes " +
			"the value later calls see.",
		Bad:    "def append(item, to=[]):\n    to.append(item)\n    return to\n",
		Good:   "def append(item, to=None):\n    if to is None:\n        to = []\n    to.append(item)\n    return to\n",
		Exempt: "Parameters annotated with an immutable type (`Sequence[int]`, `Mapping`, `tuple`, `frozenset`, …), as in Ruff: the annotation documents that the default is never mutated.",
		Source: "Python FAQ \"Why are default values shared between objects?\"; flake8-bugbear B006",
		Oracle: "Ruff B006: all 598 sampled standard-library files get the same verdict. Residual " +
			"differences: Ruff's immutable-annotation check also follows type aliases and user settings " +
			"(`extend-immutable-calls`); here the annotation must name a typing/collections.abc read-only " +
			"ABC or builtin immutable directly, e.g. `def f(x: Sequence[int] = []):` passes both, " +
			"`Seq = Sequence[int]\ndef f(x: Seq = []):` fails here and passes Ruff.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"B006"}, Exact: true},
	Kinds:  []string{"default_parameter", "typed_default_parameter"},
	Visit:  checkMutableDefault,
}

var mutableCalls = map[string]bool{
	"builtins.list": true, "builtins.dict": true, "builtins.set": true,
	"collections.Counter": true, "collections.OrderedDict": true,
	"collections.defaultdict": true, "collections.deque": true,
}

var immutableAnnotations = map[string]bool{
	"builtins.tuple": true, "builtins.frozenset": true, "builtins.bytes": true, "builtins.str": true,
	"builtins.int": true, "builtins.float": true, "builtins.complex": true, "builtins.bool": true,
	"typing.Sequence": true, "typing.Mapping": true, "typing.AbstractSet": true, "typing.Collection": true,
	"typing.Container": true, "typing.Iterable": true, "typing.Iterator": true, "typing.Reversible": true,
	"typing.Sized": true, "typing.Hashable": true, "typing.ByteString": true, "typing.FrozenSet": true,
	"typing.Tuple": true, "typing.KeysView": true, "typing.ValuesView": true, "typing.ItemsView": true,
	"typing.MappingView":       true,
	"collections.abc.Sequence": true, "collections.abc.Mapping": true, "collections.abc.Set": true,
	"collections.abc.Collection": true, "collections.abc.Container": true, "collections.abc.Iterable": true,
	"collections.abc.Iterator": true, "collections.abc.Reversible": true, "collections.abc.Sized": true,
	"collections.abc.Hashable": true, "collections.abc.ByteString": true, "collections.abc.KeysView": true,
	"collections.abc.ValuesView": true, "collections.abc.ItemsView": true, "collections.abc.MappingView": true,
}

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

// isImmutableAnnotation reports an annotation naming an immutable type,
// possibly subscripted (`Sequence[int]`) or wrapped in Optional/Union/`| None`.
func isImmutableAnnotation(p *nfi.Pass, ann syntax.NodeID) bool {
	t := p.Tree
	for t.Kind(ann) == "type" {
		c := t.Nodes[ann].FirstChild
		for c != syntax.NoNode && (!t.Nodes[c].Named || t.Nodes[c].Extra) {
			c = t.Nodes[c].NextSibling
		}
		if c == syntax.NoNode {
			return false
		}
		ann = c
	}
	switch t.Kind(ann) {
	case "generic_type", "subscript":
		head := t.Nodes[ann].FirstChild
		if t.Kind(ann) == "subscript" {
			head = t.ChildByField(ann, "value")
		}
		return isImmutableAnnotation(p, head)
	case "identifier", "attribute":
		q, ok := p.Module.QualifiedName(ann)
		return ok && immutableAnnotations[q]
	}
	return false
}
