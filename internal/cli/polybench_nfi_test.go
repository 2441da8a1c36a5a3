package cli

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/syntax"
)

// TestPolyBenchReportNFIEveryLanguage: the report of the bundled
// SWE-PolyBench sample evaluated with gold (eval --nfi is on by default)
// gives the NFI columns, S_p before and after and I_p per aspect, for
// the Java, JavaScript and TypeScript instances as for the Python ones. A
// language the default catalog has no rule for (Java, until its catalog
// lands) says n/a in every aspect, never 0; the others have numbers, and
// S_p stays in [0, 1].
func TestPolyBenchReportNFIEveryLanguage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sample's real test suites")
	}
	t.Parallel()
	poly := sampleEval(t, "polybench-gold", "--dataset", "../../examples/polybench/dataset.csv", "--predictions", "gold", "--workers", "2")
	js, stderr, code := runCLI(t, "report", "--format", "json", poly)
	if code != ExitOK {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	var rep struct {
		Polynfi struct {
			NFI struct {
				ByLanguage []struct {
					Language string `json:"language"`
					Units    int    `json:"units"`
					Valid    int    `json:"valid"`
					NoRules  bool   `json:"no_rules"`
					Aspects  []struct {
						Aspect                     string
						N                          int
						Before, After, Improvement float64
					} `json:"aspects"`
				} `json:"by_language"`
			} `json:"nfi"`
		} `json:"polynfi"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Get(catalog.Default)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := nfi.NewEngine(cat, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	langs := map[string]syntax.Language{"Python": syntax.Python, "Java": syntax.Java, "JavaScript": syntax.JavaScript, "TypeScript": syntax.TypeScript}
	seen := map[string]bool{}
	for _, l := range rep.Polynfi.NFI.ByLanguage {
		seen[l.Language] = true
		if l.Units != 2 || l.Valid != 2 {
			t.Errorf("%s: units %d valid %d, want 2 and 2 (two gold patches per language, all parse)", l.Language, l.Units, l.Valid)
		}
		hasRules := eng.HasRules(langs[l.Language])
		if l.NoRules == hasRules {
			t.Errorf("%s: no_rules %v, but the catalog has rules for it: %v", l.Language, l.NoRules, hasRules)
		}
		scored := 0
		for _, a := range l.Aspects {
			if a.N > 0 {
				scored++
				if a.Before < 0 || a.Before > 1 || a.After < 0 || a.After > 1 || math.Abs(a.Improvement-(a.After-a.Before)) > 1e-9 {
					t.Errorf("%s %s: before %v after %v I_p %v", l.Language, a.Aspect, a.Before, a.After, a.Improvement)
				}
			}
		}
		if hasRules && scored != len(nfi.Aspects) {
			t.Errorf("%s: %d aspects scored, want all %d", l.Language, scored, len(nfi.Aspects))
		}
		if !hasRules && scored != 0 {
			t.Errorf("%s has no rules but %d aspects scored", l.Language, scored)
		}
	}
	for l := range langs {
		if !seen[l] {
			t.Errorf("no NFI columns for %s: %+v", l, rep.Polynfi.NFI.ByLanguage)
		}
	}
	// The text report's table: one row per language; a language without
	// rules shows n/a in its cells, not 0.
	text, _, code := runCLI(t, "report", poly)
	if code != ExitOK {
		t.Fatalf("report: exit %d", code)
	}
	i := strings.Index(text, "NFI by language")
	if i < 0 {
		t.Fatalf("no NFI by-language table:\n%s", text)
	}
	table, _, _ := strings.Cut(text[i:], "\n\n")
	for l, lang := range langs {
		row := ""
		for _, line := range strings.Split(table, "\n") {
			if strings.HasPrefix(line, l+" ") {
				row = line
			}
		}
		if row == "" {
			t.Errorf("no %s row in the NFI by-language table", l)
			continue
		}
		if got := strings.Count(row, "n/a"); eng.HasRules(lang) == (got > 0) {
			t.Errorf("%s row has %d n/a cells (rules: %v): %s", l, got, eng.HasRules(lang), row)
		}
	}
}
