package errh

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// DeriveFromException reports classes that derive directly from BaseException.
//
// Source: PEP 8 ("Derive exceptions from Exception rather than BaseException").
var DeriveFromException = &nfi.Rule{
	ID: "ERR-R02", Name: "exception-derives-from-exception", Aspect: nfi.ErrorHandling, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "custom exception derives from BaseException instead of Exception",
		What: "A class with a direct positional base that resolves to the builtin `BaseException` " +
			"(the bare name when not shadowed, or `builtins.BaseException`) fails.",
		Why: "`except Exception` is the idiom for catching errors; a `BaseException` subclass slips " +
			"through it like KeyboardInterrupt and SystemExit, which are reserved for leaving the program.",
		Bad:    "class ConfigError(BaseException):\n    pass\n",
		Good:   "class ConfigError(Exception):\n    pass\n",
		Exempt: "Files without such a class pass. Indirect subclasses (via another class) are not followed.",
		Source: "PEP 8 (\"Derive exceptions from Exception rather than BaseException\")",
		Oracle: "custom; pylint and Ruff have no such check by default",
	},
	Kinds: []string{"class_definition"},
	Visit: checkDeriveFromException,
}

func checkDeriveFromException(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	for _, b := range positionalBases(t, n) {
		if resolvesTo(p.Module, b, "builtins.BaseException") {
			p.Reportf(b, "class %s derives from BaseException; derive from Exception", t.Text(t.ChildByField(n, "name")))
		}
	}
}

// positionalBases returns the positional arguments of a class's base list.
func positionalBases(t *syntax.Tree, class syntax.NodeID) []syntax.NodeID {
	sc := t.ChildByField(class, "superclasses")
	if sc == syntax.NoNode {
		return nil
	}
	var out []syntax.NodeID
	for _, c := range statements(t, sc) {
		switch t.Nodes[c].Kind() {
		case "keyword_argument", "list_splat", "dictionary_splat":
		default:
			out = append(out, c)
		}
	}
	return out
}
