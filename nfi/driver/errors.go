package driver

import "fmt"

// usageError marks an error in the command line itself: a bad flag value,
// argument or revision. It reports IsUsage true, which the command layer
// maps to exit code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// IsUsage reports true: the error is in the command line.
func (e usageError) IsUsage() bool { return true }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }
