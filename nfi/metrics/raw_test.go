package metrics

import (
	"fmt"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/syntax"
)

// Expected values are radon 6.0.1's (radon.raw.analyze) for the same sources,
// in the order loc, lloc, sloc, comments, multi, blank, single_comments.
func TestRawMetrics(t *testing.T) {
	tests := []struct {
		src  string
		want Raw
	}{
		{"", Raw{}},
		{"x = 1\n", Raw{1, 1, 1, 0, 0, 0, 0}},
		{"# comment\n\nx = 1  # trailing\n", Raw{3, 1, 1, 2, 0, 1, 1}},
		{"\"\"\"doc\n\nmore\"\"\"\n", Raw{3, 1, 0, 0, 2, 1, 0}},
		{"\"one line doc\"\n", Raw{1, 1, 0, 0, 0, 0, 1}},
		{"if x: y = 1\n", Raw{1, 2, 1, 0, 0, 0, 0}},
		{"if x:\n    y = 1; z = 2;\n", Raw{2, 3, 2, 0, 0, 0, 0}},
		{"f = lambda a: a\nd = {1: 2}\n", Raw{2, 4, 2, 0, 0, 0, 0}},
		{"x = (1,\n     2)\n", Raw{2, 1, 2, 0, 0, 0, 0}},
		{"s = 'a\\\nb'\n", Raw{2, 1, 2, 0, 0, 0, 0}},
		{"x = 1 + \\\n    2\n", Raw{2, 1, 2, 0, 0, 0, 0}},
		{"a\fb\n", Raw{2, 2, 2, 0, 0, 0, 0}},
		{"class A: pass\nif x: a; b\n", Raw{2, 4, 2, 0, 0, 0, 0}},
		{"x = \"\"\"\nabc\n\"\"\"\n", Raw{3, 1, 3, 0, 0, 0, 0}},
		{"def f(x: int) -> int:\n    return x\n", Raw{2, 2, 2, 0, 0, 0, 0}},
		{"x = 1\r\ny = 2\r\n", Raw{2, 2, 2, 0, 0, 0, 0}},
	}
	for _, tc := range tests {
		got, err := RawMetrics([]byte(tc.src))
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%q: got %+v, want %+v", tc.src, got, tc.want)
		}
	}
}

func TestRawMetricsErrors(t *testing.T) {
	for _, src := range []string{"x = (1,\n", "s = \"\"\"never closed\n", "x = 'open\n", "a = $\n"} {
		if _, err := RawMetrics([]byte(src)); err == nil || !strings.Contains(err.Error(), "line ") {
			t.Errorf("%q: error %v, want one naming the line", src, err)
		}
	}
}

func FuzzRawMetrics(f *testing.F) {
	for _, s := range []string{"x = 1\n", "\"\"\"a\n\nb\"\"\"\n", "if x: y; z\n", "# c\n", "f'{a:b}'\n", "x = (\n1)\n", "s = 'a\\\nb'\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		r, err := RawMetrics(src)
		if err != nil {
			return
		}
		if r.LOC != r.SLOC+r.Blank+r.Multi+r.SingleComments {
			t.Errorf("LOC %d is not the sum of its parts: %+v", r.LOC, r)
		}
		if r.LOC < 0 || r.LLOC < 0 || r.Comments < 0 {
			t.Errorf("negative count: %+v", r)
		}
	})
}

// TestRawMetricsTree checks that RawMetricsTree, which takes the line
// starts from the tree, agrees with RawMetrics on a stdlib sample and on
// sources with and without a final newline or with other line breaks.
func TestRawMetricsTree(t *testing.T) {
	files, trees := parsedSample(t, 60)
	srcs := []string{"", "\n", "x = 1", "x = 1\n", "x = 1\n\n", "# c\nx = (1,\n 2)\n'''a\n\nb'''\n",
		"x = 1\r\ny = 2\r\n", "x = 1\fy = 2\n", "s = '''a\n", "def f():\n    return 1  # c"}
	p := syntax.NewParser()
	defer p.Close()
	for _, s := range srcs {
		tr, err := p.Parse(syntax.Python, []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		trees[s], files = tr, append(files, s)
	}
	checked := 0
	for _, f := range files {
		tr := trees[f]
		if tr == nil {
			continue
		}
		want, wantErr := RawMetrics(tr.Source)
		got, err := RawMetricsTree(tr)
		if got != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%q: RawMetricsTree = %+v, %v; RawMetrics = %+v, %v", f, got, err, want, wantErr)
		}
		checked++
	}
	if checked < 60 {
		t.Errorf("only %d sources checked", checked)
	}
}

// TestScanTripleBytewise checks scanTriple's bytes.IndexByte search against
// a byte-by-byte scan on every string of up to 7 bytes over the alphabet
// that matters (each quote, a backslash, a letter) and every start offset.
func TestScanTripleBytewise(t *testing.T) {
	bytewise := func(s []byte, i int, q byte) (int, bool) {
		for i < len(s) {
			switch s[i] {
			case '\\':
				i += 2
				continue
			case q:
				if i+2 < len(s) && s[i+1] == q && s[i+2] == q {
					return i + 3, true
				}
			}
			i++
		}
		return 0, false
	}
	const alphabet = "\"'\\a"
	s := make([]byte, 0, 7)
	var gen func()
	gen = func() {
		for _, q := range []byte{'"', '\''} {
			for i := 0; i <= len(s); i++ {
				wantEnd, wantOK := bytewise(s, i, q)
				gotEnd, gotOK := scanTriple(s, i, q)
				if gotEnd != wantEnd || gotOK != wantOK {
					t.Fatalf("scanTriple(%q, %d, %q) = %d, %v; want %d, %v", s, i, q, gotEnd, gotOK, wantEnd, wantOK)
				}
			}
		}
		if len(s) == cap(s) {
			return
		}
		for _, c := range []byte(alphabet) {
			s = append(s, c)
			gen()
			s = s[:len(s)-1]
		}
	}
	gen()
}

// TestPyStripIndent checks pyStrip against strings.TrimSpace-like trimming
// of spaces for every indentation width up to 20 before text of several
// lengths (the word-at-a-time indentation skip).
func TestPyStripIndent(t *testing.T) {
	for ind := 0; ind <= 20; ind++ {
		for _, text := range []string{"", "x", "\tx", "abc def ", "0123456789abcdef", "é"} {
			line := strings.Repeat(" ", ind) + text
			got := string(pyStrip([]byte(line)))
			if want := strings.TrimSpace(line); got != want {
				t.Errorf("pyStrip(%q) = %q, want %q", line, got, want)
			}
		}
	}
}
