package doc

import (
	"strings"
	"testing"
)

// TestLastField checks lastField against strings.Fields on every string of
// up to five pieces from an alphabet of ASCII and non-ASCII letters and
// spaces.
func TestLastField(t *testing.T) {
	alphabet := []string{"a", "é", " ", "\t", "\u00a0", "\u3000", "\u0085", "\x80"}
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		fields := strings.Fields(prefix)
		wantLast := ""
		if len(fields) > 0 {
			wantLast = fields[len(fields)-1]
		}
		last, several := lastField(prefix)
		if several != (len(fields) >= 2) || (len(fields) > 0 && last != wantLast) {
			t.Errorf("lastField(%q) = %q, %v; strings.Fields gives %q", prefix, last, several, fields)
		}
		if n == 0 {
			return
		}
		for _, a := range alphabet {
			gen(prefix+a, n-1)
		}
	}
	gen("", 5)
}
