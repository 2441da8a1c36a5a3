// Package style holds the Coding Style (STY) rules of the polynfi-92 catalog,
// one rule per file, with a fixture per rule in testdata/<ID>.py.
// Source: the polynfi-92 catalog spec, section "Coding Style (STY)".
package style

import "github.com/polynfi/polynfi/nfi"

// All lists the STY rules in ID order.
var All = []*nfi.Rule{
	FunctionName,            // STY-R01
	ClassName,               // STY-R02
	ConstantName,            // STY-R03
	ArgumentName,            // STY-R04
	VariableName,            // STY-R05
	LineBreakBeforeOperator, // STY-R06
	Indentation,             // STY-R07
	TrailingWhitespace,      // STY-P01
	MixedIndentation,        // STY-P02
	MultipleStatements,      // STY-P03
	SingletonComparison,     // STY-P04
	LambdaAssignment,        // STY-P05
	AmbiguousName,           // STY-P06
	WildcardImport,          // STY-P07
	MultipleImports,         // STY-P08
	TypeComparison,          // STY-P09
	NegatedComparison,       // STY-P10
	LineLength,              // STY-T01
	MagicNumbers,            // STY-T02
	TooManyStatements,       // STY-T03
	TooManyArguments,        // STY-T04
	ModuleLength,            // STY-T05
	TooManyLocals,           // STY-T06
	BlankLines,              // STY-T07
	TooManyPublicMethods,    // STY-T08
}
