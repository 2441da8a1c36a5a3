// Package aspect is the type of SWE-NFI's five non-functional aspects
// (documentation, error handling, library constraints, coding style, logic
// patterns), with their codes and names. It is a leaf: packages that only
// name aspects (dataset, report) import it instead of the rule engine and,
// through it, the parsers. Package nfi re-exports it as nfi.Aspect.
// Source: SWE-NFI Table 1.
package aspect

import (
	"fmt"
	"strings"
)

// Aspect is one of SWE-NFI's five non-functional aspects.
type Aspect int

// The five aspects, in the paper's order.
const (
	Documentation Aspect = iota
	ErrorHandling
	LibraryConstraints
	CodingStyle
	LogicPatterns
	// Count is the number of aspects.
	Count
)

// All lists the five aspects in report order.
var All = [Count]Aspect{Documentation, ErrorHandling, LibraryConstraints, CodingStyle, LogicPatterns}

var codes = [...]string{"DOC", "ERR", "LIB", "STY", "LOG"}
var names = [...]string{"Documentation", "Error Handling", "Library Constraints", "Coding Style", "Logic Patterns"}

// Code returns the three-letter code used in rule IDs and reports (DOC, ERR, LIB, STY, LOG).
func (a Aspect) Code() string { return codes[a] }

// String returns the aspect's name as the paper writes it ("Error Handling").
func (a Aspect) String() string { return names[a] }

// Parse accepts a code ("DOC") or a name ("documentation", "error_handling"), case-insensitively.
func Parse(s string) (Aspect, error) {
	for _, a := range All {
		if strings.EqualFold(s, a.Code()) || strings.EqualFold(s, a.String()) ||
			strings.EqualFold(strings.ReplaceAll(s, "_", " "), a.String()) {
			return a, nil
		}
	}
	return 0, fmt.Errorf("unknown aspect %q (want DOC, ERR, LIB, STY or LOG)", s)
}

// MarshalText writes the aspect code.
func (a Aspect) MarshalText() ([]byte, error) { return []byte(a.Code()), nil }

// UnmarshalText reads an aspect code or name.
func (a *Aspect) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	*a = v
	return err
}
