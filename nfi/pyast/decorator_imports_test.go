package pyast

import (
	"testing"

	"github.com/polynfi/polynfi/syntax"
)

// TestDecoratorResolution checks the qualified names decorators resolve to
// through decoratorImports' table, for every import form: aliases,
// from-imports, relative imports, module-level definitions (which shadow
// builtins) and names nothing binds (builtins).
func TestDecoratorResolution(t *testing.T) {
	src := "import a.b, c as d, e\nfrom f.g import h, i as j\nfrom .l import m as n\n" +
		"import typing as t\nfrom typing import overload\n" +
		"class C:\n    @t.overload\n    @overload\n    @property\n    @d.x\n    @j\n    def f(self): pass\n" +
		"@C\n@e.f.g\n@a.b.c\ndef g(): pass\n"
	tree, err := syntax.ParseOnce(syntax.Python, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	imp := (&Module{Tree: tree, Path: "x.py"}).decoratorImports()
	for name, want := range map[string]string{
		"t.overload": "typing.overload",
		"overload":   "typing.overload",
		"property":   "builtins.property",
		"d.x":        "c.x",
		"j":          "f.g.i",
		"h":          "f.g.h",
		"n":          ".l.m",
		"C":          "C", // a module-level class, not a builtin
		"e.f.g":      "e.f.g",
		"a.b.c":      "a.b.c", // import a.b binds a
		"nothing.x":  "builtins.nothing.x",
		"":           "",
	} {
		if got := resolveDotted(name, imp); got != want {
			t.Errorf("resolveDotted(%q) = %q, want %q", name, got, want)
		}
	}
}
