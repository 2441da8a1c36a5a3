package pyast

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/syntax"
)

func flagString(f uint8) string {
	var s []string
	for _, x := range []struct {
		f    uint8
		name string
	}{{InString, "str"}, {Blank, "blank"}, {CommentOnly, "comment"}, {Continuation, "cont"}, {LogicalStart, "start"}, {AfterColon, "colon"}} {
		if f&x.f != 0 {
			s = append(s, x.name)
		}
	}
	return strings.Join(s, ",")
}

func TestLines(t *testing.T) {
	src := strings.Join([]string{
		"import os",              // 1
		"",                       // 2
		"def f(a,",               // 3
		"",                       // 4
		"      b):  # header",    // 5
		"    # comment",          // 6
		"    x = a + \\",         // 7
		"        b",              // 8
		"    s = \"\"\"doc",      // 9
		"  # not a comment",      // 10
		"\"\"\" + f\"{x}\"",      // 11
		"    \t ",                // 12
		"    return (x,  # tail", // 13
		"            s)",         // 14
		"",                       // 15
	}, "\n")
	m := namesModule(t, src)
	ls := m.Lines()
	want := []string{
		"start", "blank", "start", "blank,cont", "cont", "comment,colon", "start,colon", "cont",
		"start", "str", "str", "blank", "start", "cont", "blank",
	}
	var got []string
	for i := range ls.List {
		got = append(got, flagString(ls.List[i].Flags))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("line flags (-want +got):\n%s", diff)
	}
	if ls.IndentChar != ' ' {
		t.Errorf("IndentChar = %q, want ' '", ls.IndentChar)
	}
	comments := map[int]string{}
	for i := range ls.List {
		if c := ls.List[i].Comment; c >= 0 {
			comments[i+1] = string(m.Tree.Source[c:ls.List[i].End])
		}
	}
	if diff := cmp.Diff(map[int]string{5: "# header", 6: "# comment", 13: "# tail"}, comments); diff != "" {
		t.Errorf("comments (-want +got):\n%s", diff)
	}
	if got := ls.List[11].Indent; got != 6 {
		t.Errorf("indent of line 12 = %d, want 6", got)
	}
	if got := string(ls.Text(m.Tree, 4)); got != "      b):  # header" {
		t.Errorf("Text(4) = %q", got)
	}
}

func TestLinesCRLF(t *testing.T) {
	m := namesModule(t, "x = 1  \r\n\r\ny = 2\r\n")
	ls := m.Lines()
	if got := string(ls.Text(m.Tree, 0)); got != "x = 1  " {
		t.Errorf("line 1 = %q, want %q", got, "x = 1  ")
	}
	if !ls.List[1].Has(Blank) || ls.List[1].End != ls.List[1].Start {
		t.Errorf("line 2 = %+v, want an empty blank line", ls.List[1])
	}
}

