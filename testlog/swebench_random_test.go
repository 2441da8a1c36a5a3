package testlog

import (
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/internal/swebenchoracle"
)

// swebPieces are fragments of the lines SWE-bench's parsers look at (status
// words, markers, separators, framework glyphs, whitespace of several
// kinds), from which TestParseSWEBenchRandomOracle builds logs.
var swebPieces = []string{
	"PASSED", "FAILED", "SKIPPED", "ERROR", "XFAIL", "XPASS", " ", "  ", "\t", "\r", " - ", "-", "[", "]", "[100%]", "[2]",
	"a.py::t", "a.py::C::t[x-1]", "b/c.py::u[/tmp/x/y]", "//h", "*", "::", ".py:", "test_x", "test_y (m.T)", " ... ", " ... ok",
	" ... OK", " ... FAIL", " ... ERROR", " ... skipped 'why'", "FAIL: ", "ERROR: ", "ok", " E", " F", " ok", "____", "\x1b[32m", "[1m",
	"MouseButton.LEFT", "-Dtest=", "com.A#a", "BUILD SUCCESS", "BUILD FAILURE", "[junit]", "[PASS]", "[FAIL]", "[ERR]", " > ",
	"✓", "✕", "○", "×", "↓", "✔", "✖", "(3 ms)", " 12ms", "[skipped]", "[PASSED]", "[FAILED]", "ok 1 ", "not ok 2 ", "# SKIP",
	"Starting browser", "SUMMARY:", "\u00a0", "\x1c", "é",
}

func randomSWEBLog(r *rand.Rand) string {
	var b strings.Builder
	for l := r.Intn(12); l >= 0; l-- {
		if r.Intn(3) == 0 {
			b.WriteString(strings.Repeat(" ", r.Intn(7)))
		}
		for k := r.Intn(6); k >= 0; k-- {
			b.WriteString(swebPieces[r.Intn(len(swebPieces))])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestParseSWEBenchRandomOracle compares every parser with SWE-bench
// 5.0.2's on random logs built from the fragments its parsers react to
// (fixed seed: the same logs on every run).
func TestParseSWEBenchRandomOracle(t *testing.T) {
	t.Parallel()
	swebenchoracle.Require(t)
	var names []string
	for n := range swebParsers {
		names = append(names, n)
	}
	sort.Strings(names)
	r := rand.New(rand.NewSource(5002))
	var reqs []swebenchoracle.ParseRequest
	for _, n := range names {
		for i := 0; i < 100; i++ {
			reqs = append(reqs, swebenchoracle.ParseRequest{Parser: n, Log: randomSWEBLog(r), InstanceID: immutableCtx.InstanceID})
		}
	}
	want, _ := swebenchoracle.Run(t, reqs, nil)
	bad := 0
	for i, q := range reqs {
		got, err := ParseSWEBench(q.Parser, []byte(q.Log), immutableCtx)
		if want[i].Error != "" {
			if err == nil {
				bad++
				t.Errorf("%s on %q: SWE-bench raised %s, polynfi did not", q.Parser, q.Log, want[i].Error)
			}
			continue
		}
		w := want[i].Results
		if w == nil {
			w = [][2]string{}
		}
		if err != nil {
			bad++
			t.Errorf("%s on %q: %v", q.Parser, q.Log, err)
		} else if diff := cmp.Diff(w, pairs(got)); diff != "" {
			bad++
			if bad <= 10 {
				t.Errorf("%s on %q (-swebench +polynfi):\n%s", q.Parser, q.Log, diff)
			}
		}
	}
	t.Logf("%d random logs, %d differ from SWE-bench %s", len(reqs), bad, swebenchoracle.Version)
}
