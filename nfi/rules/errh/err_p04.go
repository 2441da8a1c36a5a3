package errh

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// RaiseVanillaClass reports raising the builtin Exception or BaseException itself.
//
// Source: PEP 8 ("Design exception hierarchies based on the distinctions that code
// catching the exceptions is likely to need"); tryceratops TRY002.
var RaiseVanillaClass = &nfi.Rule{
	ID: "ERR-P04", Name: "raise-vanilla-class", Aspect: nfi.ErrorHandling, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "raises a plain Exception or BaseException",
		What: "`raise Exception`, `raise Exception(...)`, `raise BaseException` and `raise " +
			"BaseException(...)`, where the name resolves to the builtin (not shadowed).",
		Why: "Callers can only catch a plain Exception with `except Exception`, which catches " +
			"everything else too; a specific class lets them handle this failure alone.",
		Bad:    "def parse(s):\n    raise Exception('bad input')\n",
		Good:   "def parse(s):\n    raise ValueError('bad input')\n",
		Exempt: "Re-raising a caught exception object and raising subclasses pass.",
		Source: "PEP 8 (\"Programming Recommendations\": exception hierarchies); tryceratops TRY002",
		Oracle: "Ruff TRY002, same semantics.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"TRY002"}, Exact: true},
	Kinds:  []string{"raise_statement"},
	Visit:  checkRaiseVanillaClass,
}

func checkRaiseVanillaClass(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	exc, _ := raiseParts(t, n)
	if exc == syntax.NoNode {
		return
	}
	if t.Nodes[exc].Kind() == "call" {
		exc = t.ChildByField(exc, "function")
	}
	if resolvesTo(p.Module, exc, "builtins.Exception", "builtins.BaseException") {
		p.Reportf(n, "raises plain %s: raise a specific (custom or builtin) exception class", t.Text(exc))
	}
}
