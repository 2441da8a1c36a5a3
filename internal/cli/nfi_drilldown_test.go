package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfirecord"
)

// TestNFIPerRunDrillDown: an SWE-NFI suite run's report has the per-run
// drill-down in every format (text with --instances, Markdown, HTML and
// JSON): one line per (task, agent, run) with validity, functional
// pass/fail and why, I_p, and links to the stored log and record. Before,
// `report --instances` printed nothing per run, Markdown and HTML had no
// per-run table and report.json held only "records": 72.
func TestNFIPerRunDrillDown(t *testing.T) {
	t.Parallel()
	run := nfiSampleRun(t)
	records, bad, err := nfirecord.ReadRecords(run)
	if err != nil || len(bad) > 0 || len(records) == 0 {
		t.Fatalf("records: %d, unreadable %v, %v", len(records), bad, err)
	}
	// JSON: a per-run array, one entry per record, agreeing with it.
	s, stderr, code := runCLI(t, "report", "--format", "json", run)
	if code != ExitOK {
		t.Fatalf("report json: exit %d\n%s", code, stderr)
	}
	var doc struct {
		Runs []struct {
			InstanceID    string             `json:"instance_id"`
			Model         string             `json:"model_name_or_path"`
			Run           int                `json:"run"`
			Valid         bool               `json:"valid"`
			InvalidReason string             `json:"invalid_reason"`
			Tested        bool               `json:"tested"`
			TestStatus    string             `json:"test_status"`
			Correct       bool               `json:"functionally_correct"`
			Reason        string             `json:"reason"`
			Improvement   map[string]float64 `json:"improvement"`
			Record        string             `json:"record"`
			Log           string             `json:"log"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != len(records) {
		t.Fatalf("json runs: %d entries for %d records", len(doc.Runs), len(records))
	}
	byKey := map[string]nfirecord.Record{}
	for _, r := range records {
		byKey[r.Model+"/"+r.InstanceID+"/"+itoaTest(r.Run)] = r
	}
	var invalid, failed, correct int
	var anInvalid, aFailed string // "model/instance/run"
	for _, u := range doc.Runs {
		k := u.Model + "/" + u.InstanceID + "/" + itoaTest(u.Run)
		r, ok := byKey[k]
		if !ok {
			t.Fatalf("run %s has no record", k)
		}
		if u.Valid != r.Valid || u.Correct != r.FunctionallyCorrect || u.TestStatus != r.TestStatus || u.InvalidReason != r.InvalidReason {
			t.Errorf("run %s: %+v, record %+v", k, u, r)
		}
		if u.Reason == "" {
			t.Errorf("run %s: no reason", k)
		}
		if _, err := os.Stat(filepath.Join(run, u.Record)); err != nil {
			t.Errorf("run %s: record link %q: %v", k, u.Record, err)
		}
		if r.Tested && r.TestStatus != "error" {
			if u.Log == "" {
				t.Errorf("run %s: tests ran but no log link", k)
			} else if b, err := os.ReadFile(filepath.Join(run, u.Log)); err != nil || !strings.Contains(string(b), "exited with status code") {
				t.Errorf("run %s: log link %q does not hold the test log: %v", k, u.Log, err)
			}
		} else if u.Log != "" {
			t.Errorf("run %s: tests never ran, but log %q", k, u.Log)
		}
		switch {
		case !u.Valid:
			invalid++
			anInvalid = k
			if !strings.Contains(u.Reason, r.InvalidReason) || (r.InvalidDetail != "" && !strings.Contains(u.Reason, strings.Join(strings.Fields(r.InvalidDetail), " "))) {
				t.Errorf("run %s: reason %q does not say %s: %s", k, u.Reason, r.InvalidReason, r.InvalidDetail)
			}
			if u.Improvement != nil {
				t.Errorf("run %s: invalid run with I_p", k)
			}
		case !u.Correct:
			failed++
			aFailed = k
			if u.Improvement != nil {
				t.Errorf("run %s: incorrect run with I_p", k)
			}
		default:
			correct++
			if len(u.Improvement) != 5 {
				t.Errorf("run %s: correct run with I_p %v", k, u.Improvement)
			}
		}
	}
	if invalid == 0 || failed == 0 || correct == 0 {
		t.Fatalf("the sample should have invalid (%d), failing (%d) and correct (%d) runs", invalid, failed, correct)
	}
	line := func(k string) (model, id, run string) {
		p := strings.Split(k, "/")
		return p[0], p[1], p[2]
	}
	// Text: nothing per run without --instances, every run with it.
	plain, _, _ := runCLI(t, "report", run)
	if strings.Contains(plain, "Runs: every") {
		t.Error("text report without --instances has the per-run table")
	}
	text, stderr, code := runCLI(t, "report", "--instances", run)
	if code != ExitOK || !strings.Contains(text, "Runs: every (task, agent, run)") {
		t.Fatalf("report --instances: exit %d, no per-run table\n%s\n%s", code, text, stderr)
	}
	for _, k := range []string{anInvalid, aFailed} {
		m, id, n := line(k)
		r := byKey[k]
		found := false
		for _, l := range strings.Split(text, "\n") {
			f := strings.Fields(l)
			if len(f) > 4 && f[0] == id && f[3] == m && f[4] == n {
				found = true
				if !strings.Contains(l, nfirecord.RecordRelPath(m, id, r.Run)) {
					t.Errorf("text line of %s lacks its record path: %s", k, l)
				}
				if r.Valid && !strings.Contains(l, "tests failed") && !strings.Contains(l, r.TestStatus) {
					t.Errorf("text line of %s does not say why it failed: %s", k, l)
				}
				if !r.Valid && !strings.Contains(l, "invalid ("+r.InvalidReason+")") {
					t.Errorf("text line of %s does not say why it is invalid: %s", k, l)
				}
			}
		}
		if !found {
			t.Errorf("report --instances has no line for %s", k)
		}
	}
	// Markdown and HTML: the table with links to the log and the record.
	m, id, n := line(aFailed)
	r := byKey[aFailed]
	logLink := "logs/" + nfirecord.LogName(id, m, r.Run)
	md, _, _ := runCLI(t, "report", "--format", "markdown", run)
	if !strings.Contains(md, "[log]("+logLink+")") || !strings.Contains(md, "[record]("+nfirecord.RecordRelPath(m, id, r.Run)+")") {
		t.Errorf("markdown lacks the log/record links of %s (run %s)", aFailed, n)
	}
	html, _, _ := runCLI(t, "report", "--format", "html", run)
	if !strings.Contains(html, `id="nfi-runs"`) || !strings.Contains(html, `href="`+logLink+`"`) {
		t.Errorf("html lacks the per-run table or the log link %s", logLink)
	}
	// The files eval wrote into the run directory carry it too.
	for _, f := range []string{"report.md", "report.html"} {
		b, err := os.ReadFile(filepath.Join(run, f))
		if err != nil || !strings.Contains(string(b), logLink) {
			t.Errorf("%s lacks the per-run table (%v)", f, err)
		}
	}
}

func itoaTest(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
