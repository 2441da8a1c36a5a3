package syntax

import "testing"

// TestKindClasses checks that a KindTable gives every node of a parsed
// file the class of its Kind name, in two grammars.
func TestKindClasses(t *testing.T) {
	k := &KindClasses{Names: map[string]uint8{"identifier": 1, "call": 2, "call_expression": 2, "ERROR": 3}}
	for _, s := range []struct {
		lang Language
		src  string
	}{
		{Python, "f(x)\ndef g(:\n"},
		{JavaScript, "f(x); let y = g(1);\n"},
	} {
		tree, err := ParseOnce(s.lang, []byte(s.src))
		if err != nil {
			t.Fatal(err)
		}
		tbl := k.Table(s.lang)
		seen := map[uint8]bool{}
		for i := range tree.Nodes {
			nd := &tree.Nodes[i]
			want := k.Names[nd.Kind()]
			if nd.KindID == 0xFFFF {
				want = 0 // ERROR nodes are class 0
			}
			if got := tbl.Of(nd); got != want {
				t.Errorf("%v: node %d (%s): class %d, want %d", s.lang, i, nd.Kind(), got, want)
			}
			seen[tbl.Of(nd)] = true
		}
		if !seen[1] || !seen[2] {
			t.Errorf("%v: the sample should hold identifiers and calls", s.lang)
		}
	}
	if k.Table(Language(99)) != nil {
		t.Error("unknown language: want a nil table")
	}
}
