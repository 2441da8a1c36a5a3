// Package syntaxtest holds what the benchmarks of polynfi's parsers share:
// one loop that parses a corpus and reports CPU time (BenchParse), and the
// tree-sitter baselines the Go parsers are measured against in the same
// run (BenchTreeSitter). Only tests import it.
package syntaxtest

import (
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/cputime"
	"github.com/polynfi/polynfi/syntax"
)

// BenchParse runs parse over every source of srcs once per op and reports,
// besides Go's ns/op and MB/s (b.SetBytes of their total size), the
// process CPU time per op (cpu-ms/op) and the source megabytes per CPU
// second (cpu-MB/s, garbage collection included): on a shared machine CPU
// time is disturbed far less than wall time. A parse error fails b.
func BenchParse(b *testing.B, srcs [][]byte, parse func(src []byte) error) {
	var total int64
	for _, src := range srcs {
		total += int64(len(src))
	}
	b.SetBytes(total)
	c0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			if err := parse(src); err != nil {
				b.Fatal(err)
			}
		}
	}
	ReportCPU(b, cputime.Process()-c0, total)
}

// ReportCPU reports cpu, the process CPU time of b's b.N ops of size
// bytes each, as cpu-ms/op and cpu-MB/s.
func ReportCPU(b *testing.B, cpu time.Duration, bytes int64) {
	b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
	if cpu > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
}

// BenchTreeSitter adds two sub-benchmarks of tree-sitter on srcs in lang:
// tree-sitter-raw (parsing alone, no tree built on the Go side) and
// tree-sitter-tree (parsing plus the flattened syntax.Tree the rules read).
func BenchTreeSitter(b *testing.B, lang syntax.Language, srcs [][]byte) {
	b.Run("tree-sitter-raw", func(b *testing.B) {
		p := syntax.NewParser()
		defer p.Close()
		BenchParse(b, srcs, func(src []byte) error { _, err := p.ParseRaw(lang, src); return err })
	})
	b.Run("tree-sitter-tree", func(b *testing.B) {
		p := syntax.NewParser()
		defer p.Close()
		BenchParse(b, srcs, func(src []byte) error {
			t, err := p.Parse(lang, src)
			if err == nil {
				t.Release()
			}
			return err
		})
	})
}
