// Package lib holds the Library Constraints (LIB) rules of the polynfi-92 catalog,
// one rule per file, with a fixture per rule in testdata/<ID>.py.
// Source: shared/spec/nfi-rules.md, section "Library Constraints (LIB)".
package lib

import "github.com/polynfi/polynfi/nfi"

// All lists the LIB rules in ID order.
var All = []*nfi.Rule{}
