package retrieval

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/polynfi/polynfi/syntax"
)

// nodesOf computes the node keys of patch over base in mode.
func nodesOf(t *testing.T, base MemSource, patch string, mode Mode) []string {
	t.Helper()
	p := syntax.NewParser()
	defer p.Close()
	x := &extractor{mode: mode, parser: p, src: base}
	keys, fail, err := x.patchNodes(patch)
	if err != nil {
		t.Fatal(err)
	}
	if fail != "" {
		t.Fatalf("patch failed: %s\n%s", fail, patch)
	}
	return keys
}

// Expected keys below were worked out by hand from the fixtures' line
// numbers and the rules in nodes.go (innermost counted node of every
// changed line; ancestors that are counted nodes, "pair" in Compatible).

const pyBefore = `import os

X = 1

class Outer:
    class Inner:
        def m(self):
            return 1

    def __init__(self):
        self.a = 1

@decorator
def decorated():
    return 2

class A:
    class A:
        def f(self):
            return 0
`

const pyAfter = `import os

X = 2

class Outer:
    class Inner:
        def m(self):
            return 3

    def __init__(self):
        self.a = 4

@decorator(1)
def decorated():
    return 5

class A:
    class A:
        def f(self):
            return 6
`

func TestNodesPython(t *testing.T) {
	t.Parallel()
	base := MemSource{"pkg/f.py": pyBefore, "gone.py": "class C:\n    pass\n"}
	patch := mkPatch(
		modify("pkg/f.py", pyBefore, pyAfter),
		change{oldPath: "new.py", newPath: "new.py", after: "def g():\n    return 1\n", isNew: true},
		change{oldPath: "gone.py", newPath: "gone.py", before: "class C:\n    pass\n", isDel: true},
	)
	compat := []string{
		// line 20: the walk up stops at the repeated "class_definition:A",
		// losing the outer class and the root.
		"pkg/f.py->class_definition:A->function_definition:f",
		// line 8 (removed and added)
		"pkg/f.py->module->class_definition:Outer->class_definition:Inner->function_definition:m",
		// line 11: constructor
		"pkg/f.py->module->class_definition:Outer->function_definition:__init__",
		// line 15; the decorator line 13 is outside function_definition
		"pkg/f.py->module->function_definition:decorated",
	}
	extended := []string{
		"gone.py->module->class_definition:C",
		"new.py->module->function_definition:g",
		"pkg/f.py->module->class_definition:A->class_definition:A->function_definition:f",
		"pkg/f.py->module->class_definition:Outer->class_definition:Inner->function_definition:m",
		"pkg/f.py->module->class_definition:Outer->function_definition:__init__",
		"pkg/f.py->module->function_definition:decorated",
	}
	checkKeys(t, base, patch, compat, extended)

	// Only the decorator changes: nothing in Compatible mode, the decorated
	// function in Extended.
	only := strings.Replace(pyBefore, "@decorator\n", "@decorator(2)\n", 1)
	p2 := mkPatch(modify("pkg/f.py", pyBefore, only))
	checkKeys(t, base, p2, nil, []string{"pkg/f.py->module->function_definition:decorated"})
}

// PolyBench's own node test has this shape: the reference removes a
// module-level line and a line of a thrice-nested function and adds a line
// to a class body; the prediction removes the same nested line and appends
// two functions, the last line without a final newline. Recall 1/2,
// precision 1/3. Source: SWE-PolyBench test/metrics/test_patch_metrics.py
// test_node_recall (file written anew here).
func TestNodesPolyBenchShape(t *testing.T) {
	t.Parallel()
	before := "# header\nmodule_var = 0\n\n\ndef outer():\n    a = 1\n\n    def middle():\n        b = 2\n\n        def inner():\n            c = 3\n            d = 4\n\n\nclass Holder:\n    e = 5\n\n    def method(self):\n        f = 6\n"
	refAfter := "# header\n\n\ndef outer():\n    a = 1\n\n    def middle():\n        b = 2\n\n        def inner():\n            d = 4\n\n\nclass Holder:\n    e = 5\n    g = 7\n\n    def method(self):\n        f = 6\n"
	base := MemSource{"m.py": before}
	ref := mkPatch(modify("m.py", before, refAfter))
	// The prediction's last added line has no final newline.
	pred := "diff --git a/m.py b/m.py\nindex 1111111..2222222 100644\n--- a/m.py\n+++ b/m.py\n" +
		"@@ -11,3 +11,2 @@\n         def inner():\n-            c = 3\n             d = 4\n" +
		"@@ -18,3 +17,9 @@\n \n     def method(self):\n         f = 6\n+\n+def added_one():\n+    pass\n+\n+def added_two():\n+    pass\n\\ No newline at end of file\n"
	refKeys := nodesOf(t, base, ref, Compatible)
	predKeys := nodesOf(t, base, pred, Compatible)
	wantRef := []string{
		"m.py->module->class_definition:Holder",
		"m.py->module->function_definition:outer->function_definition:middle->function_definition:inner",
	}
	if d := cmp.Diff(wantRef, refKeys); d != "" {
		t.Errorf("reference keys (-want +got):\n%s", d)
	}
	wantPred := []string{
		"m.py->module->function_definition:added_one",
		"m.py->module->function_definition:added_two", // from its "def" line; the last line is dropped
		"m.py->module->function_definition:outer->function_definition:middle->function_definition:inner",
	}
	if d := cmp.Diff(wantPred, predKeys); d != "" {
		t.Errorf("predicted keys (-want +got):\n%s", d)
	}
	s := Score(refKeys, predKeys)
	if s.Recall != 0.5 || s.Precision != 1.0/3 {
		t.Errorf("got recall %v precision %v, want 0.5 and 1/3", s.Recall, s.Precision)
	}
}

