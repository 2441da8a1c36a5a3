package catalog

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

func loadSample(b *testing.B, n int) ([]string, [][]byte, int64) {
	b.Helper()
	files := corpus.StdlibSample(b, n)
	var srcs [][]byte
	var total int64
	for _, f := range files {
		s, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, s)
		total += int64(len(s))
	}
	return files, srcs, total
}

// BenchmarkScoreVsParse measures, in the same run, tree-sitter parsing alone
// and full scoring (parse + flatten + all rules) over a standard-library
// sample, and reports their ratio as "score/parse" (target: <= 1.5).
func BenchmarkScoreVsParse(b *testing.B) {
	_, srcs, total := loadSample(b, 300)
	e := newEngine(b)
	p := syntax.NewParser()
	defer p.Close()
	var parseT, scoreT time.Duration
	b.SetBytes(total)
	for b.Loop() {
		t0 := time.Now()
		for _, s := range srcs {
			if _, err := p.ParseRaw(syntax.Python, s); err != nil {
				b.Fatal(err)
			}
		}
		t1 := time.Now()
		for _, s := range srcs {
			e.Score(p, "x.py", s)
		}
		t2 := time.Now()
		parseT += t1.Sub(t0)
		scoreT += t2.Sub(t1)
	}
	b.ReportMetric(float64(scoreT)/float64(parseT), "score/parse")
	b.ReportMetric(float64(total)*float64(b.N)/1e6/scoreT.Seconds(), "score-MB/s")
	b.ReportMetric(float64(total)*float64(b.N)/1e6/parseT.Seconds(), "parse-MB/s")
}

// BenchmarkScoreFilesWorkers scores the sample from disk with 1 worker and
// with GOMAXPROCS workers in the same run and reports the speed-up.
func BenchmarkScoreFilesWorkers(b *testing.B) {
	files, _, total := loadSample(b, 300)
	e := newEngine(b)
	run := func(w int) time.Duration {
		t0 := time.Now()
		if err := e.ScoreFiles(context.Background(), files, w, func(nfi.FileScore) error { return nil }); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	var one, all time.Duration
	b.SetBytes(total)
	for b.Loop() {
		one += run(1)
		all += run(runtime.GOMAXPROCS(0))
	}
	b.ReportMetric(float64(one)/float64(all), "speedup")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "workers")
	b.ReportMetric(float64(total)*float64(b.N)/1e6/all.Seconds(), "MB/s")
}

// BenchmarkScoreFilesMemory scores the sample once and four times over
// (the same files repeated) and reports peak heap in use for both: a flat
// run keeps the two close (ratio near 1), whatever the number of files.
func BenchmarkScoreFilesMemory(b *testing.B) {
	files, _, _ := loadSample(b, 200)
	e := newEngine(b)
	peak := func(paths []string) float64 {
		runtime.GC()
		var max uint64
		var ms runtime.MemStats
		n := 0
		err := e.ScoreFiles(context.Background(), paths, 0, func(nfi.FileScore) error {
			n++
			if n%20 == 0 {
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > max {
					max = ms.HeapInuse
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		return float64(max) / (1 << 20)
	}
	var four []string
	for i := 0; i < 4; i++ {
		four = append(four, files...)
	}
	var p1, p4 float64
	for b.Loop() {
		p1 = peak(files)
		p4 = peak(four)
	}
	b.ReportMetric(p1, "heapMB-1x")
	b.ReportMetric(p4, "heapMB-4x")
	b.ReportMetric(p4/p1, "heap-ratio")
}
