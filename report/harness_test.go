package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/retrieval"
)

func harnessFixture() *Harness {
	r := &Harness{SubmittedInstances: 3, CompletedInstances: 3}
	x := &r.Polynfi
	x.RunID, x.NativeMode = "r1", grading.ModePolyBench
	x.Modes = map[grading.Mode]*ModeSummary{
		grading.ModePolyBench: {Resolved: 2, Total: 3},
		grading.ModeSWEBench:  {Resolved: 1, Total: 3},
		grading.ModeStrict:    {Resolved: 1, Total: 3},
	}
	x.ByLanguage = []*Group{
		{Name: "Java", Total: 1, Resolved: map[grading.Mode]int{grading.ModePolyBench: 1, grading.ModeSWEBench: 0}},
		{Name: "Python", Total: 2, Resolved: map[grading.Mode]int{grading.ModePolyBench: 1, grading.ModeSWEBench: 1, grading.ModeStrict: 1}},
	}
	x.ByCategory = []*Group{{Name: "Bug Fix", Total: 3, Resolved: map[grading.Mode]int{grading.ModePolyBench: 2}}}
	x.Retrieval = &retrieval.Summary{
		Overall:    retrieval.Group{Name: "overall", Instances: 3, File: retrieval.Mean{N: 3, Precision: 0.5, Recall: 0.75, F1: 0.6}, Node: retrieval.Mean{N: 2, F1: 0.25}},
		ByLanguage: []retrieval.Group{{Name: "Java", Instances: 1, File: retrieval.Mean{N: 1, F1: 1}}, {Name: "Python", Instances: 2, File: retrieval.Mean{N: 2, F1: 0.4}, Node: retrieval.Mean{N: 2, F1: 0.25}}},
	}
	x.NFI = &NFISummary{Catalog: "c", Units: 2, Valid: 2,
		Mean:         []AspectMean{{Aspect: "DOC", N: 2, Mean: 0.125}, {Aspect: "ERR", N: 0}},
		MeanResolved: []AspectMean{{Aspect: "DOC", N: 1, Mean: -0.05}, {Aspect: "ERR", N: 0}}}
	x.Differing = []Differing{{ID: "a", Statuses: map[grading.Mode]grading.Status{grading.ModePolyBench: "resolved", grading.ModeSWEBench: "unresolved", grading.ModeStrict: "unresolved"}}}
	return r
}

func TestHarnessTables(t *testing.T) {
	t.Parallel()
	tables := HarnessTables(harnessFixture())
	byTitle := map[string]Table{}
	for _, tb := range tables {
		byTitle[tb.Title] = tb
	}
	rows := func(title string) [][]string {
		tb, ok := byTitle[title]
		if !ok {
			t.Fatalf("no table %q in %v", title, tables)
		}
		return tb.Rows
	}
	if d := cmp.Diff([][]string{
		{"Java", "1", "1", "100.0%", Dash, "1", "0", "0"},
		{"Python", "1", "2", "50.0%", Dash, "1", "1", "1"},
	}, rows("Pass rate by language (polybench grading)")); d != "" {
		t.Errorf("pass rate by language (-want +got):\n%s", d)
	}
	if d := cmp.Diff([][]string{
		{"all", "3", "0.50", "0.75", "0.60", "2", "0.00", "0.00", "0.25"},
		{"Java", "1", "0.00", "0.00", "1.00", "0", Dash, Dash, Dash},
		{"Python", "2", "0.00", "0.00", "0.40", "2", "0.00", "0.00", "0.25"},
	}, rows("Retrieval by language")); d != "" {
		t.Errorf("retrieval by language (-want +got):\n%s", d)
	}
	if d := cmp.Diff([][]string{{"all", "3", "0.50", "0.75", "0.60", "2", "0.00", "0.00", "0.25"}},
		rows("Retrieval by complexity class")); d != "" {
		t.Errorf("retrieval by complexity (-want +got):\n%s", d)
	}
	if d := cmp.Diff([][]string{{"DOC", "2", "+12.5", Dash, "1", "-5.0", Dash}, {"ERR", "0", Dash, Dash, "0", Dash, Dash}},
		rows("NFI improvement of the changed source files (I_p, pp; catalog c)")); d != "" {
		t.Errorf("nfi (-want +got):\n%s", d)
	}
	if d := cmp.Diff([][]string{{"a", "resolved", "unresolved", "unresolved"}}, rows("Verdicts that differ between modes")); d != "" {
		t.Errorf("differing (-want +got):\n%s", d)
	}
	if _, ok := byTitle["Pass rate by complexity class (polybench grading)"]; ok {
		t.Error("an empty complexity breakdown got a table")
	}
	head := strings.Join(HarnessHeadline(harnessFixture()), "\n")
	for _, want := range []string{"resolved 2/3 (66.7%, 95% CI –) under polybench grading", "swebench 1/3 (33.3%)", "submitted 3, completed 3"} {
		if !strings.Contains(head, want) {
			t.Errorf("headline lacks %q:\n%s", want, head)
		}
	}
}

func TestHarnessChartAndHTML(t *testing.T) {
	t.Parallel()
	r := harnessFixture()
	page := HarnessPage(r, true)
	if len(page.Charts) != 2 || len(page.Charts[0].Series) != 1 || len(page.Charts[1].Series) != 2 {
		t.Fatalf("charts %+v", page.Charts)
	}
	// Every bar shows its table cell.
	cells := map[string][][]string{}
	for _, tb := range page.Tables {
		cells[tb.ID] = tb.Rows
	}
	for _, c := range page.Charts {
		for _, s := range c.Series {
			for _, b := range s.Bars {
				if got := cells[b.Ref.Table][b.Ref.Row][b.Ref.Col]; got != b.Text {
					t.Errorf("%s %s: bar text %q, table cell %q", c.ID, s.Name, b.Text, got)
				}
			}
		}
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, page); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<caption>Retrieval by language</caption>", "<td>50.0%</td>", "<svg", `class="absent"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("html lacks %q", want)
		}
	}
	// Without retrieval metrics there is only the resolved-rate chart.
	r.Polynfi.Retrieval = nil
	if p := HarnessPage(r, false); len(p.Charts) != 1 {
		t.Errorf("charts without retrieval: %d", len(p.Charts))
	}
}

// TestChartTicks: tick labels carry the step's decimals, never float noise
// (the browser test found "0.6000000000000001" drawn outside the chart).
func TestChartTicks(t *testing.T) {
	t.Parallel()
	c := BarChart{ID: "c", Title: "t", Groups: []string{"g"}, Series: []BarSeries{{Name: "s", Bars: []Bar{{Value: 0.6, OK: true, Text: "0.60"}}}}}
	svg := string(c.SVG())
	for _, part := range strings.Split(svg, `class="tick"`)[1:] {
		label := part[strings.Index(part, ">")+1 : strings.Index(part, "<")]
		if len(label) > 3 {
			t.Errorf("tick label %q", label)
		}
	}
	for _, want := range []string{">0.2<", ">0.6<", `data-value="0.60"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %s", want)
		}
	}
}
