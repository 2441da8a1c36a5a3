package bundle

import "fmt"

// UsageError is an error in what the command line asked of the bundle
// (a flag's value, a run the bundle cannot be made of): the command
// reports it as a usage error (exit 2).
type UsageError struct{ msg string }

func (e UsageError) Error() string { return e.msg }

// IsUsage marks the error as the command line's.
func (e UsageError) IsUsage() bool { return true }

func usagef(format string, args ...any) error { return UsageError{fmt.Sprintf(format, args...)} }

// nonNil returns s, or an empty list for nil (JSON [] rather than null).
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// or returns s, or alt when s is empty.
func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
