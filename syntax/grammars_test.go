package syntax

import (
	"debug/elf"
	"os"
	"testing"
)

// TestRuntimeIsV025: the ts_parser_set_language linked is go-tree-sitter
// v0.25's (it takes a language of ABI 15), not smacker's copy of the
// runtime, which refuses it; and a v0.25-only entry point parses.
func TestRuntimeIsV025(t *testing.T) {
	if !runtimeAcceptsABI15() {
		t.Fatal("the linked ts_parser_set_language refuses ABI 15: smacker's runtime (0.22) won the link, not go-tree-sitter v0.25's")
	}
	p := NewParser()
	defer p.Close()
	// ParseUntilError goes through ts_parser_parse_with_options (v0.25 only).
	for _, l := range []Language{Go, Python} {
		tr, err := p.ParseUntilError(l, []byte("x = 1\n"))
		if err != nil {
			t.Fatalf("%v: %v", l, err)
		}
		_ = tr
	}
}

// TestRuntimeLinkOrder: in the test binary the linker met go-tree-sitter
// v0.25's runtime (one object, tree_sitter.cgo2.c, holding lib.c) before
// smacker's runtime objects (subtree.c is one of them; v0.25 has no object
// of that name). With --allow-multiple-definition the first definition
// wins, and a package's objects reach the linker together, so every
// duplicated ts_* symbol is v0.25's. The symbol table lists each object's
// local symbols after its FILE symbol, in link order.
func TestRuntimeLinkOrder(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Skipf("no symbol table (stripped binary): %v", err)
	}
	v025, smacker := -1, -1
	globals := map[string]uint64{}
	for i, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FILE {
			switch s.Name {
			case "tree_sitter.cgo2.c":
				if v025 < 0 {
					v025 = i
				}
			case "subtree.c":
				if smacker < 0 {
					smacker = i
				}
			}
		}
		if elf.ST_BIND(s.Info) == elf.STB_GLOBAL && s.Section != elf.SHN_UNDEF {
			globals[s.Name] = s.Value
		}
	}
	if v025 < 0 || smacker < 0 {
		t.Fatalf("FILE symbols: tree_sitter.cgo2.c at %d, subtree.c at %d: both runtimes should be linked", v025, smacker)
	}
	if v025 > smacker {
		t.Fatalf("smacker's runtime (subtree.c, symbol %d) was linked before v0.25's (tree_sitter.cgo2.c, symbol %d): its ts_* definitions win", smacker, v025)
	}
	// smacker-only runtime functions are present (so the runtime is
	// there to clash with), and v0.25-only ones are defined.
	for _, name := range []string{"ts_subtree_balance", "ts_parser_parse_with_options", "ts_language_abi_version", "ts_parser_set_language"} {
		if _, ok := globals[name]; !ok {
			t.Errorf("%s is not defined in the binary", name)
		}
	}
}

// TestNewGrammars: each grammar from smacker's module parses a valid file
// of its language without error into its root type, and GrammarForPath
// picks it; LanguageForPath (the scored languages) does not.
func TestNewGrammars(t *testing.T) {
	cases := []struct {
		lang Language
		path string
		root string
		src  string
	}{
		{Go, "a/b.go", "source_file", "package p\n\ntype T struct{ x int }\n\nfunc (t *T) M() int { return t.x }\n"},
		{Rust, "src/lib.rs", "source_file", "pub struct S { x: i32 }\nimpl S { pub fn get(&self) -> i32 { self.x } }\n"},
		{CLang, "src/a.c", "translation_unit", "#include <stdio.h>\nstruct s { int x; };\nint main(void) { return 0; }\n"},
		{CLang, "include/a.h", "translation_unit", "int f(int);\n"},
		{CPP, "src/a.cpp", "translation_unit", "namespace n { class C { public: int f() const { return 1; } }; }\n"},
		{CPP, "a.hpp", "translation_unit", "template <typename T> T id(T x) { return x; }\n"},
		{PHP, "src/A.php", "program", "<?php\nclass A { public function f(): int { return 1; } }\n"},
		{Ruby, "lib/a.rb", "program", "module M\n  class C\n    def f; 1; end\n  end\nend\n"},
	}
	p := NewParser()
	defer p.Close()
	for _, c := range cases {
		if l, ok := GrammarForPath(c.path); !ok || l != c.lang {
			t.Errorf("GrammarForPath(%s) = %v, %v; want %v", c.path, l, ok, c.lang)
		}
		if l, ok := LanguageForPath(c.path); ok {
			t.Errorf("LanguageForPath(%s) = %v: only the scored languages", c.path, l)
		}
		tr, err := p.Parse(c.lang, []byte(c.src))
		if err != nil {
			t.Fatalf("%v: %v", c.lang, err)
		}
		if tr.HasError() {
			id, _ := tr.FirstError()
			t.Errorf("%v: syntax error at line %d in %q", c.lang, tr.Line(id), c.src)
		}
		if k := tr.Nodes[0].Kind(); k != c.root {
			t.Errorf("%v: root %q, want %q", c.lang, k, c.root)
		}
		if c.lang.String() == "" || len(KindNames(c.lang)) < 50 {
			t.Errorf("%v: %d kind names", c.lang, len(KindNames(c.lang)))
		}
		tr.Release()
	}
}
