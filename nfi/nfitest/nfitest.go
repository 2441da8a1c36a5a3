// Package nfitest checks rules against fixtures, in the style of
// x/tools' analysistest: a fixture is a Python file whose flagged lines carry
// a comment `# want "RULE-ID"`; every other line must stay silent, so one
// fixture is both the positive and the negative test.
//
// Expectation forms, in a comment anywhere on a line:
//
//	# want "LOG-P01"            one diagnostic on this line
//	# want "LOG-P01" "LOG-P01"  two diagnostics on this line
//	# want:12 "STY-P01"         one diagnostic on line 12 (for lines that
//	                            cannot carry a comment, e.g. trailing spaces)
package nfitest

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

var wantRE = regexp.MustCompile(`(?:#|//)\s*want(?::(\d+))?((?:\s+"(?:[A-Z]{2,4}-)?[A-Z]{3}-[RPT]\d\d")+)`)
var idRE = regexp.MustCompile(`"((?:[A-Z]{2,4}-)?[A-Z]{3}-[RPT]\d\d)"`)

// Expectations parses the want comments of src into line → sorted rule IDs.
func Expectations(src string) map[int][]string {
	want := map[int][]string{}
	for i, line := range strings.Split(src, "\n") {
		for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
			ln := i + 1
			if m[1] != "" {
				ln, _ = strconv.Atoi(m[1])
			}
			for _, id := range idRE.FindAllStringSubmatch(m[2], -1) {
				want[ln] = append(want[ln], id[1])
			}
		}
	}
	for _, v := range want {
		sort.Strings(v)
	}
	return want
}

// Engine returns an engine that runs only rule r with default settings
// (plus options, when given).
func Engine(t testing.TB, r *nfi.Rule, options map[string]any) *nfi.Engine {
	t.Helper()
	s := nfi.Settings{}
	if options != nil {
		s.Options = map[string]map[string]any{r.ID: options}
	}
	e, err := nfi.NewEngine(&nfi.Catalog{Version: "test", Rules: []*nfi.Rule{r}}, s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// ScoreSource runs rule r alone on src (as file path) and returns its result.
// It fails the test when src does not parse.
func ScoreSource(t testing.TB, r *nfi.Rule, path, src string) nfi.RuleResult {
	t.Helper()
	e := Engine(t, r, nil)
	p := syntax.NewParser()
	defer p.Close()
	fs := e.Score(p, path, []byte(src))
	if !fs.Valid {
		t.Fatalf("%s: not valid %v: %v", path, nfi.SourceLanguage(path), fs.Error)
	}
	return fs.Rules[0]
}

// Run checks rule r against the fixture file at path: the diagnostics must
// fall exactly on the lines the want comments name, as many as they name.
func Run(t *testing.T, r *nfi.Rule, path string) {
	t.Helper()
	RunWithOptions(t, r, path, nil)
}

// RunWithOptions is Run with per-rule options set.
func RunWithOptions(t *testing.T, r *nfi.Rule, path string, options map[string]any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("fixture for %s: %v", r.ID, err)
	}
	e := Engine(t, r, options)
	p := syntax.NewParser()
	defer p.Close()
	fs := e.Score(p, path, data)
	if !fs.Valid {
		t.Fatalf("%s: fixture does not parse: %v", path, fs.Error)
	}
	got := map[int][]string{}
	msgs := map[int][]string{}
	for _, d := range fs.Rules[0].Diagnostics {
		got[d.Line] = append(got[d.Line], d.RuleID)
		msgs[d.Line] = append(msgs[d.Line], d.Message)
	}
	want := Expectations(string(data))
	for _, v := range want {
		for _, id := range v {
			if id != r.ID {
				t.Fatalf("%s: want comment names %s in a fixture of %s", path, id, r.ID)
			}
		}
	}
	lines := map[int]bool{}
	for l := range got {
		lines[l] = true
	}
	for l := range want {
		lines[l] = true
	}
	var sorted []int
	for l := range lines {
		sorted = append(sorted, l)
	}
	sort.Ints(sorted)
	for _, l := range sorted {
		if g, w := len(got[l]), len(want[l]); g != w {
			t.Errorf("%s:%d: got %d diagnostics, want %d %s", path, l, g, w, fmtMsgs(msgs[l]))
		}
	}
	if len(want) == 0 {
		t.Errorf("%s: fixture has no want comment; add at least one flagged line", path)
	}
	if len(fs.Rules[0].Diagnostics) > 0 == fs.Rules[0].Passed {
		t.Errorf("%s: Passed=%v disagrees with %d diagnostics", path, fs.Rules[0].Passed, len(fs.Rules[0].Diagnostics))
	}
}

func fmtMsgs(m []string) string {
	if len(m) == 0 {
		return ""
	}
	return fmt.Sprintf("(got: %q)", m)
}

// CheckDoc verifies a rule's documented examples: the rule must fail Doc.Bad
// and pass Doc.Good.
func CheckDoc(t *testing.T, r *nfi.Rule) {
	t.Helper()
	example := ExamplePath(r)
	if res := ScoreSource(t, r, example, r.Doc.Bad); res.Passed {
		t.Errorf("%s: Doc.Bad passes the rule:\n%s", r.ID, r.Doc.Bad)
	}
	if res := ScoreSource(t, r, example, r.Doc.Good); !res.Passed {
		t.Errorf("%s: Doc.Good fails the rule: %v\n%s", r.ID, res.Diagnostics, r.Doc.Good)
	}
}

// ExamplePath is the file name a rule's documented examples are scored
// as: example.py, example.js for a rule that judges JavaScript,
// example.ts for one of TypeScript only.
func ExamplePath(r *nfi.Rule) string {
	switch {
	case r.Judges(syntax.Python):
		return "example.py"
	case r.Judges(syntax.JavaScript):
		return "example.js"
	case r.Judges(syntax.TypeScript):
		return "example.ts"
	}
	return "example.java"
}
