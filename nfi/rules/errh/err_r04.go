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
	if t.Nodes[n].Kind() == "attribute" {
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
		// A name resolves to an alias only as one of the three builtins or
		// through an import of an alias (`from socket import error`), which
		// few files have: reject every other name without a lookup.
		if !builtinOSErrorAlias(t.Text(n)) && !importsAlias(p, t.Text(n)) {
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
	if t.Nodes[n].Kind() == "identifier" && !pyast.IsReference(t, n) {
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

// aliasImports is ERR-R04's per-file state: the local names of the file's
// imports whose qualified name is an OSError alias.
type aliasImports struct{ locals []string }

// importsAlias reports whether some import of the file binds name to an
// OSError alias (`from socket import error`, `from os import error as e`).
func importsAlias(p *nfi.Pass, name []byte) bool {
	st, ok := p.State.(*aliasImports)
	if !ok {
		st = &aliasImports{}
		for _, in := range p.Module.Imports().List {
			if in.Local != "" && osErrorAliases[in.Qualified] {
				st.locals = append(st.locals, in.Local)
			}
		}
		p.State = st
	}
	for _, l := range st.locals {
		if l == string(name) {
			return true
		}
	}
	return false
}
