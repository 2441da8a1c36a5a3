// Package style holds the Coding Style (STY) rules of the polynfi-92 catalog,
// one rule per file, with a fixture per rule in testdata/<ID>.py.
// Source: shared/spec/nfi-rules.md, section "Coding Style (STY)".
package style

import "github.com/polynfi/polynfi/nfi"

// All lists the STY rules in ID order.
var All = []*nfi.Rule{}
