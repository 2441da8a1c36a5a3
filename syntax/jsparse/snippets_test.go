package jsparse_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/syntax/jsparse"
)

// accepted are snippets jsparse must parse to tree-sitter's tree.
var accepted = []string{
	"",
	"\n\n  ",
	"// only a comment\n",
	"#!/usr/bin/env node\nfoo()\n",
	"a = 1\nb = 2\n",
	"a = 1 // one\nb = 2 // two\n",
	"a = 1 /* one */\nb = 2\n",
	"a = 1 // one\n// two\nb\n",
	"function f() {\n  return // why\n  x\n}\n",
	"function f() { return }\n",
	"x = a\n(b)\n",
	"x = a\n[b]\n",
	"x = a\n++b\n",
	"x = a\n.b\n",
	"x = a\n? b : c\n",
	"x = y / 2 / z\n",
	"x = /ab+c/gi.test(s)\n",
	"if (a) /re/.exec(b)\n",
	"x = a ? /[/]/ : /\\//\n",
	"x = `a${b}c${`d${e}`}\\n$`\n",
	"tag`x${y}`\n",
	"x = 'a\\'b' + \"c\\x41\\u{1F600}\\u0041\\0\\\n\"\n",
	"x = 0x1F + 0b10 + 0o7 + 1_000 + .5 + 1e-3 + 10n + 017 + 1.\n",
	"a ?? b || c\na || b ?? c\n",
	"a ** b ** c; -a ** b\n",
	"typeof a + void b - delete c.d\n",
	"!a && ~b || +c\n",
	"a = b = c += d ||= e\n",
	"x++; --y; a\n++\nb\n",
	"a, b, c\n",
	"(a, b) => a + b\n",
	"async (a) => { await a }\n",
	"async x => x\n",
	"x => y => z\n",
	"f(async function* g() { yield* h(); yield; yield 1 })\n",
	"const {a, b: [c, d = 1], ...e} = f\n",
	"let [, x, , ...y] = z\n",
	"[a, b] = [b, a]\n",
	"({a, b} = c)\n",
	"({ a = 1, b: { c } } = d)\n",
	"function f(a, b = 1, {c}, [d], ...e) {}\n",
	"for (let i = 0; i < n; i++) {}\n",
	"for (;;) break\n",
	"for (const k in o) continue\n",
	"for (const [k, v] of m) ;\n",
	"for (x of y) {}\nfor (a.b in c) {}\n",
	"for await (const x of y) {}\n",
	"for (var i = 0, j; i < j; i++, j--) {}\n",
	"while (a) { b() }\ndo x(); while (y)\ndo { } while (z);\n",
	"if (a) b(); else if (c) d(); else { e() }\n",
	"if (a) { } // c\nelse { }\n",
	"switch (x) { case 1: case 2: y(); break; default: z() }\n",
	"try { a() } catch (e) { b() } finally { c() }\ntry {} catch {}\n",
	"label: for (;;) { continue label; break label }\n",
	"throw new Error('x')\n",
	"debugger\n",
	"with (o) x\n",
	"class A extends B.C {\n  static x = 1\n  #y = 2;\n  z\n  constructor() { super(); this.#y }\n  get a() {}\n  set a(v) {}\n  static async *gen() {}\n  static { init() }\n  'quoted'() {}\n  [computed]() {}\n  42() {}\n  get() {}\n  static() {}\n  async() {}\n}\n",
	"x = class { m() {} }\n",
	"x = { a, b: 1, [c]: 2, 'd': 3, 4: 5, get e() {}, set e(v) {}, async f() {}, *g() {}, async *h() {}, ...i, get: 1, set, async: 2 }\n",
	"x = { if: 1, class: 2, new: 3 }.if\n",
	"a?.b?.[c]?.(d)\n",
	"new A; new A(); new A.B(); new new A()(); new A().b\n",
	"new.target; import.meta.url\n",
	"import x from 'x'\nimport * as y from 'y'\nimport { a, b as c, default as d } from 'z'\nimport e, { f } from 'f'\nimport 'side'\n",
	"import g, * as h from 'h'\nimport j from 'j' with { type: 'json' }\n",
	"export default function f() {}\nexport class C {}\nexport const a = 1\nexport { a as b, c }\nexport * from 'x'\nexport * as ns from 'y'\nexport { d } from 'z'\n",
	"export default a + b\n",
	"export async function f() {}\n",
	"x = function () {}\n(function () {})()\n",
	"!function () {}()\n",
	"a = b\n/* c */\n",
	"{ a() }\n",
	"{ a() /* x */ }\n",
	"var a = 1, b\nlet c\nconst d = 2\n",
	"x = a ? b : c ? d : e\n",
	"x = a in b; y = a instanceof B\n",
	"let x = y\n  instanceof Z\n",
	"foo(...args, a,)\n",
	"x = [1, , 2, ...y,]\n",
	"x = undefined; undefined = 1\n",
	"let async = 1; async = 2; let get = 3\n",
	"x = a\n  .b\n  // c\n  .d()\n",
	"function* g() { const x = yield y }\n",
	"x = a => ({ b })\n",
	"x = (a = 1, {b} = {}, [c] = []) => 0\n",
	"'use strict'\n",
	"a\n;b\n",
	"x = y // ",
	"x = '//not a comment' + \"/* nor */\"\n",
	"x = `//${a}/*`\n",
	"x = a /* c */ + b\n",
	"f(a, // one\n  b /* two */)\n",
	"x = { a: 1, // one\n  b: 2 }\n",
	"return_ = 1\n",
	"x = a-->b\n",
	"export default function () {}\nx", "export default class {}\nx", "export default async function () {} // c\nx",
	"export default function f() {} // c\nx", "export default class A {} // c\nx", "export default function* () {}\n",
	"x = / /g; y = / a/\n",
	// statement blocks and declarations end with an optional automatic
	// semicolon that may take a line comment in
	"{ } // c\nx",
	"function f() {} // c\nx",
	"class A {} // c\nx",
	"if (a) {} // c\nx",
	"try {} catch {} // c\nx",
	"for (;;) {} // c\nx",
	"x = () => {} // c\ny",
	"if (a) {} /* c */\nx",
	"function f() {} /* c */ x",
	"class A { static {} // c\n}",
	"do {} // c\nwhile(a)",
	"try {} // c\ncatch {}",
	"try {} finally {} // c\nx",
	"class A { m() {} // c\n n() {} }",
	"o = { m() {} // c\n, n: 1 }",
	"f(function() {} // c\n)",
	"f(() => {} // c\n, 1)",
	"if (a) {} else {} // c\nx",
	"{ {} // c\n x }",
	"a: {} // c\nx",
	"export function f() {} // c\nx",
	"async function f() {} // c\nx",
	"function* f() {} // c\nx",
	"switch (a) { case 1: {} // c\n x }",
	"if (a) {} // c\n// d\nx",
	"if (a) {} /* c\n */ x",
	"class A {} /* c */\nx",
	"export class A {} // c\nx",
	"b = 2 // two",
	"x = y // c\n",
	"if (a) { x; } // c\ny", "function f() { x } // c\ny", "{ x; } // c\ny", "class A { x } // c\ny",
	"x = () => { y } // c\nz", "class A { ; } // c\ny", "class A { m(){} } // c\ny", "{ ; } // c\ny",
	"function f() { x; } // c\ny", "if (nextCh === 91) { return true } // '[', '\\'\nif (a) b\n",
}

