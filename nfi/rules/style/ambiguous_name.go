package style

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// AmbiguousName reports the single-letter names l, O and I.
//
// Source: PEP 8 "Names to Avoid"; Ruff E741, E742, E743 (pycodestyle).
var AmbiguousName = &nfi.Rule{
	ID: "STY-P06", Name: "ambiguous-name", Aspect: nfi.CodingStyle, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "no variables, parameters, functions or classes named l, O or I",
		What: "A name `l`, `O` or `I` bound by assignment (plain, annotated with or without " +
			"value, augmented, unpacking), a for target (comprehensions included), a with-as " +
			"or except-as target, an assignment expression, a global/nonlocal declaration or a " +
			"parameter (E741), or used as a class name (E742) or function name (E743).",
		Why:    "PEP 8: in some fonts these letters are indistinguishable from the numerals one and zero.",
		Bad:    "l = [1, 2, 3]\n",
		Good:   "lengths = [1, 2, 3]\n",
		Exempt: "import aliases, match-statement captures and del targets (as Ruff).",
		Source: "PEP 8 (\"Never use the characters 'l', 'O', or 'I' as single character variable names\"); Ruff E741-E743",
		Oracle: "Ruff E741, E742, E743, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"E741", "E742", "E743"}, Exact: true},
	// only the identifiers that may bind (see bindingExtraKinds), not all
	Kinds:  bindingExtraKinds,
	Visit:  bindingCheck(checkAmbiguousName).visit,
	Finish: bindingCheck(checkAmbiguousName).finish,
}

// checkAmbiguousName checks identifier n.
func checkAmbiguousName(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	nd := &t.Nodes[n]
	if nd.EndByte-nd.StartByte != 1 {
		return
	}
	c := t.Source[nd.StartByte]
	if c != 'l' && c != 'O' && c != 'I' {
		return
	}
	r, _ := bindingRole(t, n)
	switch r {
	case roleClass:
		p.Reportf(n, "ambiguous class name %c", c)
	case roleDef:
		p.Reportf(n, "ambiguous function name %c", c)
	case roleAssign, roleAug, roleFor, roleCompFor, roleWith, roleExcept, roleWalrus, roleGlobal, roleParam:
		p.Reportf(n, "ambiguous variable name %c", c)
	}
}
