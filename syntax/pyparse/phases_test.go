package pyparse

import (
	"os"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
)

// BenchmarkPhases splits Parse's time into tokenizing, parsing into the
// arena, and flattening (with comment placement and positions).
func BenchmarkPhases(b *testing.B) {
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
	bufs := new(buffers)
	b.Run("tokenize", func(b *testing.B) {
		b.SetBytes(total)
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				lx := tokenize(src, Latest, bufs, false)
				bufs.toks = lx.toks[:0]
			}
		}
	})
	b.Run("tokenize+parse", func(b *testing.B) {
		b.SetBytes(total)
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				lx := tokenize(src, Latest, bufs, false)
				p := &parser{src: src, toks: lx.toks, minor: Latest, extras: lx.extras, nodes: bufs.nodes[:0]}
				func() {
					defer func() { recover() }()
					p.file()
				}()
				bufs.toks, bufs.nodes = lx.toks[:0], p.nodes[:0]
			}
		}
	})
	b.Run("all", func(b *testing.B) {
		b.SetBytes(total)
		for i := 0; i < b.N; i++ {
			for _, src := range srcs {
				Parse(src, Options{})
			}
		}
	})
}
