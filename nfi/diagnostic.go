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
}

// String formats the diagnostic as "line:col: ID message".
func (d Diagnostic) String() string {
	return fmt.Sprintf("%d:%d: %s %s", d.Line, d.Column, d.RuleID, d.Message)
}
