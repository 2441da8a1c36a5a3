package pyast

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/syntax"
)

func TestDocstringOf(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		ok        bool
		body      string
		prefix    string
		quote     string
		parts     int
	}{
		{"triple", `"""Summary."""`, true, "Summary.", "", `"""`, 1},
		{"raw single", `r'x\n'`, true, `x\n`, "r", "'", 1},
		{"unicode", `u"""x"""`, true, "x", "u", `"""`, 1},
		{"concatenated", `"a" 'b'`, true, "ab", "", `"`, 2},
		{"parenthesized", `("x")`, true, "x", "", `"`, 1},
		{"after comments", "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n\"\"\"Doc.\"\"\"", true, "Doc.", "", `"""`, 1},
		{"fstring", `f"x"`, false, "", "", "", 0},
		{"fstring part", `"a" f"b"`, false, "", "", "", 0},
		{"bytes", `b"x"`, false, "", "", "", 0},
		{"method call", `"x".strip()`, false, "", "", "", 0},
		{"assignment", `x = "doc"`, false, "", "", "", 0},
		{"second statement", "import os\n\"\"\"Doc.\"\"\"", false, "", "", "", 0},
		{"empty file", "", false, "", "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parseModule(t, "m.py", tc.src+"\n")
			d := m.Definitions().Module().Doc
			if (d != nil) != tc.ok {
				t.Fatalf("docstring present = %v, want %v", d != nil, tc.ok)
			}
			if d == nil {
				return
			}
			if d.Body != tc.body || d.Parts[0].Prefix != tc.prefix || d.Parts[0].Quote != tc.quote || len(d.Parts) != tc.parts {
				t.Errorf("got body %q prefix %q quote %q parts %d, want %q %q %q %d",
					d.Body, d.Parts[0].Prefix, d.Parts[0].Quote, len(d.Parts), tc.body, tc.prefix, tc.quote, tc.parts)
			}
		})
	}
}

func TestDocstringLinesAndSummary(t *testing.T) {
	src := "def f():\n    \"\"\"\n    Summary line.\r\n\n    More.\n    \"\"\"\n"
	d := parseModule(t, "m.py", src).Definitions().List[1].Doc
	if d == nil {
		t.Fatal("no docstring")
	}
	want := []string{"", "    Summary line.", "", "    More.", "    "}
	if diff := cmp.Diff(want, d.Lines()); diff != "" {
		t.Errorf("Lines (-want +got):\n%s", diff)
	}
	if s := d.Summary(); s != "Summary line." {
		t.Errorf("Summary = %q, want %q", s, "Summary line.")
	}
	if d.StartLine() != 2 || d.EndLine() != 6 {
		t.Errorf("lines %d-%d, want 2-6", d.StartLine(), d.EndLine())
	}
}

func TestSplitLines(t *testing.T) {
	for in, want := range map[string][]string{
		"":          {""},
		"a":         {"a"},
		"a\n":       {"a", ""},
		"a\r\nb\rc": {"a", "b", "c"},
	} {
		if diff := cmp.Diff(want, SplitLines(in)); diff != "" {
			t.Errorf("SplitLines(%q) (-want +got):\n%s", in, diff)
		}
	}
}

// TestIsTextLiteral checks IsTextLiteral against StringLiteral and IsText
// on every node of a few sources and a stdlib sample.
func TestIsTextLiteral(t *testing.T) {
	check := func(name string, tree *syntax.Tree) (texts int) {
		for i := range tree.Nodes {
			id := syntax.NodeID(i)
			p, ok := StringLiteral(tree, id)
			want := ok && p.IsText()
			if got := IsTextLiteral(tree, id); got != want {
				t.Errorf("%s: node %d %q: IsTextLiteral = %v, want %v", name, i, tree.Text(id), got, want)
			}
			if want {
				texts++
			}
		}
		return texts
	}
	// text: 'x' and u'''z'''; not: the f-string and the bytes
	src := "a = 'x'\nb = f'{a}'\nc = rb\"y\"\nd = u'''z'''\n"
	tree, err := syntax.ParseOnce(syntax.Python, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if n := check("src", tree); n != 2 {
		t.Errorf("src: %d text literals, want 2", n)
	}
	eachSampleTree(t, 60, func(f string, tree *syntax.Tree) { check(f, tree) })
}
