package doc

import (
	"github.com/polynfi/polynfi/internal/citest"
	"os"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

func stdlibSources(tb testing.TB, n int) [][]byte {
	dir := corpus.StdlibDir()
	if dir == "" {
		citest.Missing(tb, "python3 not found: the standard-library corpus benchmark needs it")
	}
	var srcs [][]byte
	for _, f := range corpus.PythonFiles(dir, n, "site-packages") {
		if b, err := os.ReadFile(f); err == nil {
			srcs = append(srcs, b)
		}
	}
	return srcs
}

// TestNoPanicOnStdlib scores a spread of the standard library with every
// DOC rule: the engine recovers panics per file, so a panic would surface as
// an invalid result.
func TestNoPanicOnStdlib(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	e, err := nfi.NewEngine(&nfi.Catalog{Version: "doc", Rules: All}, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	p := syntax.NewParser()
	defer p.Close()
	for i, src := range stdlibSources(t, 300) {
		fs := e.Score(p, "m.py", src)
		if !fs.Valid && fs.Status != nfi.StatusSyntaxError && fs.Status != nfi.StatusEncoding {
			t.Errorf("file %d: status %s: %v", i, fs.Status, fs.Error)
		}
	}
}

// BenchmarkDOCRules compares scoring with the 19 DOC rules against parsing
// alone, on 50 standard-library files.
func BenchmarkDOCRules(b *testing.B) {
	srcs := stdlibSources(b, 50)
	e, err := nfi.NewEngine(&nfi.Catalog{Version: "doc", Rules: All}, nfi.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	p := syntax.NewParser()
	defer p.Close()
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			for _, src := range srcs {
				if _, err := p.Parse(syntax.Python, src); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	var trees []*syntax.Tree
	for _, src := range srcs {
		if t, err := p.Parse(syntax.Python, src); err == nil && !t.HasError() {
			trees = append(trees, t)
		}
	}
	// rules alone, on trees parsed once (the parse sub-benchmark is the
	// baseline: the 92 rules together may cost at most half of it)
	b.Run("rules", func(b *testing.B) {
		for b.Loop() {
			for _, t := range trees {
				e.ScoreTree("m.py", t)
			}
		}
	})
	b.Run("score", func(b *testing.B) {
		for b.Loop() {
			for _, src := range srcs {
				e.Score(p, "m.py", src)
			}
		}
	})
}