func TestNodesLastLineWithoutNewline(t *testing.T) {
	t.Parallel()
	base := MemSource{"z.py": "def f():\n    return 1"}
	patch := "--- a/z.py\n+++ b/z.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n\\ No newline at end of file\n+    return 2\n\\ No newline at end of file\n"
	checkKeys(t, base, patch, nil, []string{"z.py->module->function_definition:f"})
}

const javaBefore = `package p;

public class Box<T> {
    private T value;

    public Box(T value) {
        this.value = value;
    }

    public String name() {
        return "box";
    }

    public <K> List<K> keys(Map<K, T> m) {
        return new ArrayList<>(m.keySet());
    }

    static class Inner {
        int size() {
            return 0;
        }
    }
}

interface Shape {
    default double area() {
        return 0;
    }
}
`

func TestNodesJava(t *testing.T) {
	t.Parallel()
	after := strings.NewReplacer(
		"private T value;", "private T value = null;",
		"this.value = value;", "this.value = java.util.Objects.requireNonNull(value);",
		`return "box";`, `return "crate";`,
		"return new ArrayList<>(m.keySet());", "return new LinkedList<>(m.keySet());",
		"return 0;\n        }", "return 1;\n        }",
		"return 0;\n    }\n}", "return 2;\n    }\n}",
		"package p;", "package q;",
	).Replace(javaBefore)
	base := MemSource{"src/Box.java": javaBefore}
	patch := mkPatch(modify("src/Box.java", javaBefore, after))
	compat := []string{
		"src/Box.java->program->class_declaration:Box",                                                   // line 4: field
		"src/Box.java->program->class_declaration:Box->class_declaration:Inner->method_declaration:size", // line 20
		"src/Box.java->program->class_declaration:Box->constructor_declaration:Box",                      // line 7
		"src/Box.java->program->class_declaration:Box->method_declaration:String_name",                   // line 11: return type joins the name
		"src/Box.java->program->class_declaration:Box->method_declaration:keys",                          // line 15: generic return type does not
		"src/Box.java->program->method_declaration:area",                                                 // line 27: interface not counted
	}
	extended := []string{
		"src/Box.java->program->class_declaration:Box",
		"src/Box.java->program->class_declaration:Box->class_declaration:Inner->method_declaration:size",
		"src/Box.java->program->class_declaration:Box->constructor_declaration:Box",
		"src/Box.java->program->class_declaration:Box->method_declaration:String_name",
		"src/Box.java->program->class_declaration:Box->method_declaration:keys",
		"src/Box.java->program->interface_declaration:Shape->method_declaration:area",
	}
	checkKeys(t, base, patch, compat, extended)
}

const jsBefore = `const api = {
  get(id) {
    return id;
  },
  put: function (id) {
    return id + 1;
  },
  del: (id) => id,
};

class Store {
  constructor() {
    this.items = [];
  }
  add(x) {
    this.items.push(x);
  }
}

function helper() {
  return 1;
}
module.exports = {
  handlers: {
    run() {
      return 1;
    },
  },
  'x-y': {
    go() {
      return 2;
    },
  },
};
`

