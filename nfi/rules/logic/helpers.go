package logic

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// The statements of a block are its named, non-comment children.

// onlyStatement returns the statement of a block that holds exactly one,
// NoNode otherwise (and for NoNode).
func onlyStatement(t *syntax.Tree, block syntax.NodeID) syntax.NodeID {
	if block == syntax.NoNode {
		return syntax.NoNode
	}
	only := syntax.NoNode
	for c := t.Nodes[block].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if nd := &t.Nodes[c]; nd.Named && !nd.Extra {
			if only != syntax.NoNode {
				return syntax.NoNode
			}
			only = c
		}
	}
	return only
}

// lastStatement returns the last statement of a block, NoNode when empty.
func lastStatement(t *syntax.Tree, block syntax.NodeID) syntax.NodeID {
	last := syntax.NoNode
	if block == syntax.NoNode {
		return last
	}
	for c := t.Nodes[block].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		if nd := &t.Nodes[c]; nd.Named && !nd.Extra {
			last = c
		}
	}
	return last
}

// unparen strips grouping parentheses.
func unparen(t *syntax.Tree, n syntax.NodeID) syntax.NodeID {
	for n != syntax.NoNode && t.Nodes[n].Kind() == "parenthesized_expression" {
		inner := syntax.NoNode
		for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
			if t.Nodes[c].Named && !t.Nodes[c].Extra {
				inner = c
				break
			}
		}
		n = inner
	}
	return n
}

// isJump reports return, raise, continue and break statements.
func isJump(t *syntax.Tree, n syntax.NodeID) bool {
	switch t.Kind(n) {
	case "return_statement", "raise_statement", "continue_statement", "break_statement":
		return true
	}
	return false
}

// Fields looked up in every if, elif, while and loop the LOG rules visit:
// by number rather than by name (see syntax.FieldKey).
var (
	bodyField        = syntax.NewFieldKey("body")
	conditionField   = syntax.NewFieldKey("condition")
	consequenceField = syntax.NewFieldKey("consequence")
)

// funcName returns a def's name.
func funcName(t *syntax.Tree, def syntax.NodeID) string {
	if n := t.ChildByField(def, "name"); n != syntax.NoNode {
		return t.TextString(n)
	}
	return ""
}

// defCounts is the Pass.State of a rule that counts something (branches,
// returns) per def from the nodes of its Kinds, shown in preorder by the
// engine's dispatch, rather than by a walk of every def body. classes maps
// the defs (countDef) and the other scopes whose events are their own
// (countOwnScope: classes, lambdas) among those Kinds; every other node shown
// is an event, and counts for its innermost enclosing scope when that is a
// def.
type defCounts struct {
	classes *syntax.KindClasses
	defs    []defCount   // every def met, in preorder
	scopes  []scopeFrame // the scopes around the current node, innermost last
	// first storage of defs and scopes (most files need no more)
	defBuf   [32]defCount
	scopeBuf [8]scopeFrame
}

type defCount struct {
	def   syntax.NodeID
	count int
}

type scopeFrame struct {
	end syntax.NodeID // the scope's subtree ends before end
	def int           // index in defs; -1 for a scope that is not a def
}

// node classes of defCounts.classes
const (
	countEvent = iota
	countDef
	countOwnScope
)

func newDefCounts(classes *syntax.KindClasses) *defCounts {
	st := &defCounts{classes: classes}
	st.defs, st.scopes = st.defBuf[:0], st.scopeBuf[:0]
	return st
}

// visit takes the next node n of the rule's Kinds.
func (st *defCounts) visit(t *syntax.Tree, n syntax.NodeID) {
	for len(st.scopes) > 0 && n >= st.scopes[len(st.scopes)-1].end {
		st.scopes = st.scopes[:len(st.scopes)-1]
	}
	nd := &t.Nodes[n]
	switch st.classes.Table(t.Lang).Of(nd) {
	case countDef:
		st.scopes = append(st.scopes, scopeFrame{end: nd.End, def: len(st.defs)})
		st.defs = append(st.defs, defCount{def: n})
	case countOwnScope:
		st.scopes = append(st.scopes, scopeFrame{end: nd.End, def: -1})
	default: // an event
		if k := len(st.scopes); k > 0 && st.scopes[k-1].def >= 0 {
			st.defs[st.scopes[k-1].def].count++
		}
	}
}

// visitDefCounts is the Visit of a rule counting per def with classes (see
// defCounts).
func visitDefCounts(p *nfi.Pass, n syntax.NodeID, classes *syntax.KindClasses) {
	st, _ := p.State.(*defCounts)
	if st == nil {
		st = newDefCounts(classes)
		p.State = st
	}
	st.visit(p.Tree, n)
}

// reportDefCounts is the Finish of a rule counting per def: it measures
// every def's count and reports, at the def's name, each over the limit as
// "function NAME has N <what> (> LIMIT)".
func reportDefCounts(p *nfi.Pass, what string) {
	st, _ := p.State.(*defCounts)
	if st == nil {
		return // no def
	}
	t := p.Tree
	for _, d := range st.defs {
		p.Measure(float64(d.count))
		if p.Exceeds(float64(d.count)) {
			p.Reportf(t.ChildByField(d.def, "name"), "function %s has %d "+what+" (> %g)", funcName(t, d.def), d.count, p.Limit())
		}
	}
}
