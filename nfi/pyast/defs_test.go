package pyast

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/polynfi/polynfi/syntax"
)

func parseModule(t *testing.T, path, src string) *Module {
	t.Helper()
	tree, err := syntax.ParseOnce(syntax.Python, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if tree.HasError() {
		t.Fatalf("%s does not parse", path)
	}
	return NewModule(path, tree)
}

// defSummary renders each definition as "kind name public|private".
func defSummary(d *Defs) []string {
	var out []string
	for _, def := range d.List {
		vis := "private"
		if def.Public {
			vis = "public"
		}
		out = append(out, def.Kind.String()+" "+def.Name+" "+vis)
	}
	return out
}

func TestDefinitionsVisibility(t *testing.T) {
	src := `"""Module."""
import typing
from typing import overload as ov


class Public:
    def method(self): pass
    def _private(self): pass
    def __dunder__(self): pass
    @property
    def value(self): pass
    @value.setter
    def value(self, v): pass
    @value.deleter
    def value(self): pass
    @other.setter
    def value2(self, v): pass

    class Inner:
        def m(self): pass

    class _Hidden:
        def m(self): pass

    if True:
        def in_if(self): pass


class _Private:
    def method(self): pass


def func():
    def nested(): pass

    class Local:
        def m(self): pass


def _helper(): pass


if typing.TYPE_CHECKING:
    def guarded(): pass
try:
    class InTry: pass
except ImportError:
    pass
`
	m := parseModule(t, "pkg_mod.py", src)
	got := defSummary(m.Definitions())
	want := []string{
		"module pkg_mod public",
		"class Public public",
		"method method public",
		"method _private private",
		"method __dunder__ public",
		"method value public",
		"method value private",
		"method value private",
		"method value2 public",
		"nested class Inner public",
		"method m public",
		"nested class _Hidden private",
		"method m private",
		"method in_if public",
		"class _Private private",
		"method method private",
		"function func public",
		"nested function nested private",
		"nested class Local private",
		"method m private",
		"function _helper private",
		"function guarded public",
		"class InTry public",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("definitions (-want +got):\n%s", diff)
	}
}

func TestDefinitionsDunderAll(t *testing.T) {
	for _, tc := range []struct {
		name, all string
		want      []string // public top-level names
	}{
		{"list", `__all__ = ["a", "C"]`, []string{"a", "C"}},
		{"tuple plus", `__all__ = ("a",) + ("b",)`, []string{"a", "b"}},
		{"augmented", "__all__ = ['a']\n__all__ += ['b']", []string{"a", "b"}},
		{"extend adds nothing", "__all__ = ['a']\n__all__.extend(['C'])", []string{"a"}},
		{"append adds nothing", "__all__ = ['a']\n__all__.append('b')", []string{"a"}},
		{"list call", `__all__ = list(["b"])`, []string{"b"}},
		{"annotated", `__all__: list[str] = ["b"]`, []string{"b"}},
		{"bare tuple", `__all__ = "a", "C"`, []string{"a", "C"}},
		{"concatenation with unknown part", `__all__ = ["a"] + m.__all__`, []string{"a"}},
		{"unrecognized declares no names", `__all__ = compute()`, nil},
		{"comprehension declares no names", `__all__ = [n for n in dir()]`, nil},
		{"none", ``, []string{"a", "b", "C"}},
		{"in if", "if True:\n    __all__ = ['a']", []string{"a"}},
		{"in def is ignored", "def f():\n    __all__ = ['a']", []string{"f", "a", "b", "C"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.all + "\n\ndef a(): pass\ndef b(): pass\nclass C: pass\n"
			defs := parseModule(t, "m.py", src).Definitions()
			var got []string
			for _, d := range defs.List {
				if (d.Kind == FunctionDef || d.Kind == ClassDef) && d.Public {
					got = append(got, d.Name)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("public names (-want +got):\n%s", diff)
			}
		})
	}
}

func TestModulePrivate(t *testing.T) {
	dir := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk("_notpkg/pkg/__init__.py")
	mk("_priv/__init__.py")
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"mod.py", false},
		{"_mod.py", true},
		{"__init__.py", false},
		{"__main__.py", false},
		{"_.py", true},
		{"src/_internal/mod.py", true},    // not on disk: every component counts
		{"src/__about__/mod.py", false},   // dunder directory
		{mk("_notpkg/pkg/mod.py"), false}, // _notpkg is no package
		{mk("_priv/mod.py"), true},        // _priv is a package
		{mk("_priv/__init__.py"), true},
		{mk("_notpkg/_x.py"), true},
	} {
		if got := ModulePrivate(tc.path); got != tc.want {
			t.Errorf("ModulePrivate(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestDecoratorFacts(t *testing.T) {
	src := `import typing as t
import abc
from typing_extensions import override
import functools


class C:
    @t.overload
    def a(self): ...
    @override
    def b(self): ...
    @staticmethod
    def c(): ...
    @classmethod
    def d(cls): ...
    @abc.abstractclassmethod
    def e(cls): ...
    @functools.cached_property
    def f(self): ...
    @overload
    def g(self): ...
`
	defs := parseModule(t, "m.py", src).Definitions()
	var got []string
	for _, d := range defs.List[2:] {
		var facts []string
		for _, f := range []struct {
			on   bool
			name string
		}{{d.Overload, "overload"}, {d.Override, "override"}, {d.StaticMethod, "static"},
			{d.ClassMethod, "classmethod"}, {d.Property, "property"}} {
			if f.on {
				facts = append(facts, f.name)
			}
		}
		got = append(got, d.Name+":"+strings.Join(facts, ","))
	}
	// g's bare @overload is not imported, so it is not typing.overload.
	want := []string{"a:overload", "b:override", "c:static", "d:classmethod", "e:classmethod", "f:property", "g:"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decorator facts (-want +got):\n%s", diff)
	}
	if q := defs.List[2].Decorators[0].Qualified; q != "typing.overload" {
		t.Errorf("qualified name of @t.overload = %q, want typing.overload", q)
	}
}

func TestLookupAndEnclosing(t *testing.T) {
	src := "@dec\ndef f():\n    x = 1\n\nclass C:\n    def m(self):\n        return 2\n"
	m := parseModule(t, "m.py", src)
	defs := m.Definitions()
	for _, d := range defs.List[1:] {
		got, ok := defs.Lookup(d.Node)
		if !ok || got.Node != d.Node {
			t.Errorf("Lookup(%d) of %s failed", d.Node, d.Name)
		}
		if got, ok := defs.Lookup(d.Outer); !ok || got.Node != d.Node {
			t.Errorf("Lookup(outer %d) of %s failed", d.Outer, d.Name)
		}
	}
	tree := m.Tree
	var ret syntax.NodeID = syntax.NoNode
	for i := range tree.Nodes {
		if tree.Nodes[i].Kind() == "return_statement" {
			ret = syntax.NodeID(i)
		}
	}
	if e := defs.Enclosing(tree, ret); e.Name != "m" {
		t.Errorf("Enclosing(return) = %s, want m", e.Name)
	}
	if e := defs.Enclosing(tree, 0); e.Kind != ModuleDef {
		t.Errorf("Enclosing(root) = %s, want the module", e.Name)
	}
}
