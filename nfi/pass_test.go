package nfi

import (
	"fmt"
	"testing"
)

// TestSprintfIsFmt checks the message fast path against fmt.Sprintf,
// including the formats it leaves to fmt.
func TestSprintfIsFmt(t *testing.T) {
	tests := []struct {
		format string
		args   []any
	}{
		{"plain message", nil},
		{"100%% sure", nil},
		{"%s: %s; use %s", []any{"np.float_ (numpy.float_)", "removed NumPy 2.0", "numpy.float64"}},
		{"class %s derives from BaseException", []any{[]byte("E")}},
		{"file has %d outdated constructs (> %g); this one: %s", []any{7, 5.0, "u'' prefix"}},
		{"%d lines", []any{-12}},
		{"%.2f of %d", []any{0.5, 3}},
		{"%q", []any{"a\"b"}},
		{"%5d|%-3s|", []any{4, "x"}},
		{"%s", []any{3}},
		{"%d", []any{"x"}},
		{"%d", []any{int64(3)}},
		{"%s %s", []any{"one"}},
		{"%s", []any{"one", "two"}},
		{"trailing %", nil},
		{"%c", []any{'x'}},
		{"%v", []any{"x"}},
		{"%s", []any{nil}},
		{"%s", []any{fmt.Errorf("boom")}},
		{"%s", []any{Documentation}},
		{"é %s ü", []any{"ß"}},
	}
	for _, tc := range tests {
		want := fmt.Sprintf(tc.format, tc.args...)
		if got := sprintf(tc.format, tc.args...); got != want {
			t.Errorf("sprintf(%q, %v) = %q, want %q", tc.format, tc.args, got, want)
		}
	}
}

// FuzzSprintf checks the fast path against fmt.Sprintf on any format with
// a string, a []byte and an int argument.
func FuzzSprintf(f *testing.F) {
	f.Add("%s: %d %s", "a", []byte("b"), 3)
	f.Add("%%%s%", "", []byte{}, -1)
	f.Fuzz(func(t *testing.T, format, s string, b []byte, n int) {
		for _, args := range [][]any{{s, b, n}, {n, s}, {b}, nil} {
			if got, want := sprintf(format, args...), fmt.Sprintf(format, args...); got != want {
				t.Errorf("sprintf(%q, %v) = %q, want %q", format, args, got, want)
			}
		}
	})
}
