package syntax

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/polynfi/polynfi/internal/corpus"
)

// reference walks the C tree node by node through go-tree-sitter's own API,
// to check that flatten gives the same preorder sequence; kinds are the
// nodes' type names as that API gives them; points are their start and end
// (row, column) pairs as that API gives them.
func reference(t *testing.T, lang Language, src []byte) (out []Node, kinds []string, points [][4]uint32) {
	t.Helper()
	g, err := grammarFor(lang)
	if err != nil {
		t.Fatal(err)
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g.lang); err != nil {
		t.Fatal(err)
	}
	tree := p.Parse(src, nil)
	defer tree.Close()
	var rec func(n *sitter.Node, field string, parent NodeID)
	rec = func(n *sitter.Node, field string, parent NodeID) {
		id := NodeID(len(out))
		kind := n.Kind()
		if n.IsError() {
			kind = "ERROR"
		}
		kinds = append(kinds, kind)
		out = append(out, Node{KindID: n.KindId(), lang: uint8(lang), FieldID: fieldIDs[field], StartByte: uint32(n.StartByte()), EndByte: uint32(n.EndByte()),
			Parent: parent, Named: n.IsNamed(), Missing: n.IsMissing(), Extra: n.IsExtra()})
		points = append(points, [4]uint32{uint32(n.StartPosition().Row), uint32(n.StartPosition().Column),
			uint32(n.EndPosition().Row), uint32(n.EndPosition().Column)})
		for i := uint(0); i < n.ChildCount(); i++ {
			rec(n.Child(i), n.FieldNameForChild(uint32(i)), id)
		}
	}
	rec(tree.RootNode(), "", NoNode)
	return out, kinds, points
}

var samples = []struct {
	name string
	lang Language
	src  string
}{
	{"python", Python, "import os\n\nclass A(B):\n    \"\"\"Doc.\"\"\"\n    @property\n    def f(self, x: int = 1) -> int:\n        # c\n        return x if x else -1\n"},
	{"python-error", Python, "def f(:\n  pass\n"},
	{"java", Java, "package p;\nclass A<T> {\n  public List<T> get(int x) { return null; }\n  A() {}\n}\n"},
	{"javascript", JavaScript, "const o = { m() { return 1 } };\nclass C { constructor() {} f(a) { return a } }\nfunction g() {}\n"},
	{"typescript", TypeScript, "interface I { x: number }\nclass C implements I { x = 1; m(): number { return this.x } }\n"},
	{"tsx", TSX, "const App = () => <div className=\"a\">{1}</div>;\n"},
	{"empty", Python, ""},
}

func TestFlattenMatchesNodeAPI(t *testing.T) {
	for _, walk := range []bool{false, true} {
		flattenByWalk = walk
		for _, s := range samples {
			t.Run(fmt.Sprintf("%s/walk=%v", s.name, walk), func(t *testing.T) {
				tree, err := ParseOnce(s.lang, []byte(s.src))
				if err != nil {
					t.Fatal(err)
				}
				checkAgainstReference(t, tree, s.lang, []byte(s.src))
			})
		}
	}
	flattenByWalk = false
	if n := flattenFallbacks.Load(); n != 0 {
		t.Errorf("the child-count flattening came short on %d trees", n)
	}
}

// TestFlattenStdlib compares flatten with the node API on real files, parsed
// in a row by one Parser (its C buffers are reused and regrown) and each
// released after use (its node storage is reused).
func TestFlattenStdlib(t *testing.T) {
	files := corpus.StdlibSample(t, 12)
	p := NewParser()
	defer p.Close()
	before := flattenFallbacks.Load()
	defer func() {
		if n := flattenFallbacks.Load() - before; n != 0 {
			t.Errorf("the child-count flattening came short on %d files", n)
		}
	}()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := p.Parse(Python, src)
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstReference(t, tree, Python, src)
		raw, err := p.ParseRaw(Python, src)
		if err != nil || raw != tree.HasError() {
			t.Errorf("%s: ParseRaw has error %v (%v), Parse %v", f, raw, err, tree.HasError())
		}
		// the next file reuses this tree's storage where it fits
		tree.Release()
		if tree.Nodes != nil {
			t.Fatal("Release kept Nodes")
		}
	}
}

