package mine

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
)

// TestMineJavaScriptTypeScriptJava mines a fixture history of a
// JavaScript, TypeScript and Java project with the default catalog: a
// change replacing == by === (LOG) is positive, one typing a parameter
// `any` a regression, one breaking a TypeScript file a scorer_error, a
// JavaScript refactoring that keeps every verdict no_change; the Java
// change is a pair of its own, classified by the catalog's Java rules
// when it has some (no_change, every I_p n/a, when it has none), and a
// change to a Markdown file only is dropped for having no source change.
func TestMineJavaScriptTypeScriptJava(t *testing.T) {
	cat, err := catalog.Get(catalog.Default)
	if err != nil {
		t.Fatal(err)
	}
	const (
		jsLoose = "export function same(a, b) {\n  return a == b;\n}\n"
		jsExact = "export function same(a, b) {\n  return a === b;\n}\n"
		jsMoved = "export function same(left, right) {\n  return left === right;\n}\n"
		tsTyped = "export function size(xs: string[]): number {\n  return xs.length;\n}\n"
		tsAny   = "export function size(xs: any): number {\n  return xs.length;\n}\n"
		tsBad   = "export function size(xs: any): number {\n  return xs.length;\n"
		javaA   = "class Io {\n  String read(java.io.Reader r) {\n    try {\n      return \"\" + (char) r.read();\n    } catch (Exception e) {\n    }\n    return null;\n  }\n}\n"
		javaB   = "class Io {\n  String read(java.io.Reader r) throws java.io.IOException {\n    return \"\" + (char) r.read();\n  }\n}\n"
	)
	h := newHistory(t)
	h.commit("init", "Alice", "Initial import", map[string]string{
		"src/same.js": jsLoose, "src/size.ts": tsTyped, "src/Io.java": javaA, "README.md": "# demo\n",
	})
	h.pr("strict", 1, "Bob", "Alice", "bob/strict", "Use strict equality in same", map[string]string{"src/same.js": jsExact})
	h.commit("any", "Carol", "Loosen size's parameter (#2)", map[string]string{"src/size.ts": tsAny})
	h.commit("java", "Dana", "Let IOException through in Io.read (#3)", map[string]string{"src/Io.java": javaB})
	h.commit("rename", "Bob", "Rename same's parameters (#4)", map[string]string{"src/same.js": jsMoved})
	h.commit("broken", "Carol", "WIP size (#5)", map[string]string{"src/size.ts": tsBad})
	h.commit("docs", "Alice", "Document the project (#6)", map[string]string{"README.md": "# demo\n\nMore.\n"})

	sum, cands := mineHistory(t, h, func(o *Options) { o.Catalog = cat; o.Write = Classes[:] })
	label := map[string]string{}
	for l, sha := range h.commits {
		label[sha] = l
	}
	eng, err := nfi.NewEngine(cat, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	javaClass := NoChange
	if eng.HasRules(nfi.SourceLanguage("Io.java")) {
		javaClass = Positive // an empty catch of Exception removed
	}
	type row struct {
		Label, File string
		Class       Class
	}
	var got []row
	for _, c := range cands {
		got = append(got, row{label[c.Commit], c.File, c.Class})
	}
	want := []row{
		{"strict", "src/same.js", Positive},
		{"any", "src/size.ts", Regression},
		{"java", "src/Io.java", javaClass},
		{"rename", "src/same.js", NoChange},
		{"broken", "src/size.ts", ScorerError},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("candidates (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]int{DropNoPythonChange: 1}, sum.ChangeDrops); d != "" {
		t.Errorf("change drops (-want +got):\n%s", d)
	}
	for _, c := range cands {
		switch label[c.Commit] {
		case "strict":
			if v, ok := c.Improvement.Get(nfi.LogicPatterns); !ok || v <= 0 {
				t.Errorf("strict: I_LOG %v (%v), want > 0", v, ok)
			}
			if len(c.Flipped) != 1 || c.Flipped[0].ID != "JS-LOG-P01" {
				t.Errorf("strict: flipped %+v, want JS-LOG-P01 (eqeqeq)", c.Flipped)
			}
		case "java":
			if javaClass == NoChange {
				for _, a := range nfi.Aspects {
					if _, ok := c.Improvement.Get(a); ok {
						t.Errorf("java: I_%s scored without Java rules", a.Code())
					}
				}
			}
		}
	}
}
