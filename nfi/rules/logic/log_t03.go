package logic

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// TooManyBranches reports functions with more branches than the limit.
//
// Source: pylint R0912 too-many-branches; Ruff PLR0912.
var TooManyBranches = &nfi.Rule{
	ID: "LOG-T03", Name: "too-many-branches", Aspect: nfi.LogicPatterns, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 12, Cmp: nfi.AtMost, Unit: "branches"},
	Doc: nfi.Doc{
		Summary: "function has too many branches",
		What: "Per def, Ruff's num_branches: `if` +1 and each `elif`/`else` +1; `for`/`while` +1 and " +
			"their `else` +1; each `except` +1, `try … else` +1, `finally` +1; each `match` case +1; " +
			"branches in nested blocks (with bodies included) count, nested defs and classes do not.",
		Why:    "Many branches mean many paths; splitting the function or using a lookup table keeps each piece testable.",
		Bad:    "def f(x):\n" + branchyBody,
		Good:   "def f(x):\n    if x:\n        return 1\n    return 0\n",
		Exempt: "Nested defs are measured on their own.",
		Source: "pylint R0912 too-many-branches (max-branches=12)",
		Oracle: "Ruff PLR0912 with its default max-branches=12, same counting (ruff pylint/rules/too_many_branches.rs). " +
			"On 598 standard-library files 597 verdicts agree; the other is lib2to3/tests/data/py2_test_grammar.py, " +
			"Python 2 code Ruff cannot parse (so it reports nothing) while tree-sitter parses it and finds 13 branches in testComparison.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PLR0912"}, Exact: true},
	// the scopes and the branch nodes, in the engine's preorder dispatch,
	// rather than a walk of every def body (see branchState)
	Kinds: []string{"function_definition", "class_definition", "if_statement", "elif_clause", "else_clause",
		"for_statement", "while_statement", "except_clause", "except_group_clause", "finally_clause", "case_clause"},
	Visit:  visitBranches,
	Finish: checkBranches,
}

const branchyBody = "    if x == 1:\n        return 1\n    elif x == 2:\n        return 2\n    elif x == 3:\n        return 3\n" +
	"    elif x == 4:\n        return 4\n    elif x == 5:\n        return 5\n    elif x == 6:\n        return 6\n" +
	"    elif x == 7:\n        return 7\n    else:\n        pass\n    for i in x:\n        pass\n    else:\n        pass\n" +
	"    while x:\n        x -= 1\n    try:\n        pass\n    except ValueError:\n        pass\n    finally:\n        pass\n    return 0\n"

func visitBranches(p *nfi.Pass, n syntax.NodeID) {
	st, _ := p.State.(*branchState)
	if st == nil {
		st = &branchState{}
		st.defs, st.scopes = st.defBuf[:0], st.scopeBuf[:0]
		p.State = st
	}
	st.visit(p.Tree, n)
}

func checkBranches(p *nfi.Pass) {
	st, _ := p.State.(*branchState)
	if st == nil {
		return // no def
	}
	t := p.Tree
	for _, d := range st.defs {
		p.Measure(float64(d.count))
		if p.Exceeds(float64(d.count)) {
			p.Reportf(t.ChildByField(d.def, "name"), "function %s has %d branches (> %g)", funcName(t, d.def), d.count, p.Limit())
		}
	}
}

// branchState counts the branches of every def from the nodes of
// LOG-T03's Kinds shown to visit in preorder: each `if`, `elif`, `else`
// (of an if, a loop or a try), `for`, `while`, `except`, `except*`,
// `finally` and match case counts 1 for its innermost enclosing def or
// class, when that is a def. In a tree free of syntax errors this is Ruff's
// num_branches as a walk computes it (descending from the def body through
// the blocks of compound statements and their clauses, not into defs and
// classes: statements occur in no other node; checked against such a walk
// on a stdlib sample by TestBranchState).
type branchState struct {
	defs   []defBranches // every def met, in preorder
	scopes []branchScope // the defs and classes around the current node, innermost last
	// first storage of defs and scopes (most files need no more)
	defBuf   [32]defBranches
	scopeBuf [8]branchScope
}

type defBranches struct {
	def   syntax.NodeID
	count int
}

type branchScope struct {
	end syntax.NodeID // the scope's subtree ends before end
	def int           // index in defs; -1 for a class
}

// visit takes the next node n of LOG-T03's Kinds.
func (st *branchState) visit(t *syntax.Tree, n syntax.NodeID) {
	for len(st.scopes) > 0 && n >= st.scopes[len(st.scopes)-1].end {
		st.scopes = st.scopes[:len(st.scopes)-1]
	}
	nd := &t.Nodes[n]
	switch branchScopes.Table(t.Lang).Of(nd) {
	case bsDef:
		st.scopes = append(st.scopes, branchScope{end: nd.End, def: len(st.defs)})
		st.defs = append(st.defs, defBranches{def: n})
	case bsClass:
		st.scopes = append(st.scopes, branchScope{end: nd.End, def: -1})
	default: // a branch
		if k := len(st.scopes); k > 0 && st.scopes[k-1].def >= 0 {
			st.defs[st.scopes[k-1].def].count++
		}
	}
}

// node classes of branchState.visit (the other nodes it is shown are branches)
const (
	bsBranch = iota
	bsDef
	bsClass
)

var branchScopes = &syntax.KindClasses{Names: map[string]uint8{
	"function_definition": bsDef,
	"class_definition":    bsClass,
}}
