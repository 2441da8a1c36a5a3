// Package lib holds the Library Constraints (LIB) rules of the polynfi-92 catalog,
// one rule per file, with a fixture per rule in testdata/<ID>.py.
//
// The deprecated and removed APIs the rules match are data, in deprecated.tsv
// (one row per API, with its source); one memoized scan per file finds every
// row's occurrences, each rule reports its own, and LIB-T01 counts them all.
//
// Source: the polynfi-92 catalog spec, section "Library Constraints (LIB)".
package lib

import "github.com/polynfi/polynfi/nfi"

// All lists the LIB rules in catalog order: required, prohibited, threshold.
var All = []*nfi.Rule{
	UsePathlib,
	CollectionsABCAlias,
	TypingBuiltinAlias,
	TypingABCAlias,
	NumpyScalarAlias,
	NumpyDeprecatedFunction,
	Numpy2Removed,
	NumpyLegacyRandom,
	PandasIx,
	PandasRemovedKeyword,
	PandasRemovedMethod,
	PandasRemovedAttribute,
	TFSession,
	TFGraphMode,
	TFContrib,
	NaiveUTCDatetime,
	AsyncioDeprecated,
	RemovedStdlibModule,
	UnittestAlias,
	DeprecatedStdlibFunction,
	DeprecatedAPICount,
	OutdatedConstructCount,
}
