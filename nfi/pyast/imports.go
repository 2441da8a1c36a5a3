package pyast

import (
	"strings"

	"github.com/polynfi/polynfi/syntax"
)

// Import is one name an import statement binds (or, for a star import, the
// module it empties into the scope).
//
//	import numpy as np          Local "np",   Qualified "numpy",        Module "numpy"
//	import os.path              Local "os",   Qualified "os",           Module "os.path"
//	import os.path as osp       Local "osp",  Qualified "os.path",      Module "os.path"
//	from numpy import float_    Local "float_", Qualified "numpy.float_", Module "numpy"
//	from ..pkg import x as y    Local "y",    Qualified "..pkg.x",      Module "..pkg"
//	from numpy import *         Local "",     Qualified "",             Module "numpy", Star
//
// Relative imports keep their leading dots, so they never equal an absolute
// name. Imports inside functions, classes and try/except blocks are listed
// like top-level ones; Scope says where the name is bound.
type Import struct {
	Local     string
	Qualified string
	Module    string
	From      bool          // a from-import
	Star      bool          // from M import *
	Node      syntax.NodeID // the dotted_name, aliased_import or wildcard_import node
	Stmt      syntax.NodeID // the import_statement, import_from_statement or future_import_statement
	Scope     syntax.NodeID // the binding scope: the module (root), a def, a class or a lambda
}

// Target returns the dotted name the import makes available, for matching
// against lists of modules or names: Module for `import a.b.c` (the whole
// path, though only `a` is bound), Qualified for a from-import, Module for a
// star import.
func (im *Import) Target() string {
	if im.From && !im.Star {
		return im.Qualified
	}
	return im.Module
}

// Imports is the import alias table of one file, in source order.
type Imports struct {
	List []Import
	// modules holds every absolute module path imported and each of its
	// dotted prefixes ("a.b.c" adds "a", "a.b", "a.b.c").
	modules map[string]bool
	// locals holds every local name bound by some import, in any scope.
	locals map[string]bool
	// localShapes summarizes locals so that most names are rejected
	// without hashing them.
	localShapes nameShapes
}

// Imports returns the file's import table, built once per file.
func (m *Module) Imports() *Imports {
	if m.imports == nil {
		m.imports = buildImports(m.Tree, m.index().lists[listImportish])
	}
	return m.imports
}

// ImportsModule reports whether the file imports module name, a submodule of
// it, or something from either (`import numpy.random`, `from numpy import *`
// and `from numpy.linalg import norm` all import "numpy"), anywhere in the
// file. Relative imports never match.
func (im *Imports) ImportsModule(name string) bool { return im.modules[name] }

// ImportsModule is m.Imports().ImportsModule(name).
func (m *Module) ImportsModule(name string) bool { return m.Imports().ImportsModule(name) }

// BindsLocal reports whether some import in the file binds local name s (in
// any scope). It does not allocate.
func (im *Imports) BindsLocal(s []byte) bool {
	return im.localShapes.mayHave(s) && im.locals[string(s)]
}

// nameShapes summarizes a set of names so that most other names are
// rejected without hashing them: first[b&63] has bit lenBit(n) for each
// name of n bytes (63 and over share the last bit) whose first byte is b;
// last has bit b for each last byte b of a name. (Folding the first byte to
// six bits keeps ASCII letters and '_' apart; it keeps the table small,
// 0.5 KB, as every file's import table has one.)
type nameShapes struct {
	first [64]uint64
	last  [4]uint64
}

// add adds non-empty name s to the set.
func (sh *nameShapes) add(s string) {
	sh.first[s[0]&63] |= lenBit(len(s))
	b := s[len(s)-1]
	sh.last[b>>6] |= 1 << (b & 63)
}

// mayHave reports whether name s may be in the set: false means it is not.
func (sh *nameShapes) mayHave(s []byte) bool {
	if len(s) == 0 || sh.first[s[0]&63]&lenBit(len(s)) == 0 {
		return false
	}
	b := s[len(s)-1]
	return sh.last[b>>6]&(1<<(b&63)) != 0
}

func lenBit(n int) uint64 { return 1 << min(n, 63) }

