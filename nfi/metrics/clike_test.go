package metrics

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/polynfi/polynfi/syntax"
)

func parseLang(t *testing.T, l syntax.Language, src string) *syntax.Tree {
	t.Helper()
	p := syntax.NewParser()
	t.Cleanup(p.Close)
	tree, err := p.Parse(l, []byte(src))
	if err != nil || tree.HasError() {
		t.Fatalf("parse: %v (error node: %v)", err, tree != nil && tree.HasError())
	}
	return tree
}

// TestCLikeRawByHand: the line counts of a TypeScript and a Java file,
// worked out line by line (the comment after each line says its class).
func TestCLikeRawByHand(t *testing.T) {
	ts := "/**\n" + // multi
		" * Doc.\n" + // multi
		"\n" + // blank (inside the comment: blank, as radon)
		" */\n" + // multi
		"// one\n" + // single comment
		"export const x: number = 1; // trailing\n" + // code (+1 comment), 1 LLOC
		"\n" + // blank
		"function f(a = 1): number {\n" + // code, 1 LLOC
		"  const s = `a\n" + // code, 1 LLOC
		"\n" + // blank (inside a template literal: whitespace only)
		"b`;\n" + // code
		"  /* a */ /* b */\n" + // single comment (2 comments)
		"  return a;\n" + // code, 1 LLOC
		"}" // code, no newline
	got := CLikeRaw(parseLang(t, syntax.TypeScript, ts))
	want := Raw{LOC: 14, LLOC: 4, SLOC: 6, Comments: 5, Multi: 3, Blank: 3, SingleComments: 2}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("TypeScript raw (-want +got):\n%s", d)
	}
	if got.SLOC+got.Multi+got.SingleComments+got.Blank != got.LOC {
		t.Errorf("SLOC + Multi + SingleComments + Blank != LOC: %+v", got)
	}
	java := "package a;\n" + // code, 1 LLOC (package_declaration)
		"/** C. */\n" + // single comment (a one-line block comment)
		"class C {\n" + // code, 1 LLOC
		"    int n = 0; // count\n" + // code, 1 LLOC (field_declaration), 1 comment
		"    void m() {\n" + // code, 1 LLOC (method_declaration)
		"        if (n > 0) { n--; }\n" + // code, 2 LLOC (if, expression statement)
		"    }\n" + // code
		"}\n"
	got = CLikeRaw(parseLang(t, syntax.Java, java))
	want = Raw{LOC: 8, LLOC: 6, SLOC: 7, Comments: 2, Multi: 0, Blank: 0, SingleComments: 1}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Java raw (-want +got):\n%s", d)
	}
	if got := CLikeRaw(parseLang(t, syntax.JavaScript, "")); got != (Raw{}) {
		t.Errorf("empty file: %+v", got)
	}
}

// TestECMAScriptComplexityByHand: every branch kind ESLint's complexity
// counts, one function each, and the paths it measures on their own.
func TestECMAScriptComplexityByHand(t *testing.T) {
	src := `function branches(a, b = 2, {c = 3} = {}) { // 1 + 2 defaults + 1 destructuring default
  if (a) {} else if (b) {}                      // +2
  for (;;) { break; } for (const k in a) {} for (const v of a) {} // +3
  while (a) {} do {} while (b);                 // +2
  try {} catch (e) {}                           // +1
  switch (a) { case 1: break; case 2: break; default: } // +2
  const x = a ? b : c;                          // +1
  const y = a && b || c ?? 0;                   // +3
  a ||= b; a &&= b; a ??= b; a += b;            // +3
  return a?.b?.c;                               // +2
}
const arrow = (z) => z + 1;
class K {
  f = this.a ? 1 : 2;
  g = () => 0;
  static { if (this.x) {} }
  m() { return [1].map(function (v) { return v || 0; }); }
}
`
	c := ECMAScriptComplexity(parseLang(t, syntax.JavaScript, src))
	type blk struct {
		Type, Name string
		Line, CC   int
	}
	var got []blk
	for _, b := range c.Functions {
		got = append(got, blk{b.Type, b.Name, b.Lineno, b.Complexity})
	}
	want := []blk{
		{TypeFunction, "branches", 1, 1 + 3 + 2 + 3 + 2 + 1 + 2 + 1 + 3 + 3 + 2},
		{TypeFunction, "arrow", 12, 1},
		{TypeInitializer, "f", 14, 2},
		{TypeFunction, "g", 15, 1},
		{TypeStaticBlock, "<anonymous>", 16, 2},
		{TypeMethod, "m", 17, 1},
		{TypeFunction, "<anonymous>", 17, 2},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("blocks (-want +got):\n%s", d)
	}
	if c.Module != 1 {
		t.Errorf("module complexity %d, want 1", c.Module)
	}
}

// TestJavaComplexityByHand: PMD's decision points, the boolean operators
// counted only in conditions, lambdas counting nowhere, anonymous classes'
// methods on their own.
func TestJavaComplexityByHand(t *testing.T) {
	src := `class A {
  A(int x) { if (x > 0 && x < 9) { throw new IllegalArgumentException(); } } // 1 + if + && + throw
  boolean b(int x) { return x > 0 && x < 9; }                                 // 1: && outside a condition
  int s(int x) {
    switch (x) { case 1: case 2: return 1; default: return 0; }               // 1 + 2 labels
  }
  int e(int x) { return switch (x) { case 1, 2 -> 1; case 3 -> 2; default -> 0; }; } // 1 + 2 labels
  void l(java.util.List<Integer> xs) {
    for (int v : xs) { while (v > 0 || v < -9) { v--; } }                     // 1 + for + while + ||
    xs.forEach(v -> { if (v > 0) {} });                                       // lambda: nothing
    try { xs.get(0); } catch (RuntimeException ex) { } finally { }            // + catch
    Runnable r = new Runnable() { public void run() { do { } while (xs.isEmpty()); } }; // own method: 2
    int y = xs.isEmpty() ? 0 : 1;                                             // + ?:
  }
}
`
	c := JavaComplexity(parseLang(t, syntax.Java, src))
	var got []string
	for _, b := range c.Functions {
		got = append(got, b.Classname+"."+b.Name+"="+string(rune('0'+b.Complexity)))
	}
	want := []string{"A.A=4", "A.b=1", "A.s=3", "A.e=3", "A.l=6", "<anonymous>.run=2"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("methods (-want +got):\n%s", d)
	}
}
