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
	Kinds:  []string{"function_definition"},
	Visit:  checkBranches,
}

const branchyBody = "    if x == 1:\n        return 1\n    elif x == 2:\n        return 2\n    elif x == 3:\n        return 3\n" +
	"    elif x == 4:\n        return 4\n    elif x == 5:\n        return 5\n    elif x == 6:\n        return 6\n" +
	"    elif x == 7:\n        return 7\n    else:\n        pass\n    for i in x:\n        pass\n    else:\n        pass\n" +
	"    while x:\n        x -= 1\n    try:\n        pass\n    except ValueError:\n        pass\n    finally:\n        pass\n    return 0\n"

func checkBranches(p *nfi.Pass, n syntax.NodeID) {
	b := numBranches(p.Tree, p.Tree.ChildByField(n, "body"))
	p.Measure(float64(b))
	if p.Exceeds(float64(b)) {
		p.Reportf(p.Tree.ChildByField(n, "name"), "function %s has %d branches (> %g)", funcName(p.Tree, n), b, p.Limit())
	}
}

// numBranches counts branches in the statements of a block.
func numBranches(t *syntax.Tree, block syntax.NodeID) int {
	total := 0
	if block == syntax.NoNode {
		return 0
	}
	kinds := branchKinds.Table(t.Lang)
	for s := t.Nodes[block].FirstChild; s != syntax.NoNode; s = t.Nodes[s].NextSibling {
		nd := &t.Nodes[s]
		if !nd.Named || nd.Extra {
			continue // not a statement
		}
		switch kinds.Of(nd) {
		case bkIf:
			total += 1 + numBranches(t, t.ChildByField(s, "consequence"))
			for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				switch kinds.Of(&t.Nodes[c]) {
				case bkElif:
					total += 1 + numBranches(t, t.ChildByField(c, "consequence"))
				case bkElse:
					total += 1 + numBranches(t, t.ChildByField(c, "body"))
				}
			}
		case bkLoop:
			total += 1 + numBranches(t, t.ChildByField(s, "body"))
			if e := t.ChildByField(s, "alternative"); e != syntax.NoNode {
				total += 1 + numBranches(t, t.ChildByField(e, "body"))
			}
		case bkTry:
			total += numBranches(t, t.ChildByField(s, "body"))
			for c := nd.FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				switch kinds.Of(&t.Nodes[c]) {
				case bkHandler, bkElse:
					total += 1 + numBranches(t, clauseBody(t, c))
				}
			}
		case bkMatch:
			if body := t.ChildByField(s, "body"); body != syntax.NoNode {
				for c := t.Nodes[body].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
					if kinds.Of(&t.Nodes[c]) == bkCase {
						total += 1 + numBranches(t, t.ChildByField(c, "consequence"))
					}
				}
			}
		case bkWith:
			total += numBranches(t, t.ChildByField(s, "body"))
		}
	}
	return total
}

// node classes of numBranches: the statements it counts or enters, and
// their clauses
const (
	bkOther = iota
	bkIf
	bkLoop // for, while
	bkTry
	bkMatch
	bkWith
	bkElif
	bkElse
	bkHandler // except, except*, finally
	bkCase
)

var branchKinds = &syntax.KindClasses{Names: map[string]uint8{
	"if_statement":        bkIf,
	"for_statement":       bkLoop,
	"while_statement":     bkLoop,
	"try_statement":       bkTry,
	"match_statement":     bkMatch,
	"with_statement":      bkWith,
	"elif_clause":         bkElif,
	"else_clause":         bkElse,
	"except_clause":       bkHandler,
	"except_group_clause": bkHandler,
	"finally_clause":      bkHandler,
	"case_clause":         bkCase,
}}

// clauseBody returns the block of an except/else/finally clause.
func clauseBody(t *syntax.Tree, c syntax.NodeID) syntax.NodeID {
	if b := t.ChildByField(c, "body"); b != syntax.NoNode {
		return b
	}
	return t.FirstChildOfKind(c, "block")
}
