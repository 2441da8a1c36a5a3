// Package logic holds the Logic Patterns (LOG) rules of the polynfi-92 catalog,
// one rule per file, with a fixture per rule in testdata/<ID>.py.
// Source: the polynfi-92 catalog spec, section "Logic Patterns (LOG)".
package logic

import "github.com/polynfi/polynfi/nfi"

// All lists the LOG rules in ID order.
var All = []*nfi.Rule{
	MutableDefaultArgument,
	WhileTrue,
	SuperfluousElse,
	LoopClosure,
	GlobalStatement,
	UnreachableCode,
	NeedlessBool,
	CollapsibleIf,
	CyclomaticComplexity,
	NestingDepth,
	TooManyBranches,
	TooManyReturns,
	TooManyBooleanOperands,
	MaintainabilityIndex,
}
