package lib

import (
	"os"
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// BenchmarkLIBVsParse scores a standard-library sample with the LIB rules
// alone and reports the rules' cost (score minus parse) relative to parsing
// as "rules/parse"; all 92 rules together must stay within 0.5.
func BenchmarkLIBVsParse(b *testing.B) {
	benchRulesVsParse(b, All)
}

func benchRulesVsParse(b *testing.B, rules []*nfi.Rule) {
	files := corpus.StdlibSample(b, 300)
	var srcs [][]byte
	for _, f := range files {
		s, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, s)
	}
	e, err := nfi.NewEngine(&nfi.Catalog{Version: "bench", Rules: rules}, nfi.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	p := syntax.NewParser()
	defer p.Close()
	var parseT, scoreT time.Duration
	for b.Loop() {
		t0 := time.Now()
		for _, s := range srcs {
			if _, err := p.Parse(syntax.Python, s); err != nil {
				b.Fatal(err)
			}
		}
		t1 := time.Now()
		for _, s := range srcs {
			e.Score(p, "x.py", s)
		}
		parseT += t1.Sub(t0)
		scoreT += time.Since(t1)
	}
	b.ReportMetric(float64(scoreT-parseT)/float64(parseT), "rules/parse")
}