// buildImports reads the imports among nodes ids: the file's scopes (defs,
// classes, lambdas) and import statements, in preorder.
func buildImports(t *syntax.Tree, ids []syntax.NodeID) *Imports {
	im := &Imports{modules: map[string]bool{}, locals: map[string]bool{}}
	var scopes []syntax.NodeID
	scopeEnd := syntax.NodeID(len(t.Nodes)) // end of the innermost scope
	for _, id := range ids {
		n := &t.Nodes[id]
		for len(scopes) > 0 && id >= scopeEnd {
			scopes = scopes[:len(scopes)-1]
			scopeEnd = syntax.NodeID(len(t.Nodes))
			if len(scopes) > 0 {
				scopeEnd = t.Nodes[scopes[len(scopes)-1]].End
			}
		}
		switch n.Kind() {
		case "function_definition", "class_definition", "lambda":
			scopes = append(scopes, id)
			scopeEnd = n.End
		case "import_statement":
			im.addImport(t, id, scopeOf(scopes))
		case "import_from_statement", "future_import_statement":
			im.addFrom(t, id, scopeOf(scopes))
		}
	}
	for i := range im.List {
		in := &im.List[i]
		if in.Local != "" {
			im.locals[in.Local] = true
			im.localShapes.add(in.Local)
		}
		if strings.HasPrefix(in.Module, ".") || in.Module == "" {
			continue
		}
		mod := in.Module
		for {
			im.modules[mod] = true
			j := strings.LastIndexByte(mod, '.')
			if j < 0 {
				break
			}
			mod = mod[:j]
		}
	}
	return im
}

func scopeOf(scopes []syntax.NodeID) syntax.NodeID {
	if len(scopes) == 0 {
		return 0
	}
	return scopes[len(scopes)-1]
}

// addImport records `import a.b.c [as x], d`.
func (im *Imports) addImport(t *syntax.Tree, stmt, scope syntax.NodeID) {
	for c := t.Nodes[stmt].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Field() != "name" {
			continue
		}
		switch t.Nodes[c].Kind() {
		case "dotted_name":
			mod := dottedText(t, c)
			local := mod
			if j := strings.IndexByte(mod, '.'); j >= 0 {
				local = mod[:j]
			}
			im.List = append(im.List, Import{Local: local, Qualified: local, Module: mod, Node: c, Stmt: stmt, Scope: scope})
		case "aliased_import":
			name, alias := t.ChildByField(c, "name"), t.ChildByField(c, "alias")
			if name == syntax.NoNode || alias == syntax.NoNode {
				continue
			}
			mod := dottedText(t, name)
			im.List = append(im.List, Import{Local: t.TextString(alias), Qualified: mod, Module: mod, Node: c, Stmt: stmt, Scope: scope})
		}
	}
}

// addFrom records `from M import a [as b], c`, `from . import x`,
// `from M import *` and `from __future__ import x`.
func (im *Imports) addFrom(t *syntax.Tree, stmt, scope syntax.NodeID) {
	mod := "__future__"
	if t.Nodes[stmt].Kind() == "import_from_statement" {
		mn := t.ChildByField(stmt, "module_name")
		if mn == syntax.NoNode {
			return
		}
		mod = dottedText(t, mn)
	}
	for c := t.Nodes[stmt].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		nd := &t.Nodes[c]
		switch {
		case nd.Kind() == "wildcard_import":
			im.List = append(im.List, Import{Module: mod, From: true, Star: true, Node: c, Stmt: stmt, Scope: scope})
		case nd.Field() != "name":
		case nd.Kind() == "dotted_name":
			name := dottedText(t, c)
			im.List = append(im.List, Import{Local: name, Qualified: joinQualified(mod, name), Module: mod, From: true, Node: c, Stmt: stmt, Scope: scope})
		case nd.Kind() == "aliased_import":
			name, alias := t.ChildByField(c, "name"), t.ChildByField(c, "alias")
			if name == syntax.NoNode || alias == syntax.NoNode {
				continue
			}
			im.List = append(im.List, Import{Local: t.TextString(alias), Qualified: joinQualified(mod, dottedText(t, name)), Module: mod, From: true, Node: c, Stmt: stmt, Scope: scope})
		}
	}
}

// joinQualified joins a from-import's module and name: "numpy"+"float_" is
// "numpy.float_", "."+"x" is ".x", ".."+"x" is "..x".
func joinQualified(mod, name string) string {
	if strings.HasSuffix(mod, ".") {
		return mod + name
	}
	return mod + "." + name
}

// dottedText returns a dotted_name or relative_import without whitespace or
// comments ("a . b" and parenthesized continuations read "a.b").
func dottedText(t *syntax.Tree, n syntax.NodeID) string {
	nd := &t.Nodes[n]
	if nd.FirstChild == syntax.NoNode {
		return t.TextString(n)
	}
	var b strings.Builder
	for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		switch t.Nodes[c].Kind() {
		case "comment":
		case "identifier", "import_prefix", ".":
			b.Write(t.Text(c))
		case "dotted_name":
			if b.Len() > 0 && !strings.HasSuffix(b.String(), ".") {
				b.WriteByte('.')
			}
			b.WriteString(dottedText(t, c))
		}
	}
	return b.String()
}
