package logic_test

import (
	"os"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/internal/cputime"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/nfi/rules/logic"
	"github.com/polynfi/polynfi/syntax"
)

// BenchmarkLOGRules runs the LOG rules alone (Engine.ScoreTree, with the
// shared analyses they use) over a 300-file standard-library sample parsed
// before the timer starts: the rules' own cost, as wall time and as process
// CPU time (cpu-ms/op: garbage collection included, less disturbed by other
// processes), for A/B comparisons and for profiling
//
//	go test -run '^$' -bench LOGRules -benchtime 20x -cpuprofile cpu.out ./nfi/rules/logic/
func BenchmarkLOGRules(b *testing.B) {
	benchRules(b, logic.All)
}

// BenchmarkAllRules is BenchmarkLOGRules with all rules of the catalog: the
// LOG rules' share of the whole, with the analyses shared between rules
// charged to whichever rule first needs them, as in real scoring.
func BenchmarkAllRules(b *testing.B) {
	benchRules(b, catalog.Polynfi92().Rules)
}

func benchRules(b *testing.B, rules []*nfi.Rule) {
	files := corpus.StdlibSample(b, 300)
	trees := make([]*syntax.Tree, 0, len(files))
	paths := make([]string, 0, len(files))
	var total int64
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		t, err := syntax.ParseOnce(syntax.Python, src)
		if err != nil {
			b.Fatal(err)
		}
		if t.HasError() {
			continue
		}
		trees = append(trees, t)
		paths = append(paths, f)
		total += int64(len(src))
	}
	e, err := nfi.NewEngine(&nfi.Catalog{Version: "bench", Rules: rules}, nfi.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(total)
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		for i, t := range trees {
			e.ScoreTree(paths[i], t)
		}
	}
	b.ReportMetric(float64(cputime.Process()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
}
