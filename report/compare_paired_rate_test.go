package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// "compare with an interrupted side puts rates over different instance
// sets next to each other (A 8/8 over 8 units, B 0/1, 1 pair)." A resolves
// all 8 units; B evaluated one (unresolved) before it was interrupted. The
// sides' rates stay over their own units, and every format also gives
// both over the one pair (A 1/1, B 0/1) and says the sets differ.
func TestCompareRatesOverThePairs(t *testing.T) {
	t.Parallel()
	var a, b []CompareUnit
	for i := 0; i < 8; i++ {
		k := fmt.Sprintf("i-%d#0", i)
		a = append(a, CompareUnit{Key: k, Instance: fmt.Sprintf("i-%d", i), Resolved: true, Outcome: "resolved"})
		b = append(b, CompareUnit{Key: k, Instance: fmt.Sprintf("i-%d", i), Outcome: "unresolved", NotEvaluated: i > 0})
	}
	c := Compare("A", a, "B", b)
	c.SetInterrupted(false, true)
	if c.A.Units != 8 || c.B.Units != 1 || c.Paired != 1 || c.PairedResolvedA != 1 || c.PairedResolvedB != 0 {
		t.Fatalf("A %d units, B %d, %d pairs, paired resolved A %d B %d; want 8, 1, 1, 1, 0", c.A.Units, c.B.Units, c.Paired, c.PairedResolvedA, c.PairedResolvedB)
	}
	page := c.Page("t")
	want := []string{"over the same 1 paired units: A resolved 1/1 (100.0%), B 0/1 (0.0%)", ColPairedRate, "1/1 (100.0%)", "0/1 (0.0%)"}
	for name, w := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return WritePageText(b, page) },
		"markdown": func(b *bytes.Buffer) error { return WritePageMarkdown(b, page) },
		"html":     func(b *bytes.Buffer) error { return WriteHTML(b, page) },
	} {
		var buf bytes.Buffer
		if err := w(&buf); err != nil {
			t.Fatal(err)
		}
		for _, s := range want {
			if !strings.Contains(buf.String(), s) {
				t.Errorf("%s: no %q:\n%s", name, s, buf.String())
			}
		}
	}
	js, _ := json.Marshal(c)
	if !strings.Contains(string(js), `"paired_resolved_a":1,"paired_resolved_b":0`) {
		t.Errorf("JSON: %s", js)
	}
	// Same units on both sides: no extra line or column.
	full := Compare("A", a, "B", a)
	if l := full.PairedRatesLine(); l != "" {
		t.Errorf("same units: %q", l)
	}
}