// declined are snippets jsparse must decline (tree-sitter parses them,
// jsparse does not know the construct yet).
var declined = []string{
	"x = <div>hi</div>\n",
	"@dec class A {}\n",
	"x = a\u00a0+ b\n",
	"\\u0061 = 1\n",
	"x = / //0\n",
	"{A:0}\n",
	"if (a) { x }\n",
	"export\nconst a = 1\n",
}

func TestSnippets(t *testing.T) {
	p := syntax.NewParser()
	defer p.Close()
	for _, src := range accepted {
		ts, err := p.Parse(syntax.JavaScript, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if ts.HasError() {
			t.Errorf("%q: tree-sitter finds an error: not a valid snippet", src)
			continue
		}
		mine, err := jsparse.Parse([]byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if d := compareTrees(ts, mine); d != "" {
			t.Errorf("%q: %s", src, d)
		}
	}
	for _, src := range declined {
		if _, err := jsparse.Parse([]byte(src)); !errors.Is(err, jsparse.ErrUnsupported) {
			t.Errorf("%q: want ErrUnsupported, got %v", src, err)
		}
	}
}

// rejected are syntax errors: jsparse returns a SyntaxError that does not
// wrap ErrUnsupported.
var rejected = []string{
	"a = ", "f(", "x = 1 2", "if (a", "'unterminated", "/* open", "x = `a${b`", "let [a = ] = b",
	"a + + ", "class { }", "function () {}", "1 = 2", "x = y z",
}

func TestRejects(t *testing.T) {
	for _, src := range rejected {
		_, err := jsparse.Parse([]byte(src))
		var se *jsparse.SyntaxError
		if !errors.As(err, &se) || errors.Is(err, jsparse.ErrUnsupported) {
			t.Errorf("%q: want a syntax error, got %v", src, err)
		}
	}
}

// TestSpeculationBudget: text that nests constructs read twice (an array
// pattern in arrow parameters, a hundred deep) makes speculation go back
// over the same bytes again and again; jsparse declines it as unsupported
// (so that the caller's tree-sitter, which has a CPU budget, takes it)
// once it has gone back over four times the file (plus 64 KiB), while
// the same construct nested 5 deep still parses to tree-sitter's tree
// (the differential test shows the budget leaves the corpus alone).
func TestSpeculationBudget(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("([a,", n) + strings.Repeat("])", n) + ";\n" }
	unit := nest(100)
	big := strings.Repeat(unit, 1_000_000/len(unit))
	_, err := jsparse.Parse([]byte(big))
	if !errors.Is(err, jsparse.ErrUnsupported) || !strings.Contains(err.Error(), "speculation went back over") {
		t.Errorf("%d bytes of %q: want the speculation budget's ErrUnsupported, got %v", len(big), unit[:12], err)
	}
	p := syntax.NewParser()
	defer p.Close()
	small := strings.Repeat(nest(5), 200)
	ts, err := p.Parse(syntax.JavaScript, []byte(small))
	if err != nil || ts.HasError() {
		t.Fatalf("tree-sitter: %v", err)
	}
	mine, err := jsparse.Parse([]byte(small))
	if err != nil {
		t.Fatalf("nested 5 deep: %v", err)
	}
	if d := compareTrees(ts, mine); d != "" {
		t.Errorf("nested 5 deep: %s", d)
	}
}
