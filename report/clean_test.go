package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/harness"
)

// TestCleanRates: resolved units split by what the audit said of their run.
func TestCleanRates(t *testing.T) {
	rec := func(model, id string, run int, resolved bool) *harness.Record {
		return &harness.Record{Key: harness.Key{Model: model, InstanceID: id, Run: run}, Resolved: resolved}
	}
	recs := []*harness.Record{
		rec("a", "x", 0, true), rec("a", "x", 1, true), rec("a", "y", 0, false), rec("a", "y", 1, true),
		rec("b", "x", 0, true),
	}
	verdict := func(model, id string, run int) AuditVerdict {
		switch {
		case model == "a" && id == "x" && run == 1:
			return AuditFlagged
		case model == "a" && id == "y" && run == 0:
			return AuditFlagged
		case model == "a" && id == "y" && run == 1:
			return AuditUnaudited
		}
		return AuditClean
	}
	got := CleanRates(recs, verdict)
	if len(got) != 2 {
		t.Fatalf("%+v", got)
	}
	a := got[0]
	if a.Model != "a" || a.Units != 4 || a.Resolved != 3 || a.ResolvedClean != 1 || a.ResolvedFlagged != 1 || a.ResolvedUnaudited != 1 || a.Flagged != 2 {
		t.Errorf("a: %+v", a)
	}
	if r, _ := a.ResolvedRate(); r != 0.75 {
		t.Errorf("a resolved rate %v", r)
	}
	if r, _ := a.CleanResolvedRate(); r != 0.25 {
		t.Errorf("a clean rate %v", r)
	}
	if b := got[1]; b.Model != "b" || b.ResolvedClean != 1 || b.Units != 1 {
		t.Errorf("b: %+v", b)
	}
	var buf bytes.Buffer
	RenderCleanRates(&buf, got)
	if !strings.Contains(buf.String(), "3 (75.0%)") || !strings.Contains(buf.String(), "1 (25.0%)") {
		t.Errorf("table:\n%s", buf.String())
	}
}
