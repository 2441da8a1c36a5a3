package pyparse_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/internal/cputime"
	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/syntax/pyparse"
	"github.com/polynfi/polynfi/syntax/syntaxtest"
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
// syntax.Tree the rules walk today; pyparse-syntax-tree is pyparse's tree
// converted to that syntax.Tree (ParsePythonGo). MB/s is source bytes per
// wall second, cpu-MB/s per CPU second of the process (garbage collection
// included), the figure to compare on a shared machine.
func BenchmarkParse(b *testing.B) {
	srcs, _ := benchFiles(b)
	b.Run("pyparse", func(b *testing.B) {
		syntaxtest.BenchParse(b, srcs, func(src []byte) error { pyparse.Parse(src, pyparse.Options{}); return nil })
	})
	b.Run("pyparse-syntax-tree", func(b *testing.B) {
		syntaxtest.BenchParse(b, srcs, func(src []byte) error { syntax.ParsePythonGo(src, 0); return nil })
	})
	syntaxtest.BenchTreeSitter(b, syntax.Python, srcs)
}

// BenchmarkNesting parses one construct nested n deep, for growing n:
// process CPU time per level (cpu-ns/level; wall time on a shared machine
// is mostly waiting) stays flat when parsing is linear in depth;
// f-call-199 is the 200-level f(f(...)) (199 calls in 200
// brackets, the most CPython accepts). B/op, from -benchmem or
// ReportAllocs, is the memory a parse allocates.
func BenchmarkNesting(b *testing.B) {
	r := strings.Repeat
	cases := []struct {
		name string
		make func(n int) string
		ns   []int
	}{
		{"f-call", func(n int) string { return nest("", "f(", "x", ")", n) }, []int{25, 50, 100, 199}},
		{"f-call-mixed", func(n int) string { return nest("", "f(a.f(-f(1 + ", "x", ")))", n) }, []int{12, 25, 50, 66}},
		{"brackets", func(n int) string { return nest("x = ", "[", "1", "]", n) }, []int{25, 50, 100, 200}},
		{"blocks", func(n int) string { return blocks(n, " ", "pass") }, []int{12, 25, 50, 99}},
		{"not", func(n int) string { return r("not ", n) + "x\n" }, []int{250, 500, 1000, 2900}},
		{"and-chain", func(n int) string { return "x" + r(" and x", n) + "\n" }, []int{1000, 10000, 100000}},
	}
	for _, c := range cases {
		for _, n := range c.ns {
			src := []byte(c.make(n))
			b.Run(fmt.Sprintf("%s-%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(src)))
				c0 := cputime.Process()
				for b.Loop() {
					if _, err := pyparse.Parse(src, pyparse.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				cpu := cputime.Process() - c0
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/level")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
			})
		}
	}
}

// BenchmarkFileSize parses the standard-library sample concatenated to
// growing sizes: MB/s stays flat when parsing is linear in size;
// peak-heap-B/src-B is the most heap in use (runtime HeapInuse sampled
// after the parse, the tree still live) per source byte, and
// alloc-B/src-B everything allocated per source byte.
func BenchmarkFileSize(b *testing.B) {
	srcs, _ := benchFiles(b)
	var all []byte
	for _, s := range srcs {
		if _, err := pyparse.Parse(s, pyparse.Options{}); err == nil {
			all = append(append(all, s...), '\n')
		}
	}
	for _, mb := range []int{1, 4, 16} {
		var src []byte
		for len(src) < mb<<20 {
			src = append(src, all...)
		}
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			c0 := cputime.Process()
			var peak uint64
			var ms0, ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms0)
			for b.Loop() {
				t, err := pyparse.Parse(src, pyparse.Options{})
				if err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
				runtime.KeepAlive(t)
			}
			b.ReportMetric(float64(peak-min(peak, ms0.HeapInuse))/float64(len(src)), "peak-heap-B/src-B")
			b.ReportMetric(float64(ms.TotalAlloc-ms0.TotalAlloc)/float64(b.N)/float64(len(src)), "alloc-B/src-B")
			syntaxtest.ReportCPU(b, cputime.Process()-c0, int64(len(src)))
		})
	}
}
