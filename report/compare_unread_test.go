package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/runrecord"
)

// "polynfi compare leaves unreadable dataset rows out of the pass rate
// while report counts them in its denominator (report: m1 2/10; compare:
// 2/8, with no word)." A run of two models over a dataset of one instance
// (a-1, missing for both) and three rows that could not be read or cannot
// run: report gives each model 0/4; compare gives each side the same 0/4,
// pairs only a-1, and says in every format that the 3 unreadable rows are
// counted unresolved in the rate and are in no pair.
func TestCompareCountsUnreadableRowsAsReportDoes(t *testing.T) {
	t.Parallel()
	m := runrecord.Manifest{Kind: runrecord.KindHarness, Complete: true,
		Instances: []runrecord.ManifestInstance{{InstanceID: "a-1", Language: "Python", TaskCategory: "Bug Fix"}}}
	m.UnreadableRows, m.NotRunnable = 2, 1
	m.UnreadRows = []runrecord.DatasetRow{
		{Kind: runrecord.RowUnreadable, Row: 2, InstanceID: "a-2", Language: "Java", Reason: "d.csv: row 2 [a-2]: field F2P: bad"},
		{Kind: runrecord.RowUnreadable, Row: 3, LanguageUnknown: true, TaskCategoryUnknown: true, Reason: "d.csv: row 3: has 3 fields"},
		{Kind: runrecord.RowNotRunnable, Row: 4, InstanceID: "a-4", Language: "Python", Reason: "cannot run: no test_command"},
	}
	for _, model := range []string{"m1", "m2"} {
		m.Units = append(m.Units, runrecord.ManifestUnit{Key: runrecord.Key{InstanceID: "z-9", Model: model}})
	}
	r := BuildHarness(HarnessInput{Manifest: &m})
	for _, mr := range r.Polynfi.Models {
		if ms := mr.Report.Polynfi.Modes[mr.Report.Polynfi.NativeMode]; ms.Total != 4 {
			t.Fatalf("report: model %s total %d, want 4", mr.Model, ms.Total)
		}
	}
	c := Compare("A", HarnessCompareUnits(r, "m1"), "B", HarnessCompareUnits(r, "m2"))
	for _, s := range []CompareSide{c.A, c.B} {
		if s.Units != 4 || s.Resolved != 0 || s.UnreadableRows != 3 {
			t.Errorf("side %s: %d/%d, %d unreadable; want 0/4 (report's denominator), 3 unreadable", s.Label, s.Resolved, s.Units, s.UnreadableRows)
		}
	}
	if c.Paired != 1 || len(c.Unpaired) != 0 {
		t.Errorf("paired %d, unpaired %v; want 1 pair (a-1), unreadable rows in no pair and not listed as unpaired", c.Paired, c.Unpaired)
	}
	page := c.Page("t")
	want := "3 unreadable dataset rows (counted unresolved in A's rate, as in report's) are in no pair"
	for name, w := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return WritePageText(b, page) },
		"markdown": func(b *bytes.Buffer) error { return WritePageMarkdown(b, page) },
		"html":     func(b *bytes.Buffer) error { return WriteHTML(b, page) },
	} {
		var b bytes.Buffer
		if err := w(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if name == "html" {
			out = strings.ReplaceAll(out, "&#39;", "'")
		}
		if !strings.Contains(out, want) || !strings.Contains(out, "0/4") {
			t.Errorf("%s: no %q or 0/4:\n%s", name, want, out)
		}
	}
	js, _ := json.Marshal(c)
	if !strings.Contains(string(js), `"unreadable_rows":3`) {
		t.Errorf("JSON has no unreadable_rows 3: %s", js)
	}
}
