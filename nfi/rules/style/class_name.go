package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// ClassName reports classes whose name is not CapWords.
//
// Source: PEP 8 "Class Names"; Ruff N801 (pep8-naming).
var ClassName = &nfi.Rule{
	ID: "STY-R02", Name: "class-name-cap-words", Aspect: nfi.CodingStyle, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "class names are PascalCase (CapWords)",
		What: "Every class name, after stripping leading underscores, starts with an upper-case " +
			"letter and contains no underscore (Ruff N801). `_Private` passes; `_`, `lower`, " +
			"`Snake_Case` fail.",
		Why:    "PEP 8: class names should normally use the CapWords convention, so that classes stand out from functions and variables.",
		Bad:    "class http_client:\n    pass\n",
		Good:   "class HttpClient:\n    pass\n",
		Exempt: "pep8-naming's default ignore-names.",
		Source: "PEP 8 (\"Class names should normally use the CapWords convention\"); Ruff N801",
		Oracle: "Ruff N801, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"N801"}, Exact: true},
	Kinds:  []string{"class_definition"},
	Visit:  checkClassName,
}

func checkClassName(p *nfi.Pass, n syntax.NodeID) {
	id, name := defName(p.Tree, n)
	if id == syntax.NoNode || pyast.IsCapWords(name) || pyast.IsIgnoredName(name) {
		return
	}
	p.Reportf(id, "class name %s is not CapWords", name)
}
