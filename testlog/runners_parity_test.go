package testlog

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/internal/mswebenchoracle"
	"github.com/polynfi/polynfi/internal/swebenchoracle"
)

// multilingualSWEBParsers are SWE-bench 5.0.2's parsers of its Go, Rust,
// C, C++, PHP and Ruby repositories (log_parsers/{go,rust,c,php,ruby}.py).
var multilingualSWEBParsers = []string{
	"parse_log_gotest", "parse_log_cargo", "parse_log_redis", "parse_log_jq", "parse_log_doctest",
	"parse_log_micropython_test", "parse_log_googletest", "parse_log_phpunit", "parse_log_minitest",
	"parse_log_cucumber", "parse_log_ruby_unit", "parse_log_rspec_transformed_json", "parse_log_jekyll",
}

// runnerLogs returns the hand-written edge logs of testdata/runners/edge
// and the logs of real runs (realRunLogs).
func runnerLogs(t *testing.T) []namedLog {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "runners", "edge", "*.log"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no edge logs: %v", err)
	}
	var out []namedLog
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, namedLog{name: "edge " + filepath.Base(f), log: string(b)})
	}
	return append(out, realRunLogs(t)...)
}

// TestRunnerLogsSWEBenchOracle reads every runner log (edge and real)
// with each of SWE-bench's Multilingual parsers for Go, Rust, C, C++, PHP
// and Ruby, in polynfi and in SWE-bench 5.0.2 itself, and requires the
// same status map (ids, statuses, order) or both failing. Every parser
// must read at least one test from some log (no vacuous comparison).
func TestRunnerLogsSWEBenchOracle(t *testing.T) {
	t.Parallel()
	swebenchoracle.Require(t)
	logs := runnerLogs(t)
	type in struct {
		log    namedLog
		parser string
		id     string
	}
	var ins []in
	for _, l := range logs {
		for _, p := range multilingualSWEBParsers {
			ids := []string{"x__y-1"}
			if p == "parse_log_jekyll" {
				ids = []string{"jekyll__jekyll-9141", "jekyll__jekyll-8771", "jekyll__jekyll-1", "jekyll"}
			}
			for _, id := range ids {
				ins = append(ins, in{l, p, id})
			}
		}
		// CRLF line ends and a log cut inside a line.
		ins = append(ins, in{namedLog{name: l.name + " (CRLF)", log: strings.ReplaceAll(l.log, "\n", "\r\n")}, "parse_log_gotest", "x__y-1"})
	}
	reqs := make([]swebenchoracle.ParseRequest, len(ins))
	for i, x := range ins {
		reqs[i] = swebenchoracle.ParseRequest{Parser: x.parser, Log: x.log.log, InstanceID: x.id}
	}
	want, _ := swebenchoracle.Run(t, reqs, nil)
	read := map[string]int{}
	for i, x := range ins {
		got, err := ParseSWEBench(x.parser, []byte(x.log.log), SWEBenchContext{InstanceID: x.id})
		if want[i].Error != "" {
			if err == nil {
				t.Errorf("%s with %s (%s): SWE-bench raised %s, polynfi read %v", x.log.name, x.parser, x.id, want[i].Error, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s with %s: polynfi: %v; SWE-bench read %v", x.log.name, x.parser, err, want[i].Results)
			continue
		}
		w := want[i].Results
		if w == nil {
			w = [][2]string{}
		}
		if diff := cmp.Diff(w, pairs(got)); diff != "" {
			t.Errorf("%s with %s: polynfi differs from SWE-bench %s (-swebench +polynfi):\n%s", x.log.name, x.parser, swebenchoracle.Version, diff)
		}
		if len(w) > 0 {
			read[x.parser]++
		}
	}
	for _, p := range multilingualSWEBParsers {
		if read[p] == 0 {
			t.Errorf("%s read no test from any log: the comparison is vacuous", p)
		}
	}
	t.Logf("%d readings compared with SWE-bench %s over %d logs", len(ins), swebenchoracle.Version, len(logs))
}

// TestRunnerLogsMultiSWEBenchOracle reads every runner log with every
// Multi-SWE-bench repository polynfi maps to a reader, in polynfi and in
// Multi-SWE-bench 1.1.2's own class for that repository, and requires the
// same three sets or both refusing the reading. So the table of
// repositories is checked too: a name mapped to the wrong family differs on
// some log. Every reader must read at least one test from some log.
func TestRunnerLogsMultiSWEBenchOracle(t *testing.T) {
	t.Parallel()
	mswebenchoracle.Require(t)
	logs := runnerLogs(t)
	repos := MultiSWEBenchRepos()
	var names []string
	for n := range repos {
		names = append(names, n)
	}
	sort.Strings(names)
	type in struct {
		log  namedLog
		name string
	}
	var ins []in
	for _, l := range logs {
		for _, n := range names {
			ins = append(ins, in{l, n})
		}
	}
	reqs := make([]mswebenchoracle.Request, len(ins))
	for i, x := range ins {
		reqs[i] = mswebenchoracle.Request{Name: x.name, Log: x.log.log}
	}
	want := mswebenchoracle.Run(t, reqs)
	read := map[string]int{}
	nz := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	for i, x := range ins {
		reader := repos[x.name]
		got, err := ParseMultiSWEBench(reader, []byte(x.log.log))
		w := want[i]
		if w.Error != "" {
			if err == nil {
				t.Errorf("%s as %s (%s): Multi-SWE-bench raised %s, polynfi read %+v", x.log.name, x.name, reader, w.Error, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s as %s (%s): polynfi: %v; Multi-SWE-bench read %+v", x.log.name, x.name, reader, err, w)
			continue
		}
		ws := MultiSWEBenchResult{Passed: nz(w.Passed), Failed: nz(w.Failed), Skipped: nz(w.Skipped)}
		gs := MultiSWEBenchResult{Passed: nz(got.Passed), Failed: nz(got.Failed), Skipped: nz(got.Skipped)}
		if diff := cmp.Diff(ws, gs); diff != "" {
			t.Errorf("%s as %s (%s): polynfi differs from Multi-SWE-bench %s (-official +polynfi):\n%s", x.log.name, x.name, reader, mswebenchoracle.Version, diff)
		}
		if len(ws.Passed)+len(ws.Failed)+len(ws.Skipped) > 0 {
			read[reader]++
		}
	}
	for _, r := range MultiSWEBenchReaders() {
		if read[r] == 0 {
			t.Errorf("reader %s read no test from any log: the comparison is vacuous", r)
		}
	}
	t.Logf("%d readings compared with Multi-SWE-bench %s (%d repositories, %d logs)", len(ins), mswebenchoracle.Version, len(names), len(logs))
}
