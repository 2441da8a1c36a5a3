package style

import (
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// TooManyPublicMethods reports classes with more public methods than the limit.
//
// Source: pylint R0904 too-many-public-methods (max-public-methods=20); Ruff PLR0904 (preview).
var TooManyPublicMethods = &nfi.Rule{
	ID: "STY-T08", Name: "too-many-public-methods", Aspect: nfi.CodingStyle, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 20, Cmp: nfi.AtMost, Unit: "public methods"},
	Doc: nfi.Doc{
		Summary: "classes have at most 20 public methods",
		What: "For every class: the number of defs directly in its body (decorated ones " +
			"included) whose name does not start with `_`, not counting property setters and " +
			"deleters (`@name.setter`, `@name.deleter`) nor `@typing.overload` stubs (an overloaded " +
			"method counts once, by its implementation). The measured value is the largest count.",
		Why:    "A class with a very wide public interface usually has more than one responsibility.",
		Bad:    "class C:\n" + numberedMethods(21),
		Good:   "class C:\n" + numberedMethods(20),
		Exempt: "dunder methods (`__eq__`, `__len__`), `_private` methods and `@overload` stubs.",
		Source: "pylint too-many-public-methods (default 20); Ruff PLR0904",
		Oracle: "Ruff PLR0904 (0.17.6, preview), not exact: Ruff also counts dunder methods as public, " +
			"so a class with 18 public methods and 5 dunders fails Ruff and passes here. Before issue " +
			"#18 this rule counted each `@overload` stub (a class of 19 methods plus an implementation " +
			"with 3 stubs failed here and passes Ruff); stubs are skipped now as in Ruff (typing or " +
			"typing_extensions `overload`, not called; `@typing.overload()` counts in both).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PLR0904"}, Preview: true, RuffLimit: "lint.pylint.max-public-methods", Exact: false},
	Kinds:  []string{"class_definition"},
	Visit:  checkTooManyPublicMethods,
}

func numberedMethods(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("    def m" + string(rune('a'+i%26)) + "(self):\n        pass\n")
	}
	return b.String()
}

func checkTooManyPublicMethods(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	body := t.ChildByField(n, "body")
	if body == syntax.NoNode {
		return
	}
	defs := p.Module.Definitions()
	count := 0
	for s := t.Nodes[body].FirstChild; s != syntax.NoNode; s = t.Nodes[s].NextSibling {
		fn := s
		if t.Nodes[s].Kind() == "decorated_definition" {
			fn = t.ChildByField(s, "definition")
		}
		if fn == syntax.NoNode || t.Nodes[fn].Kind() != "function_definition" {
			continue
		}
		def, ok := defs.Lookup(fn)
		if !ok || strings.HasPrefix(def.Name, "_") || def.SetterOrDeleter || isOverloadStub(def) {
			continue
		}
		count++
	}
	p.Measure(float64(count))
	if p.Exceeds(float64(count)) {
		id, name := defName(t, n)
		if id == syntax.NoNode {
			id = n
		}
		p.Reportf(id, "class %s has %d public methods (> %d)", name, count, int(p.Limit()))
	}
}

// isOverloadStub reports a def decorated `@typing.overload` or
// `@typing_extensions.overload` (not called: Ruff counts `@overload()`).
func isOverloadStub(def *pyast.Def) bool {
	for _, dec := range def.Decorators {
		if !dec.Called && (dec.Qualified == "typing.overload" || dec.Qualified == "typing_extensions.overload") {
			return true
		}
	}
	return false
}
