package grading

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/testlog"
)

// Reading a test_command run: the readings of its log and reports, and
// the choice among them. polynfi's own code.

// ReportFile is a JUnit XML report a run wrote: its path relative to the
// work tree and its content.
type ReportFile struct {
	Path string
	Data []byte
}

// TestCommandReading is what ReadTestCommand makes of a test_command run.
type TestCommandReading struct {
	Framework string           // the reading chosen ("junit", a testlog framework, "swebench:<parser>"), "" when none read a test
	Results   []testlog.Result // its results, the other readings' dissenting failures appended (addDissent)
	// FailToPass and PassToPass are the instance's lists as the chosen
	// reading spells them (ExpectedIDs; RespellVerdicts turns them back).
	FailToPass, PassToPass []string
	Reports                []string // the JUnit reports read, sorted
	Stream                 string   // "stdout" or "stderr": the stream the log reading came from ("" when no framework was detected)
	NumReports             int      // how many complete reports of its framework that stream holds
	Notes                  []string
}

// ReadTestCommand reads a test_command run of instance in from its
// captured streams and the JUnit XML reports it wrote: the reports, then
// the log (one stream: stdout, or stderr when stdout holds no
// recognisable log, so that text printed on stderr, read first in
// SWE-PolyBench's stderr+stdout log, cannot pass for the runner's report),
// then the row's SWE-bench log_parser on the same stream; the reading that
// names the most expected tests wins (JUnit on a tie; chooseReading), and
// the other readings' failures of expected tests dissent (addDissent),
// Maven Surefire's console problem lines among them. ws is the work
// tree's path in the sandbox ("" to leave ids as they are), workdir the
// image's working directory that the dataset's ids may carry. It is pure.
func ReadTestCommand(in dataset.Instance, stdout, stderr []byte, reports []ReportFile, ws, workdir string) TestCommandReading {
	var r TestCommandReading
	var cands []candidate
	var junit []testlog.Result
	for _, f := range reports {
		rs, err := testlog.ParseJUnitXML(bytes.NewReader(f.Data))
		if err != nil {
			continue
		}
		r.Reports = append(r.Reports, f.Path)
		junit = append(junit, rs...)
	}
	sort.Strings(r.Reports)
	if len(r.Reports) > 0 {
		cands = append(cands, candidate{string(testlog.JUnit), testlog.TrimWorkspace(junit, ws)})
	}
	log, stream := stdout, "stdout"
	if _, ok := testlog.Detect(stdout); !ok {
		log, stream = stderr, "stderr"
	}
	nReports := 0
	if fw, ok := testlog.Detect(log); ok {
		cands = append(cands, logReadings(log, ws)...)
		r.Stream, nReports = stream, testlog.CountReports(fw, log)
	} else if in.LogParser != "" {
		log = stdout // what a SWE-bench parser may read without a detected framework
	}
	cands, r.Notes = withLogParser(cands, in, log, nil)
	fw, results, f2p, p2p := chooseReading(cands, in.FailToPass, in.PassToPass, workdir)
	// Maven's console names every test that failed or erred, whatever
	// report files say: its problem lines dissent from a report rewritten
	// after Surefire wrote it, or printed by the code under test.
	if console := testlog.SurefireConsole(stdout); len(console) > 0 {
		cands = append(cands, candidate{"surefire-console", testlog.TrimWorkspace(console, ws)})
	}
	results = addDissent(cands, fw, results, f2p, p2p)
	r.Framework, r.Results, r.FailToPass, r.PassToPass, r.NumReports = fw, results, f2p, p2p, nReports
	return r
}

// candidate is one reading of a run's results: the framework that produced
// it and the results.
type candidate struct {
	framework string
	results   []testlog.Result
}

// countMatches is the number of distinct expected ids among results' ids.
func countMatches(results []testlog.Result, want map[string]bool) int {
	seen := map[string]bool{}
	for _, r := range results {
		if want[r.ID] {
			seen[r.ID] = true
		}
	}
	return len(seen)
}

// chooseReading picks, among the readings of one run, the one whose ids
// name the most expected tests (f2p ∪ p2p, normalized for each reading's
// framework); the first wins a tie, so callers list JUnit reports first
// (spec §2.4). It returns the reading's framework, its results with
// SWE-PolyBench pytest aliases applied, and the normalized f2p and p2p.
func chooseReading(cands []candidate, f2p, p2p []string, workdir string) (string, []testlog.Result, []string, []string) {
	best, bestN := -1, -1
	var bestF2P, bestP2P []string
	var bestResults []testlog.Result
	for i, c := range cands {
		ef, ep := ExpectedIDs(f2p, c.framework, workdir), ExpectedIDs(p2p, c.framework, workdir)
		want := map[string]bool{}
		for _, id := range ef {
			want[id] = true
		}
		for _, id := range ep {
			want[id] = true
		}
		results := c.results
		switch c.framework {
		case string(testlog.Pytest):
			results = applyAliases(results, want, testlog.PolyBenchPytestAlias)
		case string(testlog.Unittest):
			results = applyAliases(results, want, unittest311Alias)
		case string(testlog.Jest):
			results = applyAliases(results, want, absoluteJestAlias(want))
		}
		if n := countMatches(results, want); n > bestN {
			best, bestN, bestF2P, bestP2P, bestResults = i, n, ef, ep, results
		}
	}
	if best < 0 {
		return "", nil, ExpectedIDs(f2p, "", workdir), ExpectedIDs(p2p, "", workdir)
	}
	return cands[best].framework, bestResults, bestF2P, bestP2P
}

