package jsparse_test

import (
	"os"
	"testing"

	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/syntax/jsparse"
	"github.com/polynfi/polynfi/syntax/syntaxtest"
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

// BenchmarkParse compares, on the corpus files jsparse accepts, jsparse
// (its own tree), jsparse converted to syntax.Tree (ParseJavaScriptGo, the
// tree the rules read), tree-sitter parsing alone, and tree-sitter parsing
// plus the flattened syntax.Tree. One op parses every file once.
func BenchmarkParse(b *testing.B) {
	srcs, _ := benchFiles(b)
	b.Run("jsparse", func(b *testing.B) {
		syntaxtest.BenchParse(b, srcs, func(src []byte) error { _, err := jsparse.Parse(src); return err })
	})
	b.Run("jsparse-syntax-tree", func(b *testing.B) {
		syntaxtest.BenchParse(b, srcs, func(src []byte) error { _, err := syntax.ParseJavaScriptGo(src); return err })
	})
	syntaxtest.BenchTreeSitter(b, syntax.JavaScript, srcs)
}
