package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// TooManyArguments reports functions with more parameters than the limit.
//
// Source: pylint R0913 too-many-arguments (max-args=5); Ruff PLR0913.
var TooManyArguments = &nfi.Rule{
	ID: "STY-T04", Name: "too-many-arguments", Aspect: nfi.CodingStyle, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 5, Cmp: nfi.AtMost, Unit: "arguments"},
	Doc: nfi.Doc{
		Summary: "functions take at most 5 arguments",
		What: "For every def: the number of non-variadic parameters (positional-only, regular, " +
			"keyword-only; not *args or **kwargs) whose name does not match the dummy-variable " +
			"pattern `^(_+|(_+[a-zA-Z0-9_]*[a-zA-Z0-9]+?))$`, minus one for the self/cls of a " +
			"method, classmethod or `__new__` (any def directly in a class body that is not a " +
			"@staticmethod). The measured value is the largest count.",
		Why:    "Long parameter lists are hard to call correctly; group related arguments into an object.",
		Bad:    "def connect(host, port, user, password, timeout, retries):\n    pass\n",
		Good:   "def connect(host, port, credentials, options):\n    pass\n",
		Exempt: "defs decorated @typing.override or @typing.overload (their signature is dictated elsewhere).",
		Source: "pylint too-many-arguments (default 5); Ruff PLR0913 (too_many_arguments.rs)",
		Oracle: "Ruff PLR0913, same semantics (stable: self/cls are not counted).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PLR0913"}, RuffLimit: "lint.pylint.max-args", Exact: true},
	Kinds:  []string{"function_definition"},
	Visit:  checkTooManyArguments,
}

func checkTooManyArguments(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	params := t.ChildByField(n, "parameters")
	if params == syntax.NoNode {
		return
	}
	count := 0
	for c := t.Nodes[params].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if isVariadic(t, c) {
			continue
		}
		id := paramName(t, c)
		if id == syntax.NoNode || pyast.IsDummyName(string(t.Text(id))) {
			continue
		}
		count++
	}
	def, ok := p.Module.Definitions().Lookup(n)
	if ok && def.Kind == pyast.MethodDef && !def.StaticMethod && count > 0 {
		count--
	}
	p.Measure(float64(count))
	if !p.Exceeds(float64(count)) || (ok && (def.Override || def.Overload)) {
		return
	}
	id, name := defName(t, n)
	if id == syntax.NoNode {
		id = n
	}
	p.Reportf(id, "function %s has %d arguments (> %d)", name, count, int(p.Limit()))
}

// isVariadic reports a *args or **kwargs parameter node.
func isVariadic(t *syntax.Tree, c syntax.NodeID) bool {
	switch t.Nodes[c].Kind() {
	case "list_splat_pattern", "dictionary_splat_pattern":
		return true
	case "typed_parameter":
		for g := t.Nodes[c].FirstChild; g != syntax.NoNode; g = t.Nodes[g].NextSibling {
			if k := t.Nodes[g].Kind(); k == "list_splat_pattern" || k == "dictionary_splat_pattern" {
				return true
			}
		}
	}
	return false
}
