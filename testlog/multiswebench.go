package testlog

import (
	"fmt"
	"sort"
)

// Multi-SWE-bench log readers.
//
// Multi-SWE-bench (release 1.1.2) reads a run's log with the parse_log
// method of the harness class registered for the instance's repository
// ("org/repo", or "org/<number_interval>" when the row sets that field):
// one class per repository and period, 2,000 of them. Their bodies fall
// into a few families per runner; each family is reproduced once here, in
// the file of its runner, under a reader name, and MultiSWEBenchReaderFor
// maps the registered names whose body is that family's to it. A name not
// in the table has a reading polynfi does not reproduce (an error, never a
// guess).
//
// A reading is three sets (passed, failed, skipped); the official
// TestResult refuses sets that share a test (ValueError in its
// __post_init__), which makes the instance's report invalid: ParseMultiSWEBench
// returns that as an error too.
//
// Source: multi-swe-bench 1.1.2 (PyPI wheel) multi_swe_bench/harness/
// instance.py (Instance.register, Instance.create), test_result.py
// (TestResult), repos/<language>/<org>/<repo>.py parse_log.

// MultiSWEBenchResult is a Multi-SWE-bench TestResult: its three sets of
// test names, each sorted.
type MultiSWEBenchResult struct {
	Passed  []string `json:"passed_tests"`
	Failed  []string `json:"failed_tests"`
	Skipped []string `json:"skipped_tests"`
}

// Results returns the reading as results: passed, then failed, then
// skipped, each in sorted order.
func (m MultiSWEBenchResult) Results() []Result {
	out := make([]Result, 0, len(m.Passed)+len(m.Failed)+len(m.Skipped))
	for _, t := range m.Passed {
		out = append(out, Result{ID: t, Status: Passed})
	}
	for _, t := range m.Failed {
		out = append(out, Result{ID: t, Status: Failed})
	}
	for _, t := range m.Skipped {
		out = append(out, Result{ID: t, Status: Skipped})
	}
	return out
}

// strSet is a Python set of str.
type strSet map[string]struct{}

func (s strSet) add(t string)      { s[t] = struct{}{} }
func (s strSet) has(t string) bool { _, ok := s[t]; return ok }
func (s strSet) sorted() []string {
	out := make([]string, 0, len(s))
	for t := range s {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// msweSets is what a parse_log builds before TestResult checks it.
type msweSets struct{ passed, failed, skipped strSet }

func newMSWESets() *msweSets { return &msweSets{strSet{}, strSet{}, strSet{}} }

// result is TestResult(...): an error when two sets share a test, in the
// order TestResult.__post_init__ checks them.
func (s *msweSets) result() (MultiSWEBenchResult, error) {
	both := func(a, b strSet, what string) error {
		for t := range a {
			if b.has(t) {
				return fmt.Errorf("%s tests share %q: Multi-SWE-bench's TestResult refuses the reading (ValueError), the report is invalid", what, t)
			}
		}
		return nil
	}
	if err := both(s.passed, s.failed, "passed and failed"); err != nil {
		return MultiSWEBenchResult{}, err
	}
	if err := both(s.passed, s.skipped, "passed and skipped"); err != nil {
		return MultiSWEBenchResult{}, err
	}
	if err := both(s.failed, s.skipped, "failed and skipped"); err != nil {
		return MultiSWEBenchResult{}, err
	}
	return MultiSWEBenchResult{Passed: s.passed.sorted(), Failed: s.failed.sorted(), Skipped: s.skipped.sorted()}, nil
}

type msweReader func(log string) *msweSets

// msweReaders maps reader names to their implementations; each runner's
// file registers its own (init).
var msweReaders = map[string]msweReader{}

// msweRepos maps Multi-SWE-bench's registered names ("org/repo",
// "org/<number_interval>") to reader names; each runner's file registers
// the names whose parse_log body is its family's.
var msweRepos = map[string]string{}

func registerMSWE(reader string, r msweReader, names ...string) {
	msweReaders[reader] = r
	for _, n := range names {
		msweRepos[n] = reader
	}
}

// MultiSWEBenchReaders lists the reader names, sorted.
func MultiSWEBenchReaders() []string {
	out := make([]string, 0, len(msweReaders))
	for n := range msweReaders {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// MultiSWEBenchRepos returns a copy of the table from registered names
// ("org/repo" or "org/<number_interval>") to reader names.
func MultiSWEBenchRepos() map[string]string {
	out := make(map[string]string, len(msweRepos))
	for k, v := range msweRepos {
		out[k] = v
	}
	return out
}

// MultiSWEBenchReaderFor returns the reader of a Multi-SWE-bench row as
// Instance.create picks its class: "org/<number_interval>" when
// numberInterval is set, else "org/repo". ok is false when polynfi does
// not reproduce that class's parse_log.
func MultiSWEBenchReaderFor(org, repo, numberInterval string) (reader string, ok bool) {
	name := org + "/" + repo
	if numberInterval != "" {
		name = org + "/" + numberInterval
	}
	reader, ok = msweRepos[name]
	return reader, ok
}

// ParseMultiSWEBench reads log with the Multi-SWE-bench reader called
// reader. The error is non-nil for an unknown reader and when the official
// TestResult would refuse the reading (a test in two sets).
func ParseMultiSWEBench(reader string, log []byte) (MultiSWEBenchResult, error) {
	r, ok := msweReaders[reader]
	if !ok {
		return MultiSWEBenchResult{}, fmt.Errorf("unknown Multi-SWE-bench reader %q", reader)
	}
	return r(string(log)).result()
}

// msweLines is parse_log's loop head: test_log.splitlines(), each line
// stripped.
func msweLines(log string) []string {
	lines := pySplitLines(log)
	for i, l := range lines {
		lines[i] = pyStrip(l)
	}
	return lines
}
