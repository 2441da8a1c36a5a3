package catalog

// Speed and memory benchmarks of the scoring pipeline over the Python
// standard library (issue 2: scoring costs at most 1.5× tree-sitter parsing
// alone, scoring a directory uses every core, memory stays flat).
//
//	go test -run '^$' -bench . -benchtime 3x ./nfi/catalog/
//
// Each benchmark measures what it compares in the same run, on the same
// files, after an untimed warm-up pass, alternating the order of the two
// sides between iterations (A B, B A, ...) so that a change of machine load
// during the run affects both. Costs are reported as process CPU time (user
// + system, all threads: garbage collection included), which other
// processes on a shared machine disturb far less than wall time; the wall
// time ratios are reported too.

import (
	"context"
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/internal/cputime"
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

// cost is the wall and process CPU time of fn.
type cost struct{ wall, cpu time.Duration }

func measure(fn func()) cost {
	w0, c0 := time.Now(), cputime.Process()
	fn()
	return cost{time.Since(w0), cputime.Process() - c0}
}

func (c *cost) add(d cost) { c.wall += d.wall; c.cpu += d.cpu }

// BenchmarkScoreVsParse measures tree-sitter parsing alone
// (syntax.Parser.ParseRaw: parse and free the C tree) and full scoring
// (Engine.Score: parse, flatten into the Go tree, all 92 rules, scores) over
// the same 300-file standard-library sample, and reports
//
//   - score/parse: the ratio of their CPU times (issue 2's target: ≤ 1.5);
//   - score/parse-wall: the ratio of their wall times;
//   - score-MB/s and parse-MB/s: single-core throughput (wall).
//
// The two sides take turns chunk by chunk (interleaveChunk files, some
// 30 ms of work), not run by run: this machine's speed drifts by 10-20%
// over seconds (other virtual machines share its caches and memory
// bandwidth), and a drift then affects both sides alike instead of
// whichever ran at the time.
func BenchmarkScoreVsParse(b *testing.B) {
	files, srcs, total := loadSample(b, 300)
	e := newEngine(b)
	p := syntax.NewParser()
	defer p.Close()
	parse := parseRaw(b, p, srcs)
	score := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			e.Score(p, files[i], srcs[i])
		}
	}
	parse(0, len(srcs)) // warm-up: page cache, parser, Go heap, reused storage
	score(0, len(srcs))
	parseCost, scoreCost := interleave(b, len(srcs), parse, score)
	b.SetBytes(total)
	b.ReportMetric(float64(scoreCost.cpu)/float64(parseCost.cpu), "score/parse")
	b.ReportMetric(float64(scoreCost.wall)/float64(parseCost.wall), "score/parse-wall")
	b.ReportMetric(float64(total)*float64(b.N)/1e6/scoreCost.wall.Seconds(), "score-MB/s")
	b.ReportMetric(float64(total)*float64(b.N)/1e6/parseCost.wall.Seconds(), "parse-MB/s")
}

// BenchmarkTreeVsParse measures syntax.Parser.Parse (tree-sitter parsing,
// then flattening the C tree into the Go tree that the rules walk; each
// tree released for reuse, as Engine.Score does) against tree-sitter
// parsing alone over the same files, and reports tree/parse, the ratio of
// their CPU times: the part of score/parse that is not the rules.
func BenchmarkTreeVsParse(b *testing.B) {
	_, srcs, total := loadSample(b, 300)
	p := syntax.NewParser()
	defer p.Close()
	parse := parseRaw(b, p, srcs)
	tree := func(lo, hi int) {
		for _, s := range srcs[lo:hi] {
			t, err := p.Parse(syntax.Python, s)
			if err != nil {
				b.Fatal(err)
			}
			t.Release()
		}
	}
	parse(0, len(srcs))
	tree(0, len(srcs))
	parseCost, treeCost := interleave(b, len(srcs), parse, tree)
	b.SetBytes(total)
	b.ReportMetric(float64(treeCost.cpu)/float64(parseCost.cpu), "tree/parse")
}

