// Package citest holds the one rule for tests that need a tool the machine
// may lack: outside CI they skip, saying what is missing; in CI (CI=true)
// a missing tool is a failure, because a test that backs a claim must not
// skip silently there.
package citest

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

// InCI reports whether the CI environment variable says we run in CI.
func InCI() bool {
	v, err := strconv.ParseBool(os.Getenv("CI"))
	return err == nil && v
}

// Missing skips tb with the message, or fails it when InCI.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("CI=true and a required tool is missing: %s", msg)
	}
	tb.Skip(msg)
}
