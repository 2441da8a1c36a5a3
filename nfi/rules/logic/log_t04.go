package logic

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// TooManyReturns reports functions with more return statements than the limit.
//
// Source: pylint R0911 too-many-return-statements; Ruff PLR0911.
var TooManyReturns = &nfi.Rule{
	ID: "LOG-T04", Name: "too-many-return-statements", Aspect: nfi.LogicPatterns, Kind: nfi.Threshold,
	Limit: &nfi.Limit{Default: 6, Cmp: nfi.AtMost, Unit: "returns"},
	Doc: nfi.Doc{
		Summary: "function has too many return statements",
		What:    "Per def, the number of `return` statements in its body at any depth, excluding those of nested defs and classes.",
		Why:     "Many exits make it hard to see what a function returns and to add code that must run before it returns.",
		Bad:     "def f(x):\n    if x == 1:\n        return 1\n    if x == 2:\n        return 2\n    if x == 3:\n        return 3\n    if x == 4:\n        return 4\n    if x == 5:\n        return 5\n    if x == 6:\n        return 6\n    return 0\n",
		Good:    "def f(x):\n    return x if 1 <= x <= 6 else 0\n",
		Exempt:  "Returns of nested defs count for the nested def.",
		Source:  "pylint R0911 too-many-return-statements (max-returns=6)",
		Oracle:  "Ruff PLR0911 with its default max-returns=6, same counting.",
	},
	Oracle: nfi.Oracle{Ruff: []string{"PLR0911"}, Exact: true},
	// the scopes and the returns, counted in the engine's preorder dispatch
	// rather than by a walk of every def body
	Kinds:  []string{"function_definition", "class_definition", "lambda", "return_statement"},
	Visit:  visitReturns,
	Finish: checkReturns,
}

// returnsState is LOG-T04's Pass.State: every def met so far with its
// returns, and the scopes (defs, classes, lambdas) enclosing the current
// node, innermost last. A return counts for its innermost scope when that
// is a def: the returns of nested defs, classes and lambdas are their own.
type returnsState struct {
	defs   []defReturns
	scopes []returnScope
	// first storage of defs and scopes (most files need no more)
	defBuf   [32]defReturns
	scopeBuf [8]returnScope
}

type defReturns struct {
	def   syntax.NodeID
	count int
}

type returnScope struct {
	end syntax.NodeID // the scope's subtree ends before end
	def int           // index in defs; -1 for a class or lambda
}

func visitReturns(p *nfi.Pass, n syntax.NodeID) {
	st, _ := p.State.(*returnsState)
	if st == nil {
		st = &returnsState{}
		st.defs, st.scopes = st.defBuf[:0], st.scopeBuf[:0]
		p.State = st
	}
	for len(st.scopes) > 0 && n >= st.scopes[len(st.scopes)-1].end {
		st.scopes = st.scopes[:len(st.scopes)-1]
	}
	nd := &p.Tree.Nodes[n]
	switch returnKinds.Table(syntax.Python).Of(nd) {
	case rtReturn:
		if k := len(st.scopes); k > 0 && st.scopes[k-1].def >= 0 {
			st.defs[st.scopes[k-1].def].count++
		}
	case rtDef:
		st.scopes = append(st.scopes, returnScope{end: nd.End, def: len(st.defs)})
		st.defs = append(st.defs, defReturns{def: n})
	case rtScope:
		st.scopes = append(st.scopes, returnScope{end: nd.End, def: -1})
	}
}

func checkReturns(p *nfi.Pass) {
	st, _ := p.State.(*returnsState)
	if st == nil {
		return // no def
	}
	t := p.Tree
	for _, d := range st.defs {
		p.Measure(float64(d.count))
		if p.Exceeds(float64(d.count)) {
			p.Reportf(t.ChildByField(d.def, "name"), "function %s has %d return statements (> %g)", funcName(t, d.def), d.count, p.Limit())
		}
	}
}

// node classes of visitReturns
const (
	rtOther = iota
	rtDef
	rtScope // class or lambda: its returns are its own
	rtReturn
)

var returnKinds = &syntax.KindClasses{Names: map[string]uint8{
	"function_definition": rtDef,
	"class_definition":    rtScope,
	"lambda":              rtScope,
	"return_statement":    rtReturn,
}}
