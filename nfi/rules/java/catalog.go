package java

import "github.com/polynfi/polynfi/nfi"

// Version names the Java catalog: its rule count.
const Version = "polynfi-java-49"

// All is the Java catalog, in catalog order (aspect, then kind, then
// number).
var All = []*nfi.Rule{
	MissingJavadocType, MissingJavadocMethod, UncommentedEmptyMethodBody, UncommentedEmptyConstructor, TodoComment,
	EmptyCatchBlock, AvoidCatchingGenericException, AvoidCatchingThrowable, AvoidThrowingRawExceptionTypes,
	AvoidThrowingNullPointerException, AvoidPrintStackTrace, ReturnFromFinallyBlock, DoNotThrowExceptionInFinally,
	SystemPrintln, DoNotTerminateVM, DoNotCallGarbageCollectionExplicitly, ReplaceVectorWithList, ReplaceHashtableWithMap,
	PrimitiveWrapperInstantiation, AvoidDecimalLiteralsInBigDecimalConstructor, DontImportSun, AvoidStringBufferField,
	MethodNamingConventions, ClassNamingConventions, LocalVariableNamingConventions, FormalParameterNamingConventions,
	ConstantName, ControlStatementBraces, OneDeclarationPerLine, UpperEll, ArrayTypeStyle, LongVariable, MagicNumber,
	MethodLength, ExcessiveParameterList, CyclomaticComplexity, AvoidDeeplyNestedIfStmts,
	UseEqualsToCompareStrings, OverrideBothEqualsAndHashcode, EmptyControlStatement, UnusedLocalVariable,
	UnusedPrivateField, UnusedPrivateMethod, SimplifyBooleanReturns, UnreachableCode, EqualsNull, ComparisonWithNaN,
	UnconditionalIfStatement, AvoidUsingOctalValues,
}