// applyAliases renames a result to alias(id) when that id is expected and
// its own is not, so that data recorded by SWE-PolyBench's parsers
// matches: for pytest the id its pattern reads (testlog.PolyBenchPytestAlias:
// "pkg/test_a.py" for "my-pkg/test_a.py", "test_x" for "test_x[0.5]"), for
// unittest the class path Python 3.11+ prints (unittest311Alias). Several
// results may take the same alias; the graders treat them as repeated
// reports of one test.
func applyAliases(results []testlog.Result, want map[string]bool, alias func(string) string) []testlog.Result {
	var out []testlog.Result
	for i, r := range results {
		if want[r.ID] {
			continue
		}
		if a := alias(r.ID); a != r.ID && want[a] {
			if out == nil {
				out = append([]testlog.Result(nil), results...)
			}
			out[i].ID = a
		}
	}
	if out == nil {
		return results
	}
	return out
}

// unittest311Alias returns the id SWE-PolyBench's unittest pattern reads
// from Python 3.11+'s verbose lines, whose class path ends in the method
// name ("test_x (pkg.C.test_x) ... ok" is read as "pkg.C.test_x:test_x:");
// testlog drops that repetition ("pkg.C:test_x:").
func unittest311Alias(id string) string {
	parts := strings.SplitN(id, ":", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
		return id
	}
	return parts[0] + "." + parts[1] + ":" + parts[1] + ":" + parts[2]
}

// absoluteJestAlias matches relative Jest ids ("test/a.test.ts->adds") to
// expected ids that carry an absolute test path ("/testbed/test/a.test.ts->
// adds", SWE-PolyBench's spelling) when the dataset gives no Dockerfile
// WORKDIR to strip: the alias of a parsed id is the expected absolute id
// whose path ends in "/" plus the parsed path, when exactly one does.
func absoluteJestAlias(want map[string]bool) func(string) string {
	bySuffix := map[string]string{}
	ambiguous := map[string]bool{}
	for e := range want {
		file, name, ok := strings.Cut(e, "->")
		if !ok || !strings.HasPrefix(file, "/") {
			continue
		}
		for i := 1; i < len(file); i++ {
			if file[i-1] != '/' {
				continue
			}
			k := file[i:] + "->" + name
			if prev, dup := bySuffix[k]; dup && prev != e {
				ambiguous[k] = true
			}
			bySuffix[k] = e
		}
	}
	return func(id string) string {
		if e, ok := bySuffix[id]; ok && !ambiguous[id] {
			return e
		}
		return id
	}
}

// addDissent appends to the chosen reading's results every FAILED or
// ERROR result that another reading of the same run gives an expected test
// (f2p ∪ p2p, as the chosen reading spells them): a JUnit file written
// during the run by the code under test cannot outvote the log, nor the
// log a report file; the conflicting statuses then fail the test in every
// mode (harden).
func addDissent(cands []candidate, chosen string, results []testlog.Result, f2p, p2p []string) []testlog.Result {
	want := map[string]bool{}
	for _, id := range append(append([]string{}, f2p...), p2p...) {
		want[id] = true
	}
	for _, c := range cands {
		if c.framework == chosen {
			continue
		}
		for _, r := range c.results {
			if want[r.ID] && (r.Status == testlog.Failed || r.Status == testlog.Error) {
				results = append(results, r)
			}
		}
	}
	return results
}

// logReadings returns the readings of a run's log: parsed by the framework
// detected in it, then for TAP the way SWE-PolyBench reads it (ids with
// test numbers). Ids are made relative to the work tree ws.
func logReadings(log []byte, ws string) (cands []candidate) {
	if fw, ok := testlog.Detect(log); ok {
		if rs, err := testlog.Parse(fw, log); err == nil {
			cands = append(cands, candidate{string(fw), testlog.TrimWorkspace(rs, ws)})
		}
		if fw == testlog.TAP {
			cands = append(cands, candidate{string(testlog.TAP), testlog.PolyBenchTAP(log)})
		}
	}
	return cands
}

// withLogParser adds, for a row with a test_command that names a SWE-bench
// log_parser, the reading of the log by that parser (framework
// "swebench:<name>", ids as SWE-bench spells them) after the others:
// chooseReading takes it when it names more of the expected tests (a
// published PASS_TO_PASS list with "[100%]"), the earlier readings on a
// tie. A log_parser polynfi does not implement adds a note instead.
func withLogParser(cands []candidate, in dataset.Instance, log []byte, notes []string) ([]candidate, []string) {
	switch {
	case in.LogParser == "":
		return cands, notes
	case !testlog.SWEBenchParserKnown(in.LogParser):
		return cands, append(notes, fmt.Sprintf("log_parser %q is not one polynfi implements: the framework was detected from the log", in.LogParser))
	}
	rs, err := testlog.ParseSWEBench(in.LogParser, []byte(UniversalNewlines(log)), testlog.SWEBenchContext{InstanceID: in.InstanceID, Version: in.Version})
	if err != nil {
		return cands, append(notes, fmt.Sprintf("%s could not read the log: %v", in.LogParser, err))
	}
	return append(cands, candidate{"swebench:" + in.LogParser, rs}), notes
}