func checkAgainstReference(t *testing.T, tree *Tree, lang Language, src []byte) {
	t.Helper()
	want, kinds, points := reference(t, lang, src)
	if len(tree.Nodes) != len(want) {
		t.Fatalf("got %d nodes, want %d", len(tree.Nodes), len(want))
	}
	for i := range want {
		g, w := tree.Nodes[i], want[i]
		if g.Kind() != kinds[i] {
			t.Fatalf("node %d: got kind %q, want %q", i, g.Kind(), kinds[i])
		}
		g.FirstChild, g.NextSibling, g.End = 0, 0, 0
		if g != w {
			t.Fatalf("node %d: got %+v, want %+v", i, g, w)
		}
		sr, sc := tree.StartPoint(NodeID(i))
		er, ec := tree.EndPoint(NodeID(i))
		if got := [4]uint32{sr, sc, er, ec}; got != points[i] {
			t.Fatalf("node %d: got start and end points %v, want %v", i, got, points[i])
		}
	}
	// structural links agree with Parent
	for i := range tree.Nodes {
		id := NodeID(i)
		for _, c := range tree.Children(id) {
			if tree.Parent(c) != id {
				t.Fatalf("child %d of %d has parent %d", c, id, tree.Parent(c))
			}
			if !tree.IsAncestor(id, c) {
				t.Fatalf("%d not within subtree of %d", c, id)
			}
		}
	}
	if tree.Nodes[0].End != NodeID(len(tree.Nodes)) {
		t.Fatalf("root End = %d, want %d", tree.Nodes[0].End, len(tree.Nodes))
	}
	// FirstError is the first ERROR or MISSING node in preorder
	wantErr := NoNode
	for i, n := range want {
		if n.Kind() == "ERROR" || n.Missing {
			wantErr = NodeID(i)
			break
		}
	}
	if got, ok := tree.FirstError(); got != wantErr || ok != (wantErr != NoNode) || tree.HasError() != ok {
		t.Fatalf("FirstError = %d, %v (HasError %v), want %d", got, ok, tree.HasError(), wantErr)
	}
}

func TestHasError(t *testing.T) {
	for _, s := range samples {
		tree, err := ParseOnce(s.lang, []byte(s.src))
		if err != nil {
			t.Fatal(err)
		}
		want := strings.HasSuffix(s.name, "-error")
		if tree.HasError() != want {
			t.Errorf("%s: HasError = %v, want %v", s.name, tree.HasError(), want)
		}
	}
}

