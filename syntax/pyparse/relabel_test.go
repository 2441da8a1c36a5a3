package pyparse

import "testing"

// TestRelabel parses the same source with and without Options.Relabel:
// the relabeled tree is the plain one with each node's kind, field and
// Reserved renumbered by the tables, whatever the node (named, anonymous,
// an extra: a comment or a line continuation).
func TestRelabel(t *testing.T) {
	src := []byte("import os  # c\n\n\ndef f(a, *, b=1) -> int:\n    x = [i \\\n         for i in a if i]\n    return f'{x!r:>{b}}' + 'y'\n")
	plain, err := Parse(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rl := &Relabel{Named: make([]uint16, KindCount()), Anon: make([]uint16, KindCount()),
		Fields: make([]uint16, FieldCount()), Reserved: 7}
	for k := range rl.Named {
		rl.Named[k], rl.Anon[k] = uint16(1000+k), uint16(3000+k)
	}
	for f := range rl.Fields {
		rl.Fields[f] = uint16(500 + f)
	}
	got, err := Parse(src, Options{Relabel: rl})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Relabeled || !got.Relabeled {
		t.Fatalf("Relabeled: %v without Relabel, %v with it", plain.Relabeled, got.Relabeled)
	}
	if len(got.Nodes) != len(plain.Nodes) {
		t.Fatalf("%d nodes relabeled, %d plain", len(got.Nodes), len(plain.Nodes))
	}
	extras := 0
	for i, p := range plain.Nodes {
		want := p
		want.Kind, want.Field, want.Reserved = Kind(rl.Anon[p.Kind]), Field(rl.Fields[p.Field]), 7
		if p.Named {
			want.Kind = Kind(rl.Named[p.Kind])
		}
		if got.Nodes[i] != want {
			t.Errorf("node %d (%s): %+v, want %+v", i, KindName(p.Kind), got.Nodes[i], want)
		}
		if p.Extra {
			extras++
		}
	}
	if extras < 2 {
		t.Errorf("%d extras in the test source, want a comment and a line continuation", extras)
	}
}
