package metrics

import (
	"maps"
	"testing"

	"github.com/polynfi/polynfi/syntax"
)

func parse(t testing.TB, src string) *syntax.Tree {
	t.Helper()
	tr, err := syntax.ParseOnce(syntax.Python, []byte(src))
	if err != nil || tr.HasError() {
		t.Fatalf("parse %q: %v", src, err)
	}
	return tr
}

// Expected values are radon 6.0.1's (cc_visit) for the same sources.
func TestFunctionComplexity(t *testing.T) {
	tests := []struct {
		name, src       string
		complexity, end int
	}{
		{"plain", "def f():\n    return 1\n", 1, 2},
		{"if elif else", "def f(x):\n    if x:\n        pass\n    elif x > 1:\n        pass\n    else:\n        pass\n", 3, 7},
		{"boolean operands", "def f(a, b, c):\n    return a and b or c and not a\n", 4, 2},
		{"ternaries, lambda body counts", "def f(x):\n    g = lambda y: y if y else 0\n    return g(x) if x else None\n", 3, 3},
		{"loop else", "def f(xs):\n    for x in xs:\n        pass\n    else:\n        pass\n    while xs:\n        break\n    else:\n        pass\n", 5, 9},
		{"handlers and try else", "def f():\n    try:\n        pass\n    except A:\n        pass\n    except B:\n        pass\n    else:\n        pass\n    finally:\n        pass\n", 4, 11},
		{"except star adds nothing", "def f():\n    try:\n        pass\n    except* A:\n        pass\n", 1, 5},
		{"comprehension clauses", "def f(xs):\n    return [a for a in xs if a if not a for b in a], {k: v for k, v in xs}\n", 6, 2},
		{"assert counts once, end line ignores it", "def f(x):\n    assert x and x or (1 if x else 2)\n", 2, 1},
		{"match with wildcard", "def f(x):\n    match x:\n        case 1:\n            pass\n        case [y]:\n            pass\n        case _:\n            pass\n", 3, 8},
		{"match capture only", "def f(x):\n    match x:\n        case y:\n            pass\n", 1, 4},
		{"match sequence and group", "def f(x):\n    match x:\n        case y,:\n            pass\n        case (z):\n            pass\n", 2, 6},
		{"defaults, decorators, closures excluded", "def f(x=1 if a else 2):\n    with x as y, y as z:\n        @dec(1 if a else 2)\n        def g():\n            if x:\n                pass\n        return g\n", 1, 7},
		{"nested class excluded", "def f():\n    class A:\n        if x:\n            pass\n    return A\n", 1, 5},
		{"async for", "async def f(xs):\n    async for x in xs:\n        await x\n    async with xs:\n        pass\n", 2, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := parse(t, tc.src)
			cc := CyclomaticComplexity(tr)
			if len(cc.Functions) != 1 {
				t.Fatalf("got %d functions, want 1", len(cc.Functions))
			}
			f := cc.Functions[0]
			if f.Complexity != tc.complexity || f.Endline != tc.end {
				t.Errorf("complexity %d, endline %d; want %d, %d", f.Complexity, f.Endline, tc.complexity, tc.end)
			}
			if got := FunctionComplexity(tr, f.Node); got != tc.complexity {
				t.Errorf("FunctionComplexity = %d, want %d", got, tc.complexity)
			}
		})
	}
}

