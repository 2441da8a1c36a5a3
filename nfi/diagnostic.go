package nfi

import "fmt"

// Diagnostic is one violation found by a rule.
// Line and Column are 1-based; Column counts UTF-8 bytes. EndLine/EndColumn
// mark the end of the span (exclusive column) and are 0 when unknown.
type Diagnostic struct {
	RuleID    string `json:"rule"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line,omitempty"`
	EndColumn int    `json:"end_column,omitempty"`
	Message   string `json:"message"`
	// Suppressed says why the finding does not count, "" when it counts:
	// SuppressedNoqa (a `# noqa` comment on its line), SuppressedFile (a
	// file-level `# polynfi: noqa`) or SuppressedPerFile (the settings'
	// per-file-ignores). Set only when the Engine honours suppressions.
	Suppressed string `json:"suppressed,omitempty"`
}

// Suppression kinds of a Diagnostic.
const (
	SuppressedNoqa    = "noqa"
	SuppressedFile    = "file-noqa"
	SuppressedPerFile = "per-file-ignores"
	// SuppressedESLint: an `eslint-disable...` comment of a JavaScript or
	// TypeScript file (see Engine.Suppressions).
	SuppressedESLint = "eslint-disable"
	// SuppressedNOPMD: a `// NOPMD` comment on the finding's line of a
	// Java file (see suppress_java.go).
	SuppressedNOPMD = "nopmd"
	// SuppressedAnnotation: a @SuppressWarnings annotation of a Java
	// declaration around the finding (see suppress_java.go).
	SuppressedAnnotation = "suppress-warnings"
)

// String formats the diagnostic as "line:col: ID message".
func (d Diagnostic) String() string {
	return fmt.Sprintf("%d:%d: %s %s", d.Line, d.Column, d.RuleID, d.Message)
}
