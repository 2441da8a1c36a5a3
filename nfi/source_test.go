package nfi

import (
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/syntax"
)

// TestSourceGlobs: the git pathspecs of git comparisons match exactly the
// names a directory walk scores (IsSource), and SourceLanguage sends each
// to its grammar.
func TestSourceGlobs(t *testing.T) {
	names := []string{"a.py", "a.pyi", "a.js", "a.jsx", "a.cjs", "a.mjs", "a.ts", "a.mts", "a.cts", "a.tsx",
		"a.d.ts", "a.java", "a.txt", "a.json", "Makefile", "a.py.bak", "a.JS"}
	for _, n := range names {
		globbed := false
		for _, g := range SourceGlobs {
			if ok, _ := filepath.Match(g, n); ok {
				globbed = true
			}
		}
		if globbed != IsSource(n) {
			t.Errorf("%s: in SourceGlobs %v, IsSource %v", n, globbed, IsSource(n))
		}
	}
	for n, want := range map[string]Language{"a.py": syntax.Python, "a.txt": syntax.Python, "a.mjs": syntax.JavaScript,
		"a.cts": syntax.TypeScript, "a.tsx": syntax.TSX, "a.java": syntax.Java} {
		if got := SourceLanguage(n); got != want {
			t.Errorf("SourceLanguage(%s) = %v, want %v", n, got, want)
		}
	}
}
