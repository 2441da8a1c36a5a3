// Package doc holds the Documentation (DOC) rules of the polynfi-92 catalog,
// one rule per file, with a fixture per rule in testdata/<ID>.py.
// Source: the polynfi-92 catalog spec, section "Documentation (DOC)".
package doc

import "github.com/polynfi/polynfi/nfi"

// All lists the DOC rules in catalog order: required, prohibited, threshold.
var All = []*nfi.Rule{
	ModuleDocstring,
	ClassDocstring,
	MethodDocstring,
	FunctionDocstring,
	InitDocstring,
	ParameterAnnotations,
	ReturnAnnotations,
	TripleDoubleQuotes,
	SummaryPeriod,
	BlankAfterSummary,
	OneLineDocstring,
	ParametersDocumented,
	EmptyDocstring,
	TaskComments,
	SignatureInDocstring,
	CommentedOutCode,
	DocstringCoverage,
	TypeHintCoverage,
	DocLineLength,
}