func TestClassBlocks(t *testing.T) {
	src := "class A:\n    x = 1 if y else 2\n    def m(self):\n        if self:\n            return 1\n        def inner():\n            return 2 if self else 3\n        return inner\n    def n(self):\n        pass\n    class B:\n        def hidden(self):\n            pass\n\ndef top():\n    pass\n"
	cc := CyclomaticComplexity(parse(t, src))
	if len(cc.Classes) != 1 || len(cc.Functions) != 1 {
		t.Fatalf("got %d classes, %d functions", len(cc.Classes), len(cc.Functions))
	}
	a := cc.Classes[0]
	// real: 1 + ternary 1 + m 2 + n 1 = 5; two methods: 5/2 + 1 = 3
	if a.RealComplexity != 5 || a.Complexity != 3 || a.Endline != 10 {
		t.Errorf("class A: real %d, complexity %d, endline %d; want 5, 3, 10", a.RealComplexity, a.Complexity, a.Endline)
	}
	if len(a.Methods) != 2 || a.Methods[0].Type != TypeMethod || a.Methods[0].Classname != "A" {
		t.Fatalf("methods %+v", a.Methods)
	}
	if m := a.Methods[0]; m.Complexity != 2 || len(m.Closures) != 1 || m.Closures[0].Complexity != 2 || m.Closures[0].Type != TypeFunction {
		t.Errorf("method m: %+v", m)
	}
	if len(a.InnerClasses) != 1 || a.InnerClasses[0].Name != "B" {
		t.Errorf("inner classes %+v", a.InnerClasses)
	}
	// module 1 + (top 1 - 1) + (A real 5 - 1)
	if cc.Total() != 5 {
		t.Errorf("total %d, want 5", cc.Total())
	}
	blocks := cc.Blocks()
	var order []string
	for _, b := range blocks {
		order = append(order, b.Name)
	}
	if want := "A m top n"; join(order) != want {
		t.Errorf("blocks %q, want %q (radon: descending complexity, stable)", join(order), want)
	}
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}

func TestRank(t *testing.T) {
	for cc, want := range map[int]string{0: "A", 1: "A", 5: "A", 6: "B", 10: "B", 11: "C", 20: "C", 21: "D", 30: "D", 31: "E", 40: "E", 41: "F", 500: "F"} {
		if got := Rank(cc); got != want {
			t.Errorf("Rank(%d) = %s, want %s", cc, got, want)
		}
	}
}

func TestNestingDepth(t *testing.T) {
	tests := []struct {
		src  string
		want int
		line int
	}{
		{"def f():\n    return 1\n", 0, 0},
		{"def f(x):\n    if x:\n        for y in x:\n            while y:\n                with y:\n                    pass\n", 4, 5},
		{"def f(x):\n    if x:\n        pass\n    elif x:\n        try:\n            pass\n        except E:\n            pass\n    else:\n        pass\n", 2, 5},
		{"def f(x):\n    match x:\n        case 1:\n            if x:\n                pass\n", 2, 4},
		{"def f(x):\n    for a in x:\n        def g():\n            if a:\n                pass\n    class C:\n        if x:\n            pass\n", 1, 2},
	}
	for _, tc := range tests {
		tr := parse(t, tc.src)
		def := tr.FirstChildOfKind(tr.Root(), "function_definition")
		d, at := NestingDepth(tr, def)
		line := 0
		if at != syntax.NoNode {
			line = tr.Line(at)
		}
		if d != tc.want || line != tc.line {
			t.Errorf("%q: depth %d at line %d, want %d at %d", tc.src, d, line, tc.want, tc.line)
		}
	}
}

// TestByDef checks Complexity.ByDef against FunctionComplexity for every
// def of a stdlib sample, nested ones included.
func TestByDef(t *testing.T) {
	files, trees := parsedSample(t, 60)
	defs := 0
	for _, f := range files {
		tr := trees[f]
		if tr == nil {
			continue
		}
		cc := CyclomaticComplexity(tr)
		for i := range tr.Nodes {
			if tr.Nodes[i].Kind() != "function_definition" {
				continue
			}
			defs++
			id := syntax.NodeID(i)
			got, ok := cc.ByDef[id]
			if want := FunctionComplexity(tr, id); !ok || got != want {
				t.Errorf("%s:%d: ByDef = %d (%v), FunctionComplexity = %d", f, tr.Line(id), got, ok, want)
			}
		}
	}
	if defs < 500 {
		t.Errorf("only %d defs checked", defs)
	}
}

// eachSampleTree calls fn on each error-free tree of a 60-file stdlib
// sample and fails when fewer than 50 were checked.
func eachSampleTree(t *testing.T, fn func(path string, tr *syntax.Tree)) {
	t.Helper()
	files, trees := parsedSample(t, 60)
	for _, f := range files {
		fn(f, trees[f])
	}
	if len(files) < 50 {
		t.Errorf("only %d files checked", len(files))
	}
}

