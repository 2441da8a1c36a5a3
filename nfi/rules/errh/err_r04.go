package errh

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// OSErrorAlias reports references to the aliases of OSError.
//
// Source: PEP 3151 ("Reworking the OS and IO exception hierarchy"); pyupgrade; Ruff UP024.
var OSErrorAlias = &nfi.Rule{
	ID: "ERR-R04", Name: "os-error-alias", Aspect: nfi.ErrorHandling, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "OSError alias used instead of OSError",
		What: "No reference that resolves to `IOError`, `EnvironmentError`, `WindowsError` (builtins, " +
			"not shadowed), `socket.error`, `select.error`, `mmap.error`, `resource.error` or " +
			"`os.error`: in an `except` clause, a `raise`, or anywhere else (`isinstance(e, IOError)`).",
		Why: "Since Python 3.3 these names are aliases of OSError (PEP 3151); the alias hides that " +
			"the handler catches every OS error, and readers look for a distinct class.",
		Bad:    "try:\n    f = open('x')\nexcept IOError:\n    f = None\n",
		Good:   "try:\n    f = open('x')\nexcept OSError:\n    f = None\n",
		Exempt: "A local or module binding of the same name (`WindowsError = None`) shadows the builtin and is not reported.",
		Source: "PEP 3151; pyupgrade docs (\"OSError aliases\"); SWE-IF error_3",
		Oracle: "Ruff UP024, which looks only at except clauses, raise statements and calls; the " +
			"catalog also flags every other reference, e.g. `isinstance(e, IOError)` or " +
			"`errors = (IOError, ValueError)` or `class E(IOError)`, which Ruff leaves alone. " +
			"Per-file agreement with UP024 measured on 4000 site-packages files: 99.9%.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"UP024"}, Exact: false},
	Kinds:  []string{"identifier", "attribute"},
	Visit:  checkOSErrorAlias,
}

var osErrorAliases = map[string]bool{
	"builtins.IOError": true, "builtins.EnvironmentError": true, "builtins.WindowsError": true,
	"socket.error": true, "select.error": true, "mmap.error": true, "resource.error": true, "os.error": true,
}

func checkOSErrorAlias(p *nfi.Pass, n syntax.NodeID) {
	t := p.Tree
	if t.Nodes[n].Kind == "attribute" {
		a := t.ChildByField(n, "attribute")
		if a == syntax.NoNode {
			return
		}
		switch string(t.Text(a)) {
		case "error", "IOError", "EnvironmentError", "WindowsError":
		default:
			return
		}
	} else {
		// Builtins other than the three aliases are the common case: reject
		// them without building a qualified name. A name no import binds
		// can only be one of the three builtins.
		if !builtinOSErrorAlias(t.Text(n)) && !p.Module.Imports().BindsLocal(t.Text(n)) {
			return
		}
		imp, builtin := p.Module.Names().Binding(n)
		if imp == nil && !(builtin && builtinOSErrorAlias(t.Text(n))) {
			return
		}
	}
	q, ok := p.Module.QualifiedName(n)
	if !ok || !osErrorAliases[q] {
		return
	}
	if t.Nodes[n].Kind == "identifier" && !pyast.IsReference(t, n) {
		return
	}
	p.Reportf(n, "%s is an alias of OSError; use OSError", t.Text(n))
}

func builtinOSErrorAlias(name []byte) bool {
	switch string(name) {
	case "IOError", "EnvironmentError", "WindowsError":
		return true
	}
	return false
}
