package lib

import (
	"testing"
)

// TestMemberRowsOf checks the scan's filtered member lookup against the
// map itself: for every key, for each key changed in one byte, cut short
// or extended, and for a set of common attribute names.
func TestMemberRowsOf(t *testing.T) {
	tb := apiTable()
	var names []string
	for k := range tb.member {
		names = append(names, k, k+"s", "_"+k, k[:len(k)-1], k[1:])
		for i := range len(k) {
			b := []byte(k)
			b[i] ^= 0x20
			names = append(names, string(b))
		}
	}
	names = append(names, "", "x", "append", "get", "format", "join", "warn", "__init__",
		"self", "message", "getargspec", "éé", string([]byte{0xff}))
	hit := 0
	for _, n := range names {
		got, want := tb.memberRowsOf([]byte(n)), tb.member[n]
		if got != want {
			t.Errorf("memberRowsOf(%q) = %p, want %p", n, got, want)
		}
		if want != nil {
			hit++
		}
	}
	if hit < len(tb.member) {
		t.Errorf("%d names found, want at least the %d keys", hit, len(tb.member))
	}
}