// parseRaw returns the baseline side of a comparison: tree-sitter parsing
// alone (syntax.Parser.ParseRaw) of srcs[lo:hi].
func parseRaw(b *testing.B, p *syntax.Parser, srcs [][]byte) func(lo, hi int) {
	return func(lo, hi int) {
		for _, s := range srcs[lo:hi] {
			if _, err := p.ParseRaw(syntax.Python, s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// interleaveChunk is the number of files each side of a comparison runs
// before the other takes its turn.
const interleaveChunk = 10

// interleave runs a(lo, hi) and c(lo, hi) over files [0, n) once per
// benchmark iteration, in turns of interleaveChunk files, alternating which
// side goes first, and returns the total cost of each side.
func interleave(b *testing.B, n int, a, c func(lo, hi int)) (costA, costC cost) {
	first := false
	for b.Loop() {
		for lo := 0; lo < n; lo += interleaveChunk {
			hi := min(lo+interleaveChunk, n)
			if first = !first; first {
				costA.add(measure(func() { a(lo, hi) }))
				costC.add(measure(func() { c(lo, hi) }))
			} else {
				costC.add(measure(func() { c(lo, hi) }))
				costA.add(measure(func() { a(lo, hi) }))
			}
		}
		if n%(2*interleaveChunk) == 0 {
			first = !first // the next iteration starts with the other side
		}
	}
	return costA, costC
}

// BenchmarkScoreFilesWorkers scores the sample from disk with ScoreFiles on
// 1 worker and on GOMAXPROCS workers in the same run and reports the wall
// time speed-up (issue 2: near 2× on 2 cores) and "cores": the CPU time of
// the GOMAXPROCS-worker runs divided by their wall time, the number of cores
// kept busy (below the speed-up's ideal when other processes take cores).
func BenchmarkScoreFilesWorkers(b *testing.B) {
	files, _, total := loadSample(b, 300)
	e := newEngine(b)
	run := func(w int) func() {
		return func() {
			if err := e.ScoreFiles(context.Background(), files, w, func(nfi.FileScore) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
	}
	workers := runtime.GOMAXPROCS(0)
	run(workers)() // warm-up
	var one, all cost
	b.SetBytes(total)
	odd := false
	for b.Loop() {
		if odd {
			all.add(measure(run(workers)))
			one.add(measure(run(1)))
		} else {
			one.add(measure(run(1)))
			all.add(measure(run(workers)))
		}
		odd = !odd
	}
	b.ReportMetric(float64(one.wall)/float64(all.wall), "speedup")
	b.ReportMetric(float64(all.cpu)/float64(all.wall), "cores")
	b.ReportMetric(float64(workers), "workers")
	b.ReportMetric(float64(total)*float64(b.N)/1e6/all.wall.Seconds(), "MB/s")
}

// BenchmarkScoreFilesMemory scores the 200-file sample with ScoreFiles once
// (1×) and four times over in one call (4×: the same files repeated), and
// compares the memory while the 1× run scores its files with the memory
// while the 4× run scores its last 200 files: the same files, the same
// number of samples (one every 20 files), after three times as many files.
// It reports the largest live heap (runtime/metrics /gc/heap/live:bytes,
// what the last garbage collection kept, in MB) and the largest heap in use
// (which also holds garbage awaiting collection) of both. Flat memory means
// heap-ratio, live 4× over live 1×, stays near 1.
func BenchmarkScoreFilesMemory(b *testing.B) {
	files, _, _ := loadSample(b, 200)
	e := newEngine(b)
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	// run scores paths and returns the largest live heap and heap in use
	// seen after the first skip files.
	run := func(paths []string, skip int) (maxLive, maxInuse float64) {
		runtime.GC()
		var ms runtime.MemStats
		n := 0
		err := e.ScoreFiles(context.Background(), paths, 0, func(nfi.FileScore) error {
			n++
			if n > skip && n%20 == 0 {
				metrics.Read(live)
				maxLive = max(maxLive, float64(live[0].Value.Uint64()))
				runtime.ReadMemStats(&ms)
				maxInuse = max(maxInuse, float64(ms.HeapInuse))
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		return maxLive / (1 << 20), maxInuse / (1 << 20)
	}
	var four []string
	for i := 0; i < 4; i++ {
		four = append(four, files...)
	}
	run(files, 0) // warm-up
	var live1, live4, inuse1, inuse4 float64
	for b.Loop() {
		l1, i1 := run(files, 0)
		l4, i4 := run(four, 3*len(files))
		live1, live4 = max(live1, l1), max(live4, l4)
		inuse1, inuse4 = max(inuse1, i1), max(inuse4, i4)
	}
	b.ReportMetric(live1, "liveMB-1x")
	b.ReportMetric(live4, "liveMB-4x")
	b.ReportMetric(live4/live1, "heap-ratio")
	b.ReportMetric(inuse1, "inuseMB-1x")
	b.ReportMetric(inuse4, "inuseMB-4x")
}

// BenchmarkRulesVsParse splits BenchmarkScoreVsParse's score side: it runs
// all 92 rules (Engine.ScoreTree, shared analyses included) over trees
// parsed before the timer starts, and tree-sitter parsing alone over the
// same files, and reports rules/parse, the ratio of their CPU times: the
// part of score/parse that the rules and analyses cost (the rest is parsing
// and building the Go-side tree). Profile the rules with
//
//	go test -run '^$' -bench RulesVsParse -benchtime 10x -cpuprofile cpu.out ./nfi/catalog/
func BenchmarkRulesVsParse(b *testing.B) {
	files, srcs, total := loadSample(b, 300)
	e := newEngine(b)
	p := syntax.NewParser()
	defer p.Close()
	trees := make([]*syntax.Tree, len(srcs)) // nil for a file with a syntax error
	for i, s := range srcs {
		t, err := syntax.ParseOnce(syntax.Python, s)
		if err != nil {
			b.Fatal(err)
		}
		if !t.HasError() {
			trees[i] = t
		}
	}
	parse := parseRaw(b, p, srcs)
	rules := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if trees[i] != nil {
				e.ScoreTree(files[i], trees[i])
			}
		}
	}
	parse(0, len(srcs))
	rules(0, len(srcs))
	parseCost, rulesCost := interleave(b, len(srcs), parse, rules)
	b.SetBytes(total)
	b.ReportMetric(float64(rulesCost.cpu)/float64(parseCost.cpu), "rules/parse")
	b.ReportMetric(float64(total)*float64(b.N)/1e6/rulesCost.wall.Seconds(), "rules-MB/s")
}