// TestCyclomaticTotals checks that CyclomaticTotals gives
// CyclomaticComplexity's Total() and ByDef on a stdlib sample.
func TestCyclomaticTotals(t *testing.T) {
	eachSampleTree(t, func(f string, tr *syntax.Tree) {
		cc := CyclomaticComplexity(tr)
		got := CyclomaticTotals(tr)
		if got.Total != cc.Total() {
			t.Errorf("%s: Total = %d, want %d", f, got.Total, cc.Total())
		}
		if !maps.Equal(got.ByDef, cc.ByDef) {
			t.Errorf("%s: ByDef differs", f)
		}
	})
}

// TestSummarize checks that Summarize's one walk gives CyclomaticTotals and
// HalsteadMetrics' total on a stdlib sample.
func TestSummarize(t *testing.T) {
	eachSampleTree(t, func(f string, tr *syntax.Tree) {
		s := Summarize(tr)
		cc := CyclomaticTotals(tr)
		if s.Complexity.Total != cc.Total || !maps.Equal(s.Complexity.ByDef, cc.ByDef) {
			t.Errorf("%s: complexity %d %v, want %d %v", f, s.Complexity.Total, s.Complexity.ByDef, cc.Total, cc.ByDef)
		}
		if h := HalsteadMetrics(tr).Total; s.Halstead != h {
			t.Errorf("%s: Halstead %+v, want %+v", f, s.Halstead, h)
		}
	})
}

// TestSummarizerKinds checks that a Summarizer shown only the nodes of the
// kinds SummaryKinds lists (as a scoring rule with those Kinds is) gives
// Summarize's result on a stdlib sample, and that one shown every node, or
// each node twice, does too.
func TestSummarizerKinds(t *testing.T) {
	kinds := map[string]bool{}
	for _, k := range SummaryKinds() {
		kinds[k] = true
	}
	eachSampleTree(t, func(f string, tr *syntax.Tree) {
		want := Summarize(tr)
		some, all, twice := NewSummarizer(tr), NewSummarizer(tr), NewSummarizer(tr)
		for i := range tr.Nodes {
			n := syntax.NodeID(i)
			if kinds[tr.Nodes[i].Kind()] {
				some.Visit(n)
			}
			all.Visit(n)
			twice.Visit(n)
			twice.Visit(n)
		}
		for name, s := range map[string]*Summarizer{"kinds": some, "all": all, "twice": twice} {
			got := s.Summary()
			if got.Complexity.Total != want.Complexity.Total || !maps.Equal(got.Complexity.ByDef, want.Complexity.ByDef) || got.Halstead != want.Halstead {
				t.Errorf("%s (%s nodes): %+v, want %+v", f, name, got, want)
			}
		}
	})
	if len(kinds) < 20 || !kinds["function_definition"] || kinds["string"] || kinds["attribute"] || kinds["identifier"] {
		t.Errorf("SummaryKinds() = %v", SummaryKinds())
	}
}

// TestSummaryKindsUnfiltered checks what lets SummaryKinds leave out strings
// and attributes on a stdlib sample: no node of a SummaryKinds kind lies
// below a child of a string other than an interpolation, nor below a child
// of an attribute other than its object, the children whose subtrees the
// complexity count does not visit.
func TestSummaryKindsUnfiltered(t *testing.T) {
	kinds := map[string]bool{}
	for _, k := range SummaryKinds() {
		kinds[k] = true
	}
	checked := 0
	eachSampleTree(t, func(f string, tr *syntax.Tree) {
		for i := range tr.Nodes {
			if !kinds[tr.Nodes[i].Kind()] {
				continue
			}
			checked++
			for c := syntax.NodeID(i); tr.Nodes[c].Parent != syntax.NoNode; c = tr.Nodes[c].Parent {
				a := tr.Nodes[c].Parent
				switch tr.Kind(a) {
				case "string":
					if tr.Kind(c) != "interpolation" {
						t.Errorf("%s:%d: %s inside string child %s", f, tr.Line(syntax.NodeID(i)), tr.Nodes[i].Kind(), tr.Kind(c))
					}
				case "attribute":
					if tr.ChildByField(a, "object") != c {
						t.Errorf("%s:%d: %s inside attribute child %s", f, tr.Line(syntax.NodeID(i)), tr.Nodes[i].Kind(), tr.Kind(c))
					}
				}
			}
		}
	})
	if checked < 1000 {
		t.Errorf("only %d nodes checked", checked)
	}
}
