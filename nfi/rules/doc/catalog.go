// Package doc holds the Documentation (DOC) rules of the polynfi-92 catalog,
// one rule per file, with a fixture per rule in testdata/<ID>.py.
// Source: shared/spec/nfi-rules.md, section "Documentation (DOC)".
package doc

import "github.com/polynfi/polynfi/nfi"

// All lists the DOC rules in ID order (lexical: P, R, T).
var All = []*nfi.Rule{
	EmptyDocstring,
	TaskComments,
	SignatureInDocstring,
	CommentedOutCode,
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
	DocstringCoverage,
	TypeHintCoverage,
	DocLineLength,
}
