package lib

import (
	"bytes"
	"slices"
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// hit is one occurrence of a table row in a file.
type hit struct {
	node syntax.NodeID
	e    *entry
}

// scanResult holds every table hit of a file, in source order, by rule.
type scanResult struct {
	byRule map[string][]hit
}

// hits returns the file's table hits, computed once per file and shared by
// all LIB rules (LIB-T01 counts the LIB-P ones).
func hits(m *pyast.Module) *scanResult {
	return pyast.Memo(m, "lib.hits", func() *scanResult { return scan(m, apiTable()) })
}

func scan(m *pyast.Module, tb *table) *scanResult {
	return scanWith(m, tb, qualifiedLocals(m, tb))
}

// scanWith is scan resolving only the identifiers named open or one of
// loc.names, and only the attribute chains whose attribute name keys
// member rows or whose root is one of loc.chains (loc must hold at least
// the names qualifiedLocals returns), or everything when loc.every.
func scanWith(m *pyast.Module, tb *table, loc localFilter) *scanResult {
	t := m.Tree
	var found []hit
	called := map[string]bool{}
	add := func(n syntax.NodeID, es []*entry) {
		for _, e := range es {
			found = append(found, hit{node: n, e: e})
		}
	}
	var qb []byte // the qualified name of an attribute chain, reused
	for _, id := range m.References() {
		nd := &t.Nodes[id]
		var rows *qualRows
		var q string // the qualified name of an identifier
		switch {
		case attributeKinds.Has(nd):
			a := t.ChildByField(id, "attribute")
			obj := t.ChildByField(id, "object")
			if a == syntax.NoNode || obj == syntax.NoNode {
				continue
			}
			// A chain resolved through an import matches only a qualified
			// row that extends the import's qualified name by a dot; an
			// unresolved one only member rows. With neither possible,
			// resolving it is not needed.
			mr := tb.memberRowsOf(t.Text(a))
			if mr == nil && !loc.every && !rootIn(t, obj, loc.chains) {
				continue
			}
			var resolved bool
			qb, resolved = m.AppendImportedName(qb[:0], id)
			if !resolved {
				// The receiver does not resolve through an import either
				// (it has the same root), so `.name` is not a module
				// attribute: match the attribute and method rows.
				if mr != nil {
					add(id, mr.attr)
					if call := calleeOf(t, id); call != syntax.NoNode {
						for _, e := range mr.method {
							if matchesReceiver(m, e, obj) {
								add(id, []*entry{e})
							}
						}
						for _, e := range mr.kwargMethod {
							if kw := keywordArg(t, call, e.keyword); kw != syntax.NoNode {
								add(kw, []*entry{e})
							}
						}
					}
				}
				continue
			}
			rows = tb.qual[string(qb)]
			if rows == nil {
				continue
			}
			add(id, rows.ref)
		case identifierKinds.Has(nd):
			// Only open, or a name some import binds to a qualified row
			// or a module holding one, can match: in most files no
			// import does, and names are rejected here without resolving
			// them.
			if text := t.Text(id); !loc.every && string(text) != "open" && !containsName(loc.names, text) {
				continue
			}
			var resolved bool
			q, resolved = m.ImportedName(id)
			if !resolved && string(t.Text(id)) != "open" {
				continue
			}
			if p := nd.Parent; p == syntax.NoNode || !identifierMayRefer(t, id) {
				continue
			}
			if !resolved {
				if _, builtin := m.Names().Binding(id); builtin {
					q, resolved = "builtins.open", true
				}
			}
			if !resolved || !pyast.IsReference(t, id) {
				continue
			}
			// A name imported from inside a listed module (`from
			// tensorflow.contrib import layers`) is a use of that module:
			// the rows of q, then those of each shorter prefix.
			rows = tb.qual[q]
			if rows != nil {
				add(id, rows.ref)
			}
			for prefix := q; ; {
				j := strings.LastIndexByte(prefix, '.')
				if j < 0 {
					break
				}
				prefix = prefix[:j]
				if r := tb.qual[prefix]; r != nil {
					add(id, r.ref)
				}
			}
			if rows == nil {
				continue
			}
		default:
			continue
		}
		if call := calleeOf(t, id); call != syntax.NoNode {
			add(id, rows.call)
			for _, e := range rows.kwargCall {
				if kw := keywordArg(t, call, e.keyword); kw != syntax.NoNode {
					add(kw, []*entry{e})
				}
			}
			if rows.unless {
				if q == "" {
					q = string(qb)
				}
				called[q] = true
			}
		}
	}
	// Imports: one hit per statement and row.
	type stmtEntry struct {
		stmt syntax.NodeID
		e    *entry
	}
	seen := map[stmtEntry]bool{}
	for _, in := range m.Imports().List {
		target := in.Target()
		if target == "" || strings.HasPrefix(target, ".") || in.Module == "__future__" {
			continue
		}
		for prefix := target; ; {
			for _, es := range [][]*entry{tb.ref[prefix], tb.module[prefix]} {
				for _, e := range es {
					if k := (stmtEntry{in.Stmt, e}); !seen[k] {
						seen[k] = true
						found = append(found, hit{node: in.Node, e: e})
					}
				}
			}
			j := strings.LastIndexByte(prefix, '.')
			if j < 0 {
				break
			}
			prefix = prefix[:j]
		}
	}
	res := &scanResult{byRule: map[string][]hit{}}
	for _, h := range found {
		switch h.e.condKind {
		case "imports":
			if !m.ImportsModule(h.e.condArg) {
				continue
			}
		case "unless-called":
			if called[h.e.condArg] {
				continue
			}
		}
		res.byRule[h.e.rule] = append(res.byRule[h.e.rule], h)
	}
	for _, hs := range res.byRule {
		sortHits(hs)
	}
	return res
}

// localFilter lists the local names of a file's imports that scan must
// resolve (see qualifiedLocals).
type localFilter struct {
	// names are the locals whose qualified name, or one of its dotted
	// prefixes, keys rows of tb.qual.
	names []string
	// chains are the locals whose qualified name some tb.qual key extends
	// by a dot (tb.qualParents).
	chains []string
	// every makes the scan resolve every identifier and chain, ignoring
	// names and chains: the reference its tests compare with.
	every bool
}

// qualifiedLocals returns, each once, the local names of the file's imports
// that can lead to a qualified row. An identifier resolves to the qualified
// name of the import that binds it (the import's local is the identifier's
// name), and the scan looks up that name and its prefixes; an attribute
// chain resolved through an import is that import's qualified name, a dot
// and the chain's attribute names. No other name can match.
func qualifiedLocals(m *pyast.Module, tb *table) localFilter {
	var loc localFilter
	for _, in := range m.Imports().List {
		if in.Local == "" {
			continue
		}
		if tb.qualParents[in.Qualified] && !slices.Contains(loc.chains, in.Local) {
			loc.chains = append(loc.chains, in.Local)
		}
		if slices.Contains(loc.names, in.Local) {
			continue
		}
		for prefix := in.Qualified; ; {
			if tb.qual[prefix] != nil {
				loc.names = append(loc.names, in.Local)
				break
			}
			j := strings.LastIndexByte(prefix, '.')
			if j < 0 {
				break
			}
			prefix = prefix[:j]
		}
	}
	return loc
}

// rootIn reports whether the attribute chain or name n has an identifier
// at its root that is one of names.
func rootIn(t *syntax.Tree, n syntax.NodeID, names []string) bool {
	if len(names) == 0 {
		return false
	}
	for attributeKinds.Has(&t.Nodes[n]) {
		if n = t.ChildByField(n, "object"); n == syntax.NoNode {
			return false
		}
	}
	return identifierKinds.Has(&t.Nodes[n]) && containsName(names, t.Text(n))
}

// containsName reports whether names holds name.
func containsName(names []string, name []byte) bool {
	for _, n := range names {
		if n == string(name) {
			return true
		}
	}
	return false
}

func sortHits(hs []hit) {
	// Insertion sort: the lists are short and nearly sorted (imports last).
	for i := 1; i < len(hs); i++ {
		for j := i; j > 0 && hs[j].node < hs[j-1].node; j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
}

var (
	attributeKinds  = pyast.NewKindSet("attribute")
	identifierKinds = pyast.NewKindSet("identifier")
)

// identifierMayRefer is a cheap pre-check that rules out identifiers that
// are never references: attribute names after a dot, keyword names, and
// the parts of imports.
func identifierMayRefer(t *syntax.Tree, n syntax.NodeID) bool {
	nd := &t.Nodes[n]
	switch t.Nodes[nd.Parent].Kind() {
	case "attribute":
		return nd.Field() == "object"
	case "keyword_argument":
		return nd.Field() != "name"
	case "dotted_name", "aliased_import":
		return false
	}
	return true
}

// calleeOf returns the call whose callee is n, or NoNode.
func calleeOf(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	p := t.Nodes[n].Parent
	if p != syntax.NoNode && t.Nodes[p].Kind() == "call" && t.Nodes[n].Field() == "function" {
		return p
	}
	return syntax.NoNode
}

// keywordArg returns the keyword_argument of call named kw, or NoNode.
func keywordArg(t *syntax.Tree, call syntax.NodeID, kw string) syntax.NodeID {
	args := t.ChildByField(call, "arguments")
	if args == syntax.NoNode {
		return syntax.NoNode
	}
	for c := t.Nodes[args].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if t.Nodes[c].Kind() != "keyword_argument" {
			continue
		}
		if name := t.ChildByField(c, "name"); name != syntax.NoNode && string(t.Text(name)) == kw {
			return c
		}
	}
	return syntax.NoNode
}

// matchesReceiver applies a method row's receiver constraint to obj.
func matchesReceiver(m *pyast.Module, e *entry, obj syntax.NodeID) bool {
	t := m.Tree
	switch {
	case e.receiver == "self":
		return t.Nodes[obj].Kind() == "identifier" && string(t.Text(obj)) == "self"
	case e.mode == "logmethod":
		return loggerLike(m, obj)
	}
	return true
}

// loggerLike reports whether a receiver looks like a logger: a name or
// attribute whose last identifier contains "log" (log, logger, LOGGER,
// self._log), or a call to logging.getLogger.
func loggerLike(m *pyast.Module, obj syntax.NodeID) bool {
	t := m.Tree
	last := obj
	switch t.Nodes[obj].Kind() {
	case "attribute":
		last = t.ChildByField(obj, "attribute")
	case "identifier":
	case "call":
		q, ok := m.ImportedName(t.ChildByField(obj, "function"))
		return ok && q == "logging.getLogger"
	default:
		return false
	}
	return last != syntax.NoNode && bytes.Contains(bytes.ToLower(t.Text(last)), []byte("log"))
}

// report reports every hit of the pass's rule (optionally filtered).
func report(p *nfi.Pass, keep func(*entry) bool) {
	for _, h := range hits(p.Module).byRule[p.Rule.ID] {
		if keep != nil && !keep(h.e) {
			continue
		}
		p.Reportf(h.node, "%s", describe(p.Tree, h))
	}
}

// describe says what a hit is: "np.float_ (numpy.float_): removed NumPy 2.0; use numpy.float64".
func describe(t *syntax.Tree, h hit) string {
	text := t.TextString(h.node)
	e := h.e
	var what string
	switch e.mode {
	case "import":
		what = "import of " + e.pattern
	case "kwarg":
		callee, _, _ := strings.Cut(e.pattern, "(")
		what = e.keyword + "= in a call of " + callee + "()"
	default:
		if strings.ContainsAny(text, "\n\\ ") || t.Nodes[h.node].Kind() == "aliased_import" || t.Nodes[h.node].Kind() == "dotted_name" {
			what = e.pattern
		} else if text == e.pattern || strings.HasPrefix(e.pattern, ".") || e.receiver != "" {
			what = text
		} else {
			what = text + " (" + e.pattern + ")"
		}
	}
	return what + ": " + e.change + "; use " + e.instead
}
