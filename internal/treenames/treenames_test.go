package treenames

import (
	"bytes"
	"slices"
	"testing"
)

func TestTable(t *testing.T) {
	type field uint16
	tb := New[field]("")
	if got := tb.Of(""); got != 0 {
		t.Errorf(`Of("") = %d, want 0`, got)
	}
	a, b := tb.Of("name"), tb.Of("body")
	if a != 1 || b != 2 || tb.Of("name") != 1 || tb.Len() != 3 {
		t.Errorf("numbers %d %d %d, Len %d; want 1 2 1, 3", a, b, tb.Of("name"), tb.Len())
	}
	if tb.Name(2) != "body" {
		t.Errorf("Name(2) = %q", tb.Name(2))
	}
	if _, ok := tb.Lookup("nosuch"); ok || tb.Len() != 3 {
		t.Error("Lookup added a name or found a missing one")
	}
	var all []string
	for n, id := range tb.All() {
		if tb.Name(id) != n {
			t.Errorf("All: %q numbered %d, Name says %q", n, id, tb.Name(id))
		}
		all = append(all, n)
	}
	slices.Sort(all)
	if !slices.Equal(all, []string{"", "body", "name"}) {
		t.Errorf("All = %q", all)
	}
}

func TestLineStarts(t *testing.T) {
	for src, want := range map[string][]uint32{
		"": {0}, "a": {0}, "a\n": {0, 2}, "a\nbc\n\nd": {0, 2, 5, 6}, "\r\n": {0, 2},
	} {
		if got := LineStarts([]byte(src)); !slices.Equal(got, want) {
			t.Errorf("LineStarts(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestLineStartsAgreesWithBytes holds LineStarts to a byte-by-byte reading
// on every length up to 40 of texts of "\n", "\v", "\r", "a" and 0x8a
// (bytes next to "\n" in value or that share its low seven bits), on words
// of only line breaks, and on a pseudo-random sample of longer texts.
func TestLineStartsAgreesWithBytes(t *testing.T) {
	naive := func(src []byte) []uint32 {
		ls := []uint32{0}
		for i, c := range src {
			if c == '\n' {
				ls = append(ls, uint32(i+1))
			}
		}
		return ls
	}
	alphabet := []byte{'\n', '\v', '\r', 'a', 0x8a, 0x0b, 0x09, 0x00, 0xff}
	x := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x
	}
	var cases [][]byte
	for n := 0; n <= 40; n++ {
		for range 50 {
			b := make([]byte, n)
			for i := range b {
				b[i] = alphabet[next()%uint64(len(alphabet))]
			}
			cases = append(cases, b)
		}
		cases = append(cases, bytes.Repeat([]byte{'\n'}, n))
	}
	for range 200 {
		b := make([]byte, next()%5000)
		for i := range b {
			if next()%40 == 0 {
				b[i] = '\n'
			} else {
				b[i] = byte(next())
			}
		}
		cases = append(cases, b)
	}
	for _, b := range cases {
		if got, want := LineStarts(b), naive(b); !slices.Equal(got, want) {
			t.Fatalf("LineStarts(%q) = %v, want %v", b, got, want)
		}
	}
}
