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
	Oracle: nfi.Oracle{Ruff: []string{"PLR0912"}, RuffLimit: "lint.pylint.max-branches", Exact: true},
	// the scopes and the branch nodes, in the engine's preorder dispatch,
	// rather than a walk of every def body (see branchScopes)
	Kinds: []string{"function_definition", "class_definition", "if_statement", "elif_clause", "else_clause",
		"for_statement", "while_statement", "except_clause", "except_group_clause", "finally_clause", "case_clause"},
	Visit:  visitBranches,
	Finish: checkBranches,
}

const branchyBody = "    if x == 1:\n        return 1\n    elif x == 2:\n        return 2\n    elif x == 3:\n        return 3\n" +
	"    elif x == 4:\n        return 4\n    elif x == 5:\n        return 5\n    elif x == 6:\n        return 6\n" +
	"    elif x == 7:\n        return 7\n    else:\n        pass\n    for i in x:\n        pass\n    else:\n        pass\n" +
	"    while x:\n        x -= 1\n    try:\n        pass\n    except ValueError:\n        pass\n    finally:\n        pass\n    return 0\n"

func visitBranches(p *nfi.Pass, n syntax.NodeID) { visitDefCounts(p, n, branchScopes) }

func checkBranches(p *nfi.Pass) { reportDefCounts(p, "branches") }

// branchScopes classifies LOG-T03's Kinds for defCounts: each `if`,
// `elif`, `else` (of an if, a loop or a try), `for`, `while`, `except`,
// `except*`, `finally` and match case is a branch, and counts 1 for its
// innermost enclosing def or class, when that is a def. In a tree free of
// syntax errors this is Ruff's num_branches as a walk computes it
// (descending from the def body through the blocks of compound statements
// and their clauses, not into defs and classes: statements occur in no
// other node; checked against such a walk on a stdlib sample by
// TestBranchState).
var branchScopes = &syntax.KindClasses{Names: map[string]uint8{
	"function_definition": countDef,
	"class_definition":    countOwnScope,
}}
