package lib

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi/pyast"
	"github.com/polynfi/polynfi/syntax"
)

// TestQualifiedLocalsFilter checks that resolving only the identifiers and
// attribute chain roots named like qualifiedLocals finds the same hits as
// resolving every name, on the LIB fixtures and a stdlib
// sample. It also checks that the fixtures exercise the filter: some files
// have locals of both kinds.
func TestQualifiedLocalsFilter(t *testing.T) {
	tb := apiTable()
	files, err := filepath.Glob("testdata/*.py")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	files = append(files, corpus.StdlibSample(t, 150)...)
	withLocals := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := syntax.ParseOnce(syntax.Python, src)
		if err != nil {
			t.Fatal(err)
		}
		m := &pyast.Module{Tree: tree, Path: f}
		locals := qualifiedLocals(m, tb)
		if len(locals.names) > 0 && len(locals.chains) > 0 {
			withLocals++
		}
		got, want := scanWith(m, tb, locals), scanWith(m, tb, localFilter{every: true})
		if diff := cmp.Diff(summarize(want), summarize(got)); diff != "" {
			t.Errorf("%s: hits differ (-every bound name +qualified locals):\n%s", f, diff)
		}
	}
	if withLocals < 5 {
		t.Errorf("only %d files with qualified locals: the check exercises little", withLocals)
	}
}

// summarize lists a scan's hits as rule -> "node mode pattern" strings.
func summarize(r *scanResult) map[string][]string {
	out := map[string][]string{}
	for rule, hs := range r.byRule {
		for _, h := range hs {
			out[rule] = append(out[rule], fmt.Sprintf("%d %s %s", h.node, h.e.mode, h.e.pattern))
		}
	}
	return out
}
