package syntax

// The grammars of Go, Rust, C, C++, PHP and Ruby come from
// github.com/smacker/go-tree-sitter's subpackages: the official
// github.com/tree-sitter/tree-sitter-{go,rust,c,cpp,php,ruby} Go modules are
// not served by the module proxy polynfi builds with. Those subpackages
// compile the grammars' C (parser tables and external scanners, language
// ABI 14, which the go-tree-sitter v0.25 runtime accepts: ABI 13 to 15),
// and each imports smacker's root package, which compiles smacker's own
// copy of the tree-sitter runtime (0.22): every ts_* function and the
// allocator variables (ts_current_malloc, ...) are then defined twice in
// the binary, once by github.com/tree-sitter/go-tree-sitter v0.25.0 and
// once by smacker.
//
// The LDFLAGS below let the link succeed (-Wl,--allow-multiple-definition:
// the linker keeps the first definition of a symbol and drops the later
// ones). The first is v0.25's: Go's linker hands cgo objects to the
// external linker in the order it loads packages, breadth first from
// main, and syntax imports github.com/tree-sitter/go-tree-sitter directly
// whereas it reaches smacker's root package only through the grammar
// packages, one import further. syntax never calls smacker's Go API (it
// takes the TSLanguage* from each grammar's C function,
// tree_sitter_<lang>, declared below) so smacker's runtime is dead code;
// the grammars' own C calls no ts_* runtime function. The two runtimes
// both define 243 ts_* symbols and _ts_dup; nothing else clashes (nm of
// the packages' objects). The order holds only while nothing but syntax
// imports smacker's module (internal/archtest checks it): a package that
// imported smacker's root package nearer to main would put smacker's
// runtime first, and then v0.25's code would call smacker's functions on
// v0.25's structures (tried: a main importing it refuses ABI 15).
//
// Cost (measured 2026-12-03, `go build ./cmd/polynfi` with an empty
// GOCACHE, on a loaded 2-core machine): 264 s → 311 s of CPU (+47 s,
// +18%), binary 79.9 MB → 88.4 MB. The six grammars' objects are 7.9 MB
// (C++ 3.2 MB, Ruby 2.1, Rust 1.0, PHP 0.8, C 0.6, Go 0.2; smacker's dead
// runtime 0.2); gcc -O2 -g compiles their C in 11 s of CPU (C++ 2.9 s,
// Ruby 2.7, PHP 2.4, Rust 1.9, Go 0.7, C 0.7).
// A package's cgo objects reach the linker together, so once v0.25's
// objects come first every one of those symbols is v0.25's:
// TestRuntimeIsV025 calls ts_parser_set_language, whose behaviour differs
// between the two (runtimeAcceptsABI15), and TestRuntimeLinkOrder reads the
// test binary's symbol table, in which each object's local symbols follow
// its FILE symbol in link order. Nothing of the grammars' C
// is copied into polynfi.

/*
#cgo LDFLAGS: -Wl,--allow-multiple-definition
extern const void *tree_sitter_go(void);
extern const void *tree_sitter_rust(void);
extern const void *tree_sitter_c(void);
extern const void *tree_sitter_cpp(void);
extern const void *tree_sitter_php(void);
extern const void *tree_sitter_ruby(void);

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
extern void *ts_parser_new(void);
extern void ts_parser_delete(void *self);
extern bool ts_parser_set_language(void *self, const void *language);

// pn_accepts_abi15 asks the linked ts_parser_set_language to take a language
// of ABI 15 (a zeroed TSLanguage whose first field, abi_version, is 15):
// v0.25's accepts ABI 13 to 15, smacker's copy (0.22) 13 and 14 only. It
// tells which runtime's parser.c the linker kept.
static bool pn_accepts_abi15(void) {
	uint32_t *lang = calloc(1, 4096);
	if (!lang) return false;
	lang[0] = 15;
	void *p = ts_parser_new();
	bool ok = ts_parser_set_language(p, lang);
	ts_parser_delete(p);
	free(lang);
	return ok;
}
*/
import "C"

import (
	"unsafe"

	_ "github.com/smacker/go-tree-sitter/c"      // tree_sitter_c
	_ "github.com/smacker/go-tree-sitter/cpp"    // tree_sitter_cpp
	_ "github.com/smacker/go-tree-sitter/golang" // tree_sitter_go
	_ "github.com/smacker/go-tree-sitter/php"    // tree_sitter_php
	_ "github.com/smacker/go-tree-sitter/ruby"   // tree_sitter_ruby
	_ "github.com/smacker/go-tree-sitter/rust"   // tree_sitter_rust
)

// runtimeAcceptsABI15 reports whether the linked tree-sitter runtime
// accepts grammars of language ABI 15, as v0.25 does and smacker's copy
// does not (see pn_accepts_abi15).
func runtimeAcceptsABI15() bool { return bool(C.pn_accepts_abi15()) }

// extraGrammars returns the TSLanguage* of the grammars from smacker's
// module (static C data, never freed).
func extraGrammars() map[Language]unsafe.Pointer {
	return map[Language]unsafe.Pointer{
		Go:    unsafe.Pointer(C.tree_sitter_go()),
		Rust:  unsafe.Pointer(C.tree_sitter_rust()),
		CLang: unsafe.Pointer(C.tree_sitter_c()),
		CPP:   unsafe.Pointer(C.tree_sitter_cpp()),
		PHP:   unsafe.Pointer(C.tree_sitter_php()),
		Ruby:  unsafe.Pointer(C.tree_sitter_ruby()),
	}
}
