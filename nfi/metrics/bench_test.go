package metrics

import (
	"os"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/syntax"
)

func benchTrees(b *testing.B) ([]*syntax.Tree, int64) {
	b.Helper()
	var trees []*syntax.Tree
	var size int64
	p := syntax.NewParser()
	defer p.Close()
	for _, f := range corpus.StdlibSample(b, 100) {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		t, err := p.Parse(syntax.Python, src)
		if err != nil || t.HasError() {
			continue
		}
		trees = append(trees, t)
		size += int64(len(src))
	}
	return trees, size
}

// BenchmarkAnalyze measures every metric (CC, raw, Halstead, MI) over 100
// standard-library files, already parsed; compare with BenchmarkParse.
func BenchmarkAnalyze(b *testing.B) {
	trees, size := benchTrees(b)
	b.SetBytes(size)
	for b.Loop() {
		for _, t := range trees {
			Analyze(t) // a raw-metrics error (as radon's) still yields the other measures
		}
	}
}

// BenchmarkParse is the tree-sitter parsing baseline for the same files.
func BenchmarkParse(b *testing.B) {
	trees, size := benchTrees(b)
	p := syntax.NewParser()
	defer p.Close()
	b.SetBytes(size)
	for b.Loop() {
		for _, t := range trees {
			if _, err := p.Parse(syntax.Python, t.Source); err != nil {
				b.Fatal(err)
			}
		}
	}
}
