package catalog

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// TestDeepChainsBoundedStack scores the deepest trees valid Python makes
// (CPython's ast.parse takes them at any length, while tree-sitter's shape
// nests one level per operator): 100,000-term and/or, comparison and
// chained-assignment expressions, with the goroutine stack limited to
// 4 MB. Every rule must walk them without recursion as deep as the tree
// (a Go stack past the limit kills the test binary: the test then fails
// with "goroutine stack exceeds"), and every file must be scored.
func TestDeepChainsBoundedStack(t *testing.T) {
	const n = 100_000
	terms := strings.Repeat("a and ", n-1) + "a"
	srcs := map[string]string{
		"and.py":     "x = " + terms + "\n",
		"or.py":      "x = " + strings.ReplaceAll(terms, "and", "or") + "\n",
		"assign.py":  strings.Repeat("a = ", n) + "1\n",
		"compare.py": "x = " + strings.ReplaceAll(terms, "and", "<") + "\n",
		"in-def.py": "def f():\n    for i in x:\n        if " + terms + ":\n            y = " +
			strings.ReplaceAll(terms, "and", "or") + "\n",
	}
	e := newEngine(t)
	p := syntax.NewParser()
	defer p.Close()
	old := debug.SetMaxStack(4 << 20)
	defer debug.SetMaxStack(old)
	for name, src := range srcs {
		fs := e.Score(p, name, []byte(src))
		if fs.Status != nfi.StatusOK {
			t.Errorf("%s: status %s (%v), want ok", name, fs.Status, fs.Error)
		}
	}
}
