package syntax

import (
	"errors"
	"testing"

	"github.com/polynfi/polynfi/syntax/jsparse"
)

// TestParseJavaScriptGoNodes checks that ParseJavaScriptGo's trees are
// Parse's, node for node (every field of Node: symbols, fields, spans,
// links, language), on snippets covering every kind jsparse emits.
func TestParseJavaScriptGoNodes(t *testing.T) {
	srcs := []string{
		"#!/usr/bin/env node\n'use strict'\nimport a, { b as c } from 'd' with { type: 'json' }\nimport * as e from 'f'\n" +
			"export { g as h }\nexport * as i from 'j'\nexport default k\n",
		"label: for (const [a, , ...b] of c) { if (a?.b?.[0]?.(1)) continue label; else break }\n" +
			"for (let i = 0; i < 1; i++) ; for (x in y) {} while (a) do b; while (c)\n" +
			"switch (a) { case 1: default: } try { throw new A.B() } catch ({ message: m = 1, ...r }) {} finally { debugger }\n" +
			"with (o) {}\n",
		"async function* f(a = 1, { b }, [c]) { yield* g; await h; return `x${y}\\n` }\n" +
			"class A extends B { static x = 1; #y; static { } get z() { return this.#y } static async *m() {} }\n" +
			"x = class {}; y = function () {}; z = function* () {}; w = async (a) => a, v => v\n",
		"x = /a[/]b/gi; y = a ?? b || c && d | e ^ f & g == h < i << j + k * l ** m; z = !a, ~b, -c, ++d, e--\n" +
			"a += 1; [a, b] = [b, a]; ({ a, b: { c } } = d); o = { a, 'b': 1, 2: 3, [c]: 4, get d() {}, ...e }\n" +
			"new.target; import.meta; import('x'); this; super.x; true; false; null; undefined; 0x1n; 'a\\'b'\n" +
			"q = a ? b : c; s = (a, b); t`x`\n",
	}
	p := NewParser()
	defer p.Close()
	for _, src := range srcs {
		ts, err := p.Parse(JavaScript, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if ts.HasError() {
			t.Fatalf("%q: tree-sitter finds an error", src)
		}
		gt, err := ParseJavaScriptGo([]byte(src))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if len(gt.Nodes) != len(ts.Nodes) {
			t.Fatalf("%q: %d nodes, tree-sitter %d", src, len(gt.Nodes), len(ts.Nodes))
		}
		for i := range ts.Nodes {
			if ts.Nodes[i] != gt.Nodes[i] {
				t.Fatalf("%q: node %d (%s): %+v, tree-sitter %+v", src, i, ts.Nodes[i].Kind(), gt.Nodes[i], ts.Nodes[i])
			}
		}
		for id := range ts.Nodes {
			if r1, c1 := ts.StartPoint(NodeID(id)); true {
				r2, c2 := gt.StartPoint(NodeID(id))
				if r1 != r2 || c1 != c2 {
					t.Fatalf("%q: node %d starts at %d:%d, tree-sitter %d:%d", src, id, r2, c2, r1, c1)
				}
			}
		}
	}
	if _, err := ParseJavaScriptGo([]byte("x = <a/>")); !errors.Is(err, jsparse.ErrUnsupported) {
		t.Errorf("JSX: want ErrUnsupported, got %v", err)
	}
}
