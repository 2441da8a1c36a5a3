// Package testreport reads the event stream of `go test -json` (the
// test2json format): a one-line-per-package summary with the output of
// every failed test, and the slowest tests. make test saves the stream in
// out/test.json; make slowest lists its slowest tests.
package testreport

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Event is one line of `go test -json` (cmd/test2json's TestEvent).
type Event struct {
	Time    time.Time `json:"Time"`
	Action  string    `json:"Action"` // run, pause, cont, pass, bench, fail, output, skip, start, build-output, build-fail
	Package string    `json:"Package"`
	Test    string    `json:"Test"`
	Elapsed float64   `json:"Elapsed"` // seconds, on pass, fail and skip
	Output  string    `json:"Output"`
}

// Test is the outcome of one test (or, with Test "", one package).
type Test struct {
	Package, Test string
	Action        string  // pass, fail or skip
	Elapsed       float64 // seconds
}

// Summary is what Summarize found: the finished tests and packages, and
// whether anything failed (a test, a package, a build).
type Summary struct {
	Tests    []Test // tests in the order they finished
	Packages []Test // packages in the order they finished
	Failed   bool
}

// Summarize reads events from r, writes to w one line per finished
// package ("ok", "FAIL" or "?" with its time) and, as it fails, the output
// of each failed test, package and build, and of the tests a failed
// package left unfinished (under -timeout, go's panic "test timed out
// after ..." and "running tests: TestX" is the hung test's output). Lines that are
// not JSON (go's own messages) are copied through. It returns what it saw;
// an error only when r or w fail.
func Summarize(r io.Reader, w io.Writer) (Summary, error) {
	var s Summary
	out := map[string]*strings.Builder{} // package + "\x00" + test → output so far
	key := func(e Event) string { return e.Package + "\x00" + e.Test }
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e Event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			if _, err := fmt.Fprintf(w, "%s\n", line); err != nil {
				return s, err
			}
			continue
		}
		switch e.Action {
		case "output", "build-output":
			b := out[key(e)]
			if b == nil {
				b = &strings.Builder{}
				out[key(e)] = b
			}
			b.WriteString(e.Output)
		case "build-fail":
			s.Failed = true
			var err error
			if b := out[key(e)]; b != nil {
				_, err = io.WriteString(w, b.String())
			}
			if err != nil {
				return s, err
			}
		case "pass", "fail", "skip":
			t := Test{Package: e.Package, Test: e.Test, Action: e.Action, Elapsed: e.Elapsed}
			b := out[key(e)]
			delete(out, key(e))
			if e.Test != "" {
				s.Tests = append(s.Tests, t)
				if e.Action == "fail" && b != nil {
					if _, err := io.WriteString(w, b.String()); err != nil {
						return s, err
					}
				}
				continue
			}
			s.Packages = append(s.Packages, t)
			var err error
			switch e.Action {
			case "pass":
				_, err = fmt.Fprintf(w, "ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
			case "skip":
				_, err = fmt.Fprintf(w, "?   \t%s\t[no test files]\n", e.Package)
			case "fail":
				s.Failed = true
				// the tests of the package that never ended: the one
				// that hung holds go's timeout panic naming it
				var pending []string
				for k := range out {
					if strings.HasPrefix(k, e.Package+"\x00") {
						pending = append(pending, k)
					}
				}
				sort.Strings(pending)
				for _, k := range pending {
					if _, err = io.WriteString(w, out[k].String()); err != nil {
						return s, err
					}
					delete(out, k)
				}
				// the package's own output (TestMain's failure, go's
				// FAIL line)
				text := ""
				if b != nil {
					text = b.String()
				}
				if _, err = io.WriteString(w, text); err != nil {
					return s, err
				}
				if !strings.Contains(text, "FAIL\t"+e.Package) {
					_, err = fmt.Fprintf(w, "FAIL\t%s\t%.3fs\n", e.Package, e.Elapsed)
				}
			}
			if err != nil {
				return s, err
			}
		}
	}
	return s, sc.Err()
}

// Slowest returns the n slowest tests of s (subtests included, which a
// parent's time also counts), slowest first; ties in package and name
// order.
func Slowest(s Summary, n int) []Test {
	ts := append([]Test(nil), s.Tests...)
	sort.SliceStable(ts, func(i, j int) bool {
		if ts[i].Elapsed != ts[j].Elapsed {
			return ts[i].Elapsed > ts[j].Elapsed
		}
		if ts[i].Package != ts[j].Package {
			return ts[i].Package < ts[j].Package
		}
		return ts[i].Test < ts[j].Test
	})
	if n >= 0 && len(ts) > n {
		ts = ts[:n]
	}
	return ts
}
