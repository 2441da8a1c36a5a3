package pyparse_test

import (
	"os"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/syntax/pyparse"
)

// benchFiles reads an even 200-file spread of the standard library.
func benchFiles(b *testing.B) ([][]byte, int64) {
	var srcs [][]byte
	var total int64
	for _, f := range corpus.StdlibSample(b, 200) {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	return srcs, total
}

// BenchmarkParse compares, on the same files in the same run, pyparse
// (tokenize, parse, flattened tree with positions and comments) with
// tree-sitter parsing alone and tree-sitter parsing plus the flattened
// syntax.Tree the rules walk today. MB/s is source bytes per second.
func BenchmarkParse(b *testing.B) {
	srcs, total := benchFiles(b)
	b.Run("pyparse", func(b *testing.B) {
		b.SetBytes(total)
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				pyparse.Parse(src, pyparse.Options{})
			}
		}
	})
	b.Run("tree-sitter-raw", func(b *testing.B) {
		p := syntax.NewParser()
		defer p.Close()
		b.SetBytes(total)
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				if _, err := p.ParseRaw(syntax.Python, src); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("tree-sitter-tree", func(b *testing.B) {
		p := syntax.NewParser()
		defer p.Close()
		b.SetBytes(total)
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				t, err := p.Parse(syntax.Python, src)
				if err != nil {
					b.Fatal(err)
				}
				t.Release()
			}
		}
	})
}
