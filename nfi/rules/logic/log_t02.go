package logic

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// NestingDepth reports functions whose compound statements nest deeper
// than the limit.
//
// Source: Tufts CS 40 coding standards; SciTools Understand "MaxNesting"; pylint R1702.
var NestingDepth = &nfi.Rule{
	ID: "LOG-T02", Name: "nesting-depth", Aspect: nfi.LogicPatterns, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 3, Cmp: nfi.AtMost, Unit: "levels"},
	Doc: nfi.Doc{
		Summary: "compound statements nested too deeply in a function",
		What: "Inside each def, the largest number of `if`, `for`, `while`, `try`, `with` and " +
			"`match` statements (async forms included) enclosing one another " +
			"(nfi/metrics.NestingDepth). `elif`, `else`, `except`, `finally` and `case` clauses do " +
			"not add a level. Depth restarts at 0 in each nested def. Reported at the statement " +
			"that reaches the deepest level.",
		Why:    "Each level of nesting is another condition the reader has to keep in mind; guard clauses and helper functions flatten it.",
		Bad:    "def scan(rows):\n    for row in rows:\n        if row:\n            for cell in row:\n                if cell:\n                    print(cell)\n",
		Good:   "def scan(rows):\n    for row in rows:\n        for cell in row or ():\n            if cell:\n                print(cell)\n",
		Exempt: "Module-level and class-level code (only def bodies are measured).",
		Source: "Tufts CS 40 coding standards; SciTools Understand \"Nesting\"; polynfi catalog decision 14",
		Oracle: "Ruff PLR1702 (preview, max-nested-blocks) differs by design: Ruff carries the depth of " +
			"enclosing blocks into nested defs and does not count `match`; " +
			"`def f():\\n    for a in b:\\n        def g():\\n            if a: ...` has depth 1 in g here.",
	},
	// the defs and compound statements, in the engine's preorder dispatch,
	// rather than a walk of every def body (see nestingState)
	Kinds:  []string{"function_definition", "if_statement", "for_statement", "while_statement", "try_statement", "with_statement", "match_statement"},
	Visit:  visitNesting,
	Finish: checkNesting,
}

func visitNesting(p *nfi.Pass, n syntax.NodeID) {
	st, _ := p.State.(*nestingState)
	if st == nil {
		st = &nestingState{}
		st.defs, st.open = st.defBuf[:0], st.openBuf[:0]
		p.State = st
	}
	st.visit(p.Tree, n)
}

func checkNesting(p *nfi.Pass) {
	st, _ := p.State.(*nestingState)
	if st == nil {
		return // no def
	}
	for _, d := range st.defs {
		p.Measure(float64(d.depth))
		if p.Exceeds(float64(d.depth)) {
			p.Reportf(d.at, "function %s nests blocks %d deep (> %g)", funcName(p.Tree, d.def), d.depth, p.Limit())
		}
	}
}

// nestingState computes metrics.NestingDepth of every def from the defs
// and compound statements (the Kinds of LOG-T02) shown to visit in
// preorder: a compound statement is one level deeper than the innermost
// enclosing one, or at level 1 when the innermost enclosing def is nearer,
// and counts for that def. In a tree free of syntax errors this is the
// depth of NestingDepth's walk, which reaches every compound statement of
// a def's body through blocks, clauses and classes only, nested defs
// excepted (statements occur in no other node; checked against
// metrics.NestingDepth on a stdlib sample by TestNestingState).
type nestingState struct {
	defs []defNesting   // every def met, in preorder
	open []nestingFrame // the defs and compound statements around the current node, innermost last
	// first storage of defs and open (most files need no more)
	defBuf  [32]defNesting
	openBuf [16]nestingFrame
}

type defNesting struct {
	def, at syntax.NodeID // at: the first statement at the deepest level, NoNode when none
	depth   int
}

type nestingFrame struct {
	end   syntax.NodeID // the node's subtree ends before end
	def   int           // index in defs of the def the frame counts for
	depth int           // the frame's level in that def (0 for the def itself)
}

// visit takes the next def or compound statement n of the tree.
func (st *nestingState) visit(t *syntax.Tree, n syntax.NodeID) {
	for len(st.open) > 0 && n >= st.open[len(st.open)-1].end {
		st.open = st.open[:len(st.open)-1]
	}
	nd := &t.Nodes[n]
	if functionKinds.Has(nd) {
		st.open = append(st.open, nestingFrame{end: nd.End, def: len(st.defs)})
		st.defs = append(st.defs, defNesting{def: n, at: syntax.NoNode})
		return
	}
	if len(st.open) == 0 {
		return // outside every def
	}
	f := st.open[len(st.open)-1]
	d := f.depth + 1
	if dn := &st.defs[f.def]; d > dn.depth {
		dn.depth, dn.at = d, n
	}
	st.open = append(st.open, nestingFrame{end: nd.End, def: f.def, depth: d})
}