func TestKindsPerLanguage(t *testing.T) {
	want := map[Language]string{
		Python: "function_definition", Java: "method_declaration", JavaScript: "method_definition",
		TypeScript: "interface_declaration", TSX: "jsx_element",
	}
	for _, s := range samples {
		k, ok := want[s.lang]
		if !ok || strings.HasSuffix(s.name, "-error") || s.src == "" {
			continue
		}
		tree, _ := ParseOnce(s.lang, []byte(s.src))
		found := false
		for i := range tree.Nodes {
			if tree.Nodes[i].Kind() == k {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s node", s.name, k)
		}
	}
}

func TestLanguageForPath(t *testing.T) {
	cases := map[string]Language{"a.py": Python, "b.pyi": Python, "C.java": Java, "d.js": JavaScript,
		"e.mjs": JavaScript, "f.ts": TypeScript, "g.tsx": TSX}
	for p, want := range cases {
		if got, ok := LanguageForPath(p); !ok || got != want {
			t.Errorf("LanguageForPath(%q) = %v, %v; want %v", p, got, ok, want)
		}
	}
	if _, ok := LanguageForPath("x.rb"); ok {
		t.Error("x.rb should not be parseable")
	}
}

// benchmarkStdlib runs parse over 400 standard-library files per iteration.
func benchmarkStdlib(b *testing.B, parse func(p *Parser, src []byte) error) {
	var srcs [][]byte
	total := 0
	for _, f := range corpus.StdlibSample(b, 400) {
		s, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, s)
		total += len(s)
	}
	p := NewParser()
	defer p.Close()
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, s := range srcs {
			if err := parse(p, s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseStdlib measures Parse (parse and flatten), each tree
// released so that its storage is reused, as Engine.Score does.
func BenchmarkParseStdlib(b *testing.B) {
	benchmarkStdlib(b, func(p *Parser, src []byte) error {
		t, err := p.Parse(Python, src)
		if err == nil {
			t.Release()
		}
		return err
	})
}

// BenchmarkParseRawStdlib measures tree-sitter parsing alone.
func BenchmarkParseRawStdlib(b *testing.B) {
	benchmarkStdlib(b, func(p *Parser, src []byte) error {
		_, err := p.ParseRaw(Python, src)
		return err
	})
}

// TestParseUntilErrorAgrees checks ParseUntilError against Parse on stdlib
// files and on each of their lines parsed alone (mostly not valid Python):
// an abandoned parse must be one whose full tree has an error, and a tree it
// returns must be Parse's.
func TestParseUntilErrorAgrees(t *testing.T) {
	p := NewParser()
	defer p.Close()
	abandoned := 0
	for _, f := range corpus.StdlibSample(t, 20) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs := [][]byte{src}
		for _, l := range strings.Split(string(src), "\n") {
			inputs = append(inputs, []byte(strings.TrimLeft(l, " #")))
		}
		for _, in := range inputs {
			full, err := p.Parse(Python, in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.ParseUntilError(Python, in)
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				abandoned++
				if !full.HasError() {
					t.Fatalf("%s: abandoned the parse of error-free %q", f, in)
				}
				continue
			}
			if got.HasError() != full.HasError() || len(got.Nodes) != len(full.Nodes) {
				t.Fatalf("%s: %q: ParseUntilError gave %d nodes (error %v), Parse %d (error %v)",
					f, in, len(got.Nodes), got.HasError(), len(full.Nodes), full.HasError())
			}
		}
	}
	if abandoned == 0 {
		t.Error("no parse was abandoned: the test exercises nothing")
	}
}

// TestFieldKey checks FieldKey.Child against ChildByField for every field
// name of every grammar on the samples, and that a name no grammar has
// finds nothing.
func TestFieldKey(t *testing.T) {
	grammarsOnce.Do(loadGrammars)
	keys := []*FieldKey{NewFieldKey("no_such_field")}
	for _, name := range fieldNames[1:] {
		keys = append(keys, NewFieldKey(name))
	}
	found := 0
	for _, s := range samples {
		tree, err := ParseOnce(s.lang, []byte(s.src))
		if err != nil {
			t.Fatal(err)
		}
		for n := range tree.Nodes {
			id := NodeID(n)
			for _, k := range keys {
				got, want := k.Child(tree, id), tree.ChildByField(id, k.Name())
				if got != want {
					t.Fatalf("%s: node %d field %s: Child %d, ChildByField %d", s.name, n, k.Name(), got, want)
				}
				if got != NoNode {
					found++
				}
			}
		}
	}
	if found == 0 || keys[0].ID() != 0 {
		t.Fatalf("found %d field children; unknown field number %d", found, keys[0].ID())
	}
}

// deepRecovery is 140 KB of nested generics after a syntax error in Java:
// tree-sitter's error recovery takes time quadratic in the nesting there
// (about 6 s of CPU unbounded on this machine, 36 s at 50,000 levels).
func deepRecovery() []byte {
	return []byte("let x: " + strings.Repeat("Array<", 20000) + "number" + strings.Repeat(">", 20000) + ";\n")
}

// TestParseBudget: a parse that spends its CPU budget ends with a
// BudgetError that says where it stopped, and the Parser parses the next
// file normally; the same nesting without the syntax error parses.
func TestParseBudget(t *testing.T) {
	p := NewParser()
	defer p.Close()
	src := deepRecovery()
	tr, err := p.Parse(Java, src)
	var be *BudgetError
	if !errors.As(err, &be) {
		t.Fatalf("deep recovery: tree %v, err %v; want a BudgetError", tr != nil, err)
	}
	if be.Lang != Java || be.Bytes != len(src) || be.Offset <= 0 || be.Offset > len(src) || be.CPU != 2*time.Second+time.Duration(len(src))*10*time.Microsecond {
		t.Errorf("BudgetError %+v", *be)
	}
	if !strings.Contains(err.Error(), "nesting too deep") {
		t.Errorf("message %q", err)
	}
	ok, err := p.Parse(Java, []byte("class A { java.util.List<java.util.List<String>> x; }\n"))
	if err != nil || ok.HasError() {
		t.Fatalf("next parse: %v, error tree %v", err, err == nil && ok.HasError())
	}
	ok.Release()
	ts, err := p.Parse(TypeScript, src)
	if err != nil || ts.HasError() {
		t.Fatalf("the same nesting in TypeScript: %v", err)
	}
	ts.Release()
	p.SetBudget(100*time.Millisecond, time.Microsecond)
	if _, err := p.Parse(Java, src); !errors.As(err, &be) || be.CPU != 100*time.Millisecond+time.Duration(len(src))*time.Microsecond {
		t.Fatalf("with SetBudget: %v", err)
	}
}
