package nfi

import (
	"fmt"
	"testing"

	"github.com/polynfi/polynfi/syntax"
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

// TestReportIsReportf checks that Report records what Reportf(n, "%s", msg)
// records (positions included), its message kept as it is ("%" too), and
// that ReportAt matches ReportAtf likewise.
func TestReportIsReportf(t *testing.T) {
	tree, perr := syntax.ParsePythonGo([]byte("x = 1\nif x:\n    y = 100  # n\n"), 0)
	if perr != nil {
		t.Fatal(perr)
	}
	n := syntax.NodeID(len(tree.Nodes) - 1) // the comment, on line 3
	msg := "magic number 100 (file has 1 magic numbers, > 0): 100% %d"
	a := Pass{Rule: &Rule{ID: "R"}, Tree: tree}
	b := Pass{Rule: &Rule{ID: "R"}, Tree: tree}
	a.Report(n, msg)
	a.ReportAt(2, 4, msg)
	b.Reportf(n, "%s", msg)
	b.ReportAtf(2, 4, "%s", msg)
	got, want := a.Diagnostics(), b.Diagnostics()
	if len(got) != 2 || len(want) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("Report, ReportAt: %+v; Reportf, ReportAtf: %+v", got, want)
	}
	if got[0].Line != 3 || got[0].Message != msg {
		t.Errorf("Report: %+v, want line 3 and the message as given", got[0])
	}
}
