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
	Finish: checkOSErrorAliases,
}

var osErrorAliases = map[string]bool{
	"builtins.IOError": true, "builtins.EnvironmentError": true, "builtins.WindowsError": true,
	"socket.error": true, "select.error": true, "mmap.error": true, "resource.error": true, "os.error": true,
}

// aliasModules are the modules of the dotted aliases in osErrorAliases. An
// attribute chain resolves to one of those (two segments) only through an
// import whose qualified name is one of these: a builtin root would make
// "builtins.<root>.<name>", three segments or more.
var aliasModules = map[string]bool{
	"builtins": true, "socket": true, "select": true, "mmap": true, "resource": true, "os": true,
}

var identifierKind = pyast.NewKindSet("identifier")

// attributeField is the field of an attribute's last name, looked up in
// every attribute reference of a file that imports one of aliasModules.
var attributeField = syntax.NewFieldKey("attribute")

// checkOSErrorAliases checks the file's references (identifiers and
// attributes, in preorder). It looks at an identifier only when it spells
// one of the builtin aliases or a name some import binds to an alias, and
// at an attribute only when the file imports one of aliasModules under some
// name: most files need no name resolution at all.
func checkOSErrorAliases(p *nfi.Pass) {
	m, t := p.Module, p.Tree
	var locals []string // local names the file's imports bind to an alias
	attrs := false      // some import binds one of aliasModules
	for _, in := range m.Imports().List {
		if in.Local == "" {
			continue
		}
		if osErrorAliases[in.Qualified] {
			locals = append(locals, in.Local)
		}
		if aliasModules[in.Qualified] {
			attrs = true
		}
	}
	for _, n := range m.References() {
		if identifierKind.Has(&t.Nodes[n]) {
			if name := t.Text(n); builtinOSErrorAlias(name) || bindsAlias(locals, name) {
				checkOSErrorAlias(p, n, false)
			}
		} else if attrs {
			checkOSErrorAlias(p, n, true)
		}
	}
}

// checkOSErrorAlias checks reference n, an identifier that is a builtin
// alias's name or a name bound to an alias by an import, or an attribute.
func checkOSErrorAlias(p *nfi.Pass, n syntax.NodeID, attribute bool) {
	t := p.Tree
	if attribute {
		a := attributeField.Child(t, n)
		if a == syntax.NoNode {
			return
		}
		switch string(t.Text(a)) {
		case "error", "IOError", "EnvironmentError", "WindowsError":
		default:
			return
		}
	} else {
		imp, builtin := p.Module.Names().Binding(n)
		if imp == nil && !(builtin && builtinOSErrorAlias(t.Text(n))) {
			return
		}
	}
	q, ok := p.Module.QualifiedName(n)
	if !ok || !osErrorAliases[q] {
		return
	}
	if !attribute && !pyast.IsReference(t, n) {
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

// bindsAlias reports whether name is one of locals.
func bindsAlias(locals []string, name []byte) bool {
	for _, l := range locals {
		if l == string(name) {
			return true
		}
	}
	return false
}
