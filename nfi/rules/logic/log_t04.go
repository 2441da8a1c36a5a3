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
	Oracle: nfi.Oracle{Ruff: []string{"PLR0911"}, RuffLimit: "lint.pylint.max-returns", Exact: true},
	// the scopes and the returns, counted in the engine's preorder dispatch
	// rather than by a walk of every def body
	Kinds:  []string{"function_definition", "class_definition", "lambda", "return_statement"},
	Visit:  visitReturns,
	Finish: checkReturns,
}

func visitReturns(p *nfi.Pass, n syntax.NodeID) { visitDefCounts(p, n, returnScopes) }

func checkReturns(p *nfi.Pass) { reportDefCounts(p, "return statements") }

// returnScopes classifies LOG-T04's Kinds for defCounts: a return counts
// for its innermost scope when that is a def; the returns of nested defs,
// classes and lambdas are their own.
var returnScopes = &syntax.KindClasses{Names: map[string]uint8{
	"function_definition": countDef,
	"class_definition":    countOwnScope,
	"lambda":              countOwnScope,
}}