func TestTokens(t *testing.T) {
	m := namesModule(t, "x = (a  # c\n     + b) or \\\n  -c\ny = f\"{a}\"\n")
	type tok struct {
		Kind          string
		Depth         int32
		Newline, Comm bool
	}
	var got []tok
	for _, tk := range m.Tokens() {
		got = append(got, tok{tk.Kind(m.Tree), tk.Depth, tk.Newline, tk.Comment})
	}
	want := []tok{
		{"identifier", 0, false, false}, {"=", 0, false, false}, {"(", 0, false, false},
		{"identifier", 1, false, false}, {"comment", 1, false, true}, {"+", 1, true, false},
		{"identifier", 1, false, false}, {")", 1, false, false}, {"or", 0, false, false},
		{"-", 0, false, false}, {"identifier", 0, false, false},
		{"identifier", 0, true, false}, {"=", 0, false, false}, {"string", 0, false, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
}

// The widths follow Ruff's LineWidthBuilder (checked with ruff E501 on
// lines of these characters).
func TestDisplayWidth(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"\tx", 5},
		{"ab\tx", 5},
		{"abcd\tx", 9},
		{"日本語", 6},
		{"é", 1},
		{"e\u0301", 1},
		{"a\x0cb", 2},
		{"日\tx", 6}, // the tab stop counts characters, not cells: column 1 → 4
	}
	for _, tc := range tests {
		if got := DisplayWidth([]byte(tc.s), 4); got != tc.want {
			t.Errorf("DisplayWidth(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func BenchmarkLines(b *testing.B) {
	src := strings.Repeat("def f(a, b):\n    # comment\n    return (a +\n            b)  # tail\n\n\n", 2000)
	m := namesModule(b, src)
	b.ReportAllocs()
	for b.Loop() {
		buildLines(m.Tree, &nodeIndex{})
	}
}

// codeRows is the definition of the Code flag, node by node: the rows of
// every non-empty leaf that is not a comment.
func codeRows(m *Module) []bool {
	t := m.Tree
	code := make([]bool, len(t.LineStarts()))
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.FirstChild != syntax.NoNode || n.Kind() == "comment" || n.StartByte == n.EndByte {
			continue
		}
		sr, _ := t.StartPoint(syntax.NodeID(i))
		er, _ := t.EndPoint(syntax.NodeID(i))
		for r := sr; r <= er && int(r) < len(code); r++ {
			code[r] = true
		}
	}
	return code
}

func checkCodeFlags(t *testing.T, name string, m *Module) {
	t.Helper()
	want := codeRows(m)
	ls := m.Lines().List
	for r := range ls {
		if got := ls[r].Has(Code); got != want[r] {
			t.Errorf("%s:%d: Code = %v, want %v", name, r+1, got, want[r])
		}
	}
}

func TestCodeFlag(t *testing.T) {
	src := "x = 1  # c\n# only a comment\n\ny = f'''{\n\nx\n}''' + '''a\n\nb'''\nz = (1 +\n\\\n2)\n"
	m := namesModule(t, src)
	checkCodeFlags(t, "src", m)
	var got []int
	for r, l := range m.Lines().List {
		if l.Has(Code) {
			got = append(got, r+1)
		}
	}
	// line 5 is blank inside a replacement field; lines 8-10 are string contents
	if want := []int{1, 4, 6, 7, 8, 9, 10, 11, 12}; !cmp.Equal(want, got) {
		t.Errorf("code lines = %v, want %v", got, want)
	}
	eachSampleTree(t, 60, func(f string, tree *syntax.Tree) {
		if tree.HasError() {
			return
		}
		checkCodeFlags(t, f, NewModule(f, tree))
	})
}

// TestFreeList checks that storage returns to the list it came from: a
// slice made for a small request stays small, and a request too large to
// keep leaves the large slot's slice in place.
func TestFreeList(t *testing.T) {
	f := newFreeList[int](100, 1000)
	s := f.get(95) // an eighth more would be over maxSmall
	if cap(s) < 95 || cap(s) > 100 {
		t.Fatalf("get(95): cap %d, want 95..100", cap(s))
	}
	f.put(s)
	if len(f.small) != 1 || len(f.big) != 0 {
		t.Fatalf("put after get(95): %d small, %d big, want 1, 0", len(f.small), len(f.big))
	}
	b := f.get(900)
	if cap(b) < 900 || cap(b) > 1000 {
		t.Fatalf("get(900): cap %d, want 900..1000", cap(b))
	}
	f.put(b)
	if huge := f.get(5000); cap(huge) < 5000 {
		t.Fatalf("get(5000): cap %d", cap(huge))
	}
	if len(f.big) != 1 {
		t.Fatal("get(5000) took the large slot's slice")
	}
	if again := f.get(800); cap(again) != cap(b) {
		t.Errorf("get(800): cap %d, want the kept slice's %d", cap(again), cap(b))
	}
	if again := f.get(50); cap(again) != cap(s) {
		t.Errorf("get(50): cap %d, want the kept slice's %d", cap(again), cap(s))
	}
}

// TestPrintableASCII8 checks the eight-byte test against a byte-by-byte
// one: every byte value in every position of a printable word, and random
// words biased towards the range limits.
func TestPrintableASCII8(t *testing.T) {
	bytewise := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 || c >= 0x7f {
				return false
			}
		}
		return true
	}
	check := func(b []byte) {
		t.Helper()
		if got, want := printableASCII8(binary.LittleEndian.Uint64(b)), bytewise(b); got != want {
			t.Fatalf("printableASCII8(% x) = %v, want %v", b, got, want)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			check(b)
		}
	}
	edges := []byte{0x00, 0x1f, 0x20, 0x21, 0x7e, 0x7f, 0x80, 0xfe, 0xff, 'a'}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var b [8]byte
		for i := range b {
			if rng.IntN(2) == 0 {
				b[i] = edges[rng.IntN(len(edges))]
			} else {
				b[i] = byte(rng.IntN(256))
			}
		}
		check(b[:])
	}
}