func TestNodesJavaScript(t *testing.T) {
	t.Parallel()
	after := strings.NewReplacer(
		"return id;", "return String(id);",
		"return id + 1;", "return id + 2;",
		"del: (id) => id,", "del: (id) => -id,",
		"this.items = [];", "this.items = new Array();",
		"this.items.push(x);", "this.items.unshift(x);",
		"return 1;\n}", "return 3;\n}",
		"      return 1;", "      return 4;",
		"      return 2;", "      return 5;",
	).Replace(jsBefore)
	base := MemSource{"lib/store.js": jsBefore}
	patch := mkPatch(modify("lib/store.js", jsBefore, after))
	compat := []string{
		// line 6 sits in "put: function": the pair hides it.
		"lib/store.js->program->class_declaration:Store->method_definition:add",
		"lib/store.js->program->class_declaration:Store->method_definition:constructor",
		"lib/store.js->program->function_declaration:helper",
		"lib/store.js->program->method_definition:get",
		"lib/store.js->program->pair:[]->method_definition:go",
		"lib/store.js->program->pair:handlers->method_definition:run",
	}
	extended := []string{
		"lib/store.js->program->arrow_function:del",
		"lib/store.js->program->class_declaration:Store->method_definition:add",
		"lib/store.js->program->class_declaration:Store->method_definition:constructor",
		"lib/store.js->program->function_declaration:helper",
		"lib/store.js->program->function_expression:put",
		"lib/store.js->program->method_definition:get",
		"lib/store.js->program->method_definition:go",
		"lib/store.js->program->method_definition:run",
	}
	checkKeys(t, base, patch, compat, extended)
}

const tsBefore = `export interface Shape {
  area(): number;
}

export class Circle implements Shape {
  constructor(private r: number) {}

  area(): number {
    return Math.PI * this.r ** 2;
  }
}

export abstract class Base {
  abstract name(): string;
  describe(): string {
    return this.name();
  }
}

export function make<T>(x: T): T {
  return x;
}

export const twice = (n: number) => n * 2;
`

func TestNodesTypeScript(t *testing.T) {
	t.Parallel()
	after := strings.NewReplacer(
		"area(): number;", "area(): bigint;",
		"constructor(private r: number) {}", "constructor(private readonly r: number) {}",
		"return Math.PI * this.r ** 2;", "return Math.PI * this.r * this.r;",
		"return this.name();", "return `base ${this.name()}`;",
		"return x;", "return structuredClone(x);",
		"n * 2;", "n + n;",
	).Replace(tsBefore)
	base := MemSource{"src/shapes.ts": tsBefore}
	patch := mkPatch(modify("src/shapes.ts", tsBefore, after))
	compat := []string{
		"src/shapes.ts->program->class_declaration:Circle->method_definition:area",
		"src/shapes.ts->program->class_declaration:Circle->method_definition:constructor",
		"src/shapes.ts->program->function_declaration:make",
		"src/shapes.ts->program->method_definition:describe", // abstract class not counted
	}
	extended := []string{
		"src/shapes.ts->program->abstract_class_declaration:Base->method_definition:describe",
		"src/shapes.ts->program->arrow_function:twice",
		"src/shapes.ts->program->class_declaration:Circle->method_definition:area",
		"src/shapes.ts->program->class_declaration:Circle->method_definition:constructor",
		"src/shapes.ts->program->function_declaration:make",
		"src/shapes.ts->program->interface_declaration:Shape",
	}
	checkKeys(t, base, patch, compat, extended)

	// The same file as .tsx counts only in Extended mode, keyed by its path.
	tsx := MemSource{"src/shapes.tsx": tsBefore}
	p2 := mkPatch(modify("src/shapes.tsx", tsBefore, after))
	var wantTSX []string
	for _, k := range extended {
		wantTSX = append(wantTSX, strings.Replace(k, "shapes.ts", "shapes.tsx", 1))
	}
	checkKeys(t, tsx, p2, nil, wantTSX)
}

func TestNodesRename(t *testing.T) {
	t.Parallel()
	before := "def a():\n    return 1\n"
	after := "def a():\n    return 2\n"
	base := MemSource{"old.py": before}
	patch := mkPatch(change{oldPath: "old.py", newPath: "new.py", before: before, after: after})
	// Compatible: renamed files contribute nothing; Extended keys them by
	// their old path, like the file level.
	checkKeys(t, base, patch, nil, []string{"old.py->module->function_definition:a"})
}

func checkKeys(t *testing.T, base MemSource, patch string, compat, extended []string) {
	t.Helper()
	for _, c := range []struct {
		mode Mode
		want []string
	}{{Compatible, compat}, {Extended, extended}} {
		got := nodesOf(t, base, patch, c.mode)
		if d := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s keys (-want +got):\n%s", c.mode, d)
		}
	}
}
