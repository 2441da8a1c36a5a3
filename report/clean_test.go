package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/runrecord"
)

// TestCleanRates: resolved units split by what the audit said of their run.
func TestCleanRates(t *testing.T) {
	rec := func(model, id string, run int, resolved bool) *runrecord.Record {
		return &runrecord.Record{Key: runrecord.Key{Model: model, InstanceID: id, Run: run}, Resolved: resolved}
	}
	recs := []*runrecord.Record{
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

// TestReadAuditVerdicts: audit.json's runs give each run's verdict (an
// unaudited run, or one not in the file, is never clean); a file that is
// not an audit report is an error, not a guess.
func TestReadAuditVerdicts(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	v, err := readAuditVerdicts(write("a.json", `{"runs": [
		{"model_name_or_path": "m", "instance_id": "x", "run": 0, "audited": true, "clean": true},
		{"model_name_or_path": "m", "instance_id": "y", "run": 0, "audited": true, "clean": false},
		{"model_name_or_path": "m", "instance_id": "z", "run": 0, "audited": false, "clean": false}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if v("m", "x", 0) != AuditClean || v("m", "y", 0) != AuditFlagged || v("m", "z", 0) != AuditUnaudited || v("m", "x", 1) != AuditUnaudited || v("n", "x", 0) != AuditUnaudited {
		t.Errorf("verdicts: %v %v %v %v", v("m", "x", 0), v("m", "y", 0), v("m", "z", 0), v("m", "x", 1))
	}
	for _, bad := range []string{`{"agents": []}`, `[1, 2]`, `{"runs": `} {
		if _, err := readAuditVerdicts(write("b.json", bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	lines := auditLines(&AuditRates{File: "/r/audit.json", Tampered: 2, Rates: []CleanRate{{Model: "m", Units: 4, Resolved: 3, ResolvedClean: 1, Flagged: 2, ResolvedFlagged: 2}}})
	if len(lines) != 2 || !strings.Contains(lines[0], "tampered units: 2") || !strings.Contains(lines[1], "m: resolved 3/4 (75.0%), resolved, clean 1/4 (25.0%); runs with findings 2 (resolved 2)") {
		t.Errorf("lines: %q", lines)
	}
}
