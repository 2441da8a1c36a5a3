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
	for s := t.Nodes[block].FirstChild; s != syntax.NoNode; s = t.Nodes[s].NextSibling {
		if nd := &t.Nodes[s]; !nd.Named || nd.Extra {
			continue // not a statement
		}
		switch t.Kind(s) {
		case "if_statement":
			total += 1 + numBranches(t, t.ChildByField(s, "consequence"))
			for c := t.Nodes[s].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				switch t.Kind(c) {
				case "elif_clause":
					total += 1 + numBranches(t, t.ChildByField(c, "consequence"))
				case "else_clause":
					total += 1 + numBranches(t, t.ChildByField(c, "body"))
				}
			}
		case "for_statement", "while_statement":
			total += 1 + numBranches(t, t.ChildByField(s, "body"))
			if e := t.ChildByField(s, "alternative"); e != syntax.NoNode {
				total += 1 + numBranches(t, t.ChildByField(e, "body"))
			}
		case "try_statement":
			total += numBranches(t, t.ChildByField(s, "body"))
			for c := t.Nodes[s].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
				switch t.Kind(c) {
				case "except_clause", "except_group_clause", "else_clause", "finally_clause":
					total += 1 + numBranches(t, clauseBody(t, c))
				}
			}
		case "match_statement":
			if body := t.ChildByField(s, "body"); body != syntax.NoNode {
				for c := t.Nodes[body].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
					if t.Kind(c) == "case_clause" {
						total += 1 + numBranches(t, t.ChildByField(c, "consequence"))
					}
				}
			}
		case "with_statement":
			total += numBranches(t, t.ChildByField(s, "body"))
		}
	}
	return total
}

// clauseBody returns the block of an except/else/finally clause.
func clauseBody(t *syntax.Tree, c syntax.NodeID) syntax.NodeID {
	if b := t.ChildByField(c, "body"); b != syntax.NoNode {
		return b
	}
	return t.FirstChildOfKind(c, "block")
}
