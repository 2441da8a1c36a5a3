package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// ArgumentName reports parameters of defs and lambdas whose name is not
// lowercase.
//
// Source: PEP 8 "Function and Method Arguments"; Ruff N803 (pep8-naming).
var ArgumentName = &nfi.Rule{
	ID: "STY-R04", Name: "argument-name-snake-case", Aspect: nfi.CodingStyle, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "parameter names are snake_case",
		What: "Every parameter of a def or lambda (positional-only, regular, keyword-only, *args " +
			"and **kwargs) has a lowercase name (Ruff is_lowercase).",
		Why:    "PEP 8 applies the function naming convention to arguments; keyword arguments are part of a function's public interface.",
		Bad:    "def area(Width, Height):\n    return Width * Height\n",
		Good:   "def area(width, height):\n    return width * height\n",
		Exempt: "pep8-naming's default ignore-names; defs decorated @typing.override (their signature follows the overridden method).",
		Source: "PEP 8 (\"Function and Method Arguments\"); Ruff N803",
		Oracle: "Ruff N803, same semantics (@overload defs are not exempt, as in Ruff).",
	},
	Oracle: nfi.Oracle{Ruff: []string{"N803"}, Exact: true},
	Kinds:  []string{"parameters", "lambda_parameters"},
	Visit:  checkArgumentName,
}

func checkArgumentName(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	if fn := t.Nodes[n].Parent; t.Nodes[n].Kind() == "parameters" && fn != syntax.NoNode {
		if def, ok := p.Module.Definitions().Lookup(fn); ok && def.Override {
			return
		}
	}
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		id := paramName(t, c)
		if id == syntax.NoNode {
			continue
		}
		name := nodeString(t, id)
		if pyast.IsLowercase(name) || pyast.IsIgnoredName(name) {
			continue
		}
		p.Reportf(id, "parameter name %s is not snake_case", name)
	}
}

// paramName returns the identifier a parameter node binds, NoNode for
// separators and punctuation.
func paramName(t *syntax.Tree, c syntax.NodeID) syntax.NodeID {
	switch t.Nodes[c].Kind() {
	case "identifier":
		return c
	case "default_parameter", "typed_default_parameter":
		return t.ChildByField(c, "name")
	case "list_splat_pattern", "dictionary_splat_pattern":
		return t.FirstChildOfKind(c, "identifier")
	case "typed_parameter":
		for g := t.Nodes[c].FirstChild; g != syntax.NoNode; g = t.Nodes[g].NextSibling {
			switch t.Nodes[g].Kind() {
			case "identifier":
				return g
			case "list_splat_pattern", "dictionary_splat_pattern":
				return t.FirstChildOfKind(g, "identifier")
			}
		}
	}
	return syntax.NoNode
}
