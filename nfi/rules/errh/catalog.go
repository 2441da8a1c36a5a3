// Package errh holds the Error Handling (ERR) rules of the polynfi-92 catalog,
// one rule per file, with a fixture per rule in testdata/<ID>.py.
// Source: the polynfi-92 catalog spec, section "Error Handling (ERR)".
package errh

import "github.com/polynfi/polynfi/nfi"

// All lists the ERR rules in catalog order: required, prohibited, threshold.
var All = []*nfi.Rule{
	RaiseWithoutFrom,
	DeriveFromException,
	ErrorSuffix,
	OSErrorAlias,
	BareExcept,
	BlindExcept,
	SilentExcept,
	RaiseVanillaClass,
	VerboseRaise,
	JumpInFinally,
	TryBodyRatio,
	HandlersPerTry,
}
