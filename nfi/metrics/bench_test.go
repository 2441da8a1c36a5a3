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

// BenchmarkSummarizer measures a Summarizer shown the nodes of
// SummaryKinds (as LOG-T01 shows them from the engine's dispatch) over 100
// standard-library files, already parsed.
func BenchmarkSummarizer(b *testing.B) {
	trees, size := benchTrees(b)
	kinds := map[string]bool{}
	for _, k := range SummaryKinds() {
		kinds[k] = true
	}
	shown := make([][]syntax.NodeID, len(trees))
	for i, t := range trees {
		for n := range t.Nodes {
			if kinds[t.Nodes[n].Kind()] {
				shown[i] = append(shown[i], syntax.NodeID(n))
			}
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for i, t := range trees {
			s := NewSummarizer(t)
			for _, n := range shown[i] {
				s.Visit(n)
			}
			s.Summary()
		}
	}
}

// BenchmarkRawMetricsTree measures RawMetricsTree (LOG-T06's raw counts)
// over 100 standard-library files, already parsed.
func BenchmarkRawMetricsTree(b *testing.B) {
	trees, size := benchTrees(b)
	b.SetBytes(size)
	for b.Loop() {
		for _, t := range trees {
			RawMetricsTree(t) // an error (as radon's) still counts the lines before it
		}
	}
}
