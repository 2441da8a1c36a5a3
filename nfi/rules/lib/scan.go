package lib

import (
	"bytes"
	"fmt"
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
	t := m.Tree
	var found []hit
	called := map[string]bool{}
	add := func(n syntax.NodeID, es []*entry) {
		for _, e := range es {
			found = append(found, hit{node: n, e: e})
		}
	}
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		id := syntax.NodeID(i)
		var q string
		var resolved bool
		switch nd.Kind {
		case "attribute":
			a := t.ChildByField(id, "attribute")
			obj := t.ChildByField(id, "object")
			if a == syntax.NoNode || obj == syntax.NoNode {
				continue
			}
			name := t.Text(a)
			q, resolved = m.ImportedName(id)
			if !resolved && !importedModule(m, obj) {
				if es := tb.attr[string(name)]; es != nil {
					add(id, es)
				}
				if call := calleeOf(t, id); call != syntax.NoNode {
					for _, e := range tb.method[string(name)] {
						if matchesReceiver(m, e, obj) {
							add(id, []*entry{e})
						}
					}
					for _, e := range tb.kwargMethod[string(name)] {
						if kw := keywordArg(t, call, e.keyword); kw != syntax.NoNode {
							add(kw, []*entry{e})
						}
					}
				}
			}
		case "identifier":
			if p := nd.Parent; p == syntax.NoNode || !identifierMayRefer(t, id) {
				continue
			}
			q, resolved = m.ImportedName(id)
			if !resolved && string(t.Text(id)) == "open" {
				if _, builtin := m.Names().Binding(id); builtin {
					q, resolved = "builtins.open", true
				}
			}
			if resolved && !pyast.IsReference(t, id) {
				resolved = false
			}
		default:
			continue
		}
		if !resolved {
			continue
		}
		if nd.Kind == "identifier" {
			// A name imported from inside a listed module (`from
			// tensorflow.contrib import layers`) is a use of that module.
			for prefix := q; ; {
				add(id, tb.ref[prefix])
				j := strings.LastIndexByte(prefix, '.')
				if j < 0 {
					break
				}
				prefix = prefix[:j]
			}
		} else {
			add(id, tb.ref[q])
		}
		if call := calleeOf(t, id); call != syntax.NoNode {
			add(id, tb.call[q])
			for _, e := range tb.kwargCall[q] {
				if kw := keywordArg(t, call, e.keyword); kw != syntax.NoNode {
					add(kw, []*entry{e})
				}
			}
			if tb.unless[q] {
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

func sortHits(hs []hit) {
	// Insertion sort: the lists are short and nearly sorted (imports last).
	for i := 1; i < len(hs); i++ {
		for j := i; j > 0 && hs[j].node < hs[j-1].node; j-- {
			hs[j], hs[j-1] = hs[j-1], hs[j]
		}
	}
}

// identifierMayRefer is a cheap pre-check that rules out identifiers that
// are never references: attribute names after a dot, keyword names, and
// the parts of imports.
func identifierMayRefer(t *syntax.Tree, n syntax.NodeID) bool {
	nd := &t.Nodes[n]
	switch t.Nodes[nd.Parent].Kind {
	case "attribute":
		return nd.Field == "object"
	case "keyword_argument":
		return nd.Field != "name"
	case "dotted_name", "aliased_import":
		return false
	}
	return true
}

// calleeOf returns the call whose callee is n, or NoNode.
func calleeOf(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	p := t.Nodes[n].Parent
	if p != syntax.NoNode && t.Nodes[p].Kind == "call" && t.Nodes[n].Field == "function" {
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
		if t.Nodes[c].Kind != "keyword_argument" {
			continue
		}
		if name := t.ChildByField(c, "name"); name != syntax.NoNode && string(t.Text(name)) == kw {
			return c
		}
	}
	return syntax.NoNode
}

// importedModule reports whether receiver expression obj resolves through
// an import (a module or something imported from one), so that `.name` on
// it is a module attribute rather than a method of some object.
func importedModule(m *pyast.Module, obj syntax.NodeID) bool {
	switch m.Tree.Nodes[obj].Kind {
	case "identifier", "attribute":
		_, ok := m.ImportedName(obj)
		return ok
	}
	return false
}

// matchesReceiver applies a method row's receiver constraint to obj.
func matchesReceiver(m *pyast.Module, e *entry, obj syntax.NodeID) bool {
	t := m.Tree
	switch {
	case e.receiver == "self":
		return t.Nodes[obj].Kind == "identifier" && string(t.Text(obj)) == "self"
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
	switch t.Nodes[obj].Kind {
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
		what = fmt.Sprintf("import of %s", e.pattern)
	case "kwarg":
		callee, _, _ := strings.Cut(e.pattern, "(")
		what = fmt.Sprintf("%s= in a call of %s()", e.keyword, callee)
	default:
		if strings.ContainsAny(text, "\n\\ ") || t.Nodes[h.node].Kind == "aliased_import" || t.Nodes[h.node].Kind == "dotted_name" {
			what = e.pattern
		} else if text == e.pattern || strings.HasPrefix(e.pattern, ".") || e.receiver != "" {
			what = text
		} else {
			what = fmt.Sprintf("%s (%s)", text, e.pattern)
		}
	}
	return fmt.Sprintf("%s: %s; use %s", what, e.change, e.instead)
}
