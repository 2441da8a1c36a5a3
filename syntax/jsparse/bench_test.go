package jsparse_test

import (
	"os"
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/cputime"
	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/syntax/jsparse"
)

// benchFiles reads the corpus files jsparse accepts (the whole corpus:
// some 84 MB; JSPARSE_FILES narrows it).
func benchFiles(b *testing.B) ([][]byte, int64) {
	var srcs [][]byte
	var total int64
	for _, f := range corpusFiles(b) {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := jsparse.Parse(src); err != nil {
			continue
		}
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	if len(srcs) == 0 {
		b.Fatal("no file accepted")
	}
	return srcs, total
}

// reportCPU adds the process CPU time per op and the source megabytes per
// CPU second (garbage collection included): on a shared machine CPU time
// is disturbed far less than wall time.
func reportCPU(b *testing.B, cpu time.Duration, total int64) {
	b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
	if cpu > 0 {
		b.ReportMetric(float64(total)*float64(b.N)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
}

// BenchmarkParse compares, on the corpus files jsparse accepts, jsparse
// (its own tree), jsparse converted to syntax.Tree (ParseJavaScriptGo, the
// tree the rules read), tree-sitter parsing alone, and tree-sitter parsing
// plus the flattened syntax.Tree. One op parses every file once.
func BenchmarkParse(b *testing.B) {
	srcs, total := benchFiles(b)
	b.Run("jsparse", func(b *testing.B) {
		b.SetBytes(total)
		c0 := cputime.Process()
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				if _, err := jsparse.Parse(src); err != nil {
					b.Fatal(err)
				}
			}
		}
		reportCPU(b, cputime.Process()-c0, total)
	})
	b.Run("jsparse-syntax-tree", func(b *testing.B) {
		b.SetBytes(total)
		c0 := cputime.Process()
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				if _, err := syntax.ParseJavaScriptGo(src); err != nil {
					b.Fatal(err)
				}
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
				if _, err := p.ParseRaw(syntax.JavaScript, src); err != nil {
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
				t, err := p.Parse(syntax.JavaScript, src)
				if err != nil {
					b.Fatal(err)
				}
				t.Release()
			}
		}
		reportCPU(b, cputime.Process()-c0, total)
	})
}
