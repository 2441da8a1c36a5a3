package jsts

import "github.com/polynfi/polynfi/nfi"

// Version names the JavaScript/TypeScript catalog: its rule count.
const Version = "polynfi-js-43"

// All is the JavaScript and TypeScript catalog, in catalog order (aspect,
// then kind, then number).
var All = []*nfi.Rule{
	ExportedDoc, NoWarningComments,
	NoThrowLiteral, NoUselessCatch, NoAsyncPromiseExecutor,
	NoEval, NoNewFunc, NoConsole, NoPrototypeBuiltins, NoNamespace, NoRequireImports, NoUnsafeFunctionType, NoWrapperObjectTypes,
	NoCaller, NoProto, NoNewWrappers,
	NoVar, NoMultiAssign, NoNestedTernary, NoPlusplus, NoLonelyIf, NoUselessConcat,
	NoLabels, NoEmptyFunction, ConsistentTypeDefinitions, PreferNamespaceKeyword, MaxParams, MaxLinesPerFunction, MaxStatements,
	Eqeqeq, NoDebugger, NoSelfCompare, NoDuplicateCase, NoSparseArrays, UseIsNaN, ValidTypeof, NoCompareNegZero,
	NoUnsafeNegation, NoEmpty, NoExplicitAny, NoNonNullAssertion, Complexity, MaxDepth,
}
