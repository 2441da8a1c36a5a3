package treenames

import (
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
