package pyparse_test

import (
	"os"
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/internal/cputime"
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

// reportCPU adds the process CPU time per op and the source megabytes per
// CPU second: on a shared machine CPU time is disturbed far less than wall
// time.
func reportCPU(b *testing.B, cpu time.Duration, total int64) {
	b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
	if cpu > 0 {
		b.ReportMetric(float64(total)*float64(b.N)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
}

// BenchmarkParse compares, on the same files in the same run, pyparse
// (tokenize, parse, flattened tree with positions and comments) with
// tree-sitter parsing alone and tree-sitter parsing plus the flattened
// syntax.Tree the rules walk today; pyparse-syntax-tree is pyparse's tree
// converted to that syntax.Tree (ParsePythonGo). MB/s is source bytes per
// wall second, cpu-MB/s per CPU second of the process (garbage collection
// included), the figure to compare on a shared machine.
func BenchmarkParse(b *testing.B) {
	srcs, total := benchFiles(b)
	b.Run("pyparse", func(b *testing.B) {
		b.SetBytes(total)
		c0 := cputime.Process()
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				pyparse.Parse(src, pyparse.Options{})
			}
		}
		reportCPU(b, cputime.Process()-c0, total)
	})
	b.Run("pyparse-syntax-tree", func(b *testing.B) {
		b.SetBytes(total)
		c0 := cputime.Process()
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				syntax.ParsePythonGo(src, 0)
			}
		}
		reportCPU(b, cputime.Process()-c0, total)
	})
	b.Run("tree-sitter-raw", func(b *testing.B) {
		p := syntax.NewParser()
		defer p.Close()
		b.SetBytes(total)
		c0 := cputime.Process()
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				if _, err := p.ParseRaw(syntax.Python, src); err != nil {
					b.Fatal(err)
				}
			}
		}
		reportCPU(b, cputime.Process()-c0, total)
	})
	b.Run("tree-sitter-tree", func(b *testing.B) {
		p := syntax.NewParser()
		defer p.Close()
		b.SetBytes(total)
		c0 := cputime.Process()
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				t, err := p.Parse(syntax.Python, src)
				if err != nil {
					b.Fatal(err)
				}
				t.Release()
			}
		}
		reportCPU(b, cputime.Process()-c0, total)
	})
}
