package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/runrecord"
)

// interruptedRun is a run of 8 instances, 2 per language (Java,
// JavaScript, Python, TypeScript), every one submitted; the first
// `recorded` Java units have a record (the first resolved, the second
// not). complete marks the run as finished; with submittedOnly the
// manifest lists units only for the Java instances (the others have no
// prediction: missing).
func interruptedRun(t *testing.T, recorded int, complete, submittedOnlyJava bool) *Harness {
	t.Helper()
	patch := "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"
	m := &runrecord.Manifest{Kind: runrecord.KindHarness, NativeMode: grading.ModePolyBench, Complete: complete}
	var recs []*runrecord.Record
	n := 0
	for _, lang := range []string{"Java", "JavaScript", "Python", "TypeScript"} {
		for i := 0; i < 2; i++ {
			in := dataset.Instance{InstanceID: fmt.Sprintf("o__%s-%d", strings.ToLower(lang), i), Repo: "o/r", Language: lang, TaskCategory: "Bug Fix", Patch: patch}
			m.Instances = append(m.Instances, runrecord.ManifestInstance{InstanceID: in.InstanceID, Language: lang, TaskCategory: in.TaskCategory})
			if submittedOnlyJava && lang != "Java" {
				continue
			}
			k := harness.Job{Instance: in, Prediction: dataset.Prediction{InstanceID: in.InstanceID, ModelPatch: patch}}.Key()
			m.Units = append(m.Units, runrecord.ManifestUnit{Key: k})
			if lang == "Java" && n < recorded {
				st := grading.StatusUnresolved
				if n == 0 {
					st = grading.StatusResolved
				}
				v := grading.AllModes(st, "")
				if st == grading.StatusResolved {
					v.PolyBench.Resolved, v.SWEBench.Resolved, v.Strict.Resolved = true, true, true
				}
				recs = append(recs, &runrecord.Record{Key: k, Generation: true, PatchApplied: true, Test: &runrecord.TestRun{Isolation: "none"}, Verdicts: v})
				n++
			}
		}
	}
	return BuildHarness(HarnessInput{Manifest: m, Records: recs})
}

// TestInterruptedNotEvaluatedNotFailures: in an interrupted run (2 of 8
// units evaluated, 1 resolved) the units never run are not failures: the
// headline says "resolved 1/2 evaluated; 6 not evaluated: interrupted"
// (not "1/8 (12.5%, CI 2.2–47.1%)"), languages with nothing evaluated
// show "–" and draw no bar (not a 0.0% bar with CI 0–65.8%), with 0
// records the rate is "–" (not "0/8 (0.0%, CI 0.0–32.4%)"), and every
// format keeps the interrupted notice. A finished run's missing
// predictions still count as unresolved (the spec's definition).
func TestInterruptedNotEvaluatedNotFailures(t *testing.T) {
	t.Parallel()
	r := interruptedRun(t, 2, false, false)
	ms := r.Polynfi.Modes[grading.ModePolyBench]
	if ms.Resolved != 1 || ms.Total != 2 || ms.NotEvaluated != 6 || ms.Rate != 0.5 {
		t.Errorf("native mode: resolved %d / total %d, not evaluated %d, rate %v; want 1/2, 6, 0.5", ms.Resolved, ms.Total, ms.NotEvaluated, ms.Rate)
	}
	head := strings.Join(HarnessHeadline(r), "\n")
	if !strings.Contains(head, "resolved 1/2 evaluated; 6 not evaluated: interrupted (50.0%, 95% CI") || strings.Contains(head, "1/8") {
		t.Errorf("headline:\n%s", head)
	}
	page := HarnessPage(r, true)
	var pass *Table
	for i := range page.Tables {
		if page.Tables[i].ID == TablePassLanguage {
			pass = &page.Tables[i]
		}
	}
	if pass == nil {
		t.Fatal("no pass-rate table")
	}
	if h := pass.Header; h[len(h)-1] != "not evaluated" {
		t.Errorf("pass table header %v has no not-evaluated column", h)
	}
	for _, row := range pass.Rows {
		switch row[0] {
		case "Java":
			if row[2] != "2" || row[3] != "50.0%" || row[len(row)-1] != "0" {
				t.Errorf("Java row %v", row)
			}
		default:
			if row[2] != "0" || row[3] != Dash || row[4] != Dash || row[len(row)-1] != "2" {
				t.Errorf("%s row %v: want total 0, rate and CI %s, 2 not evaluated", row[0], row, Dash)
			}
		}
	}
	if len(page.Charts) == 0 {
		t.Fatal("no chart")
	}
	for _, b := range page.Charts[0].Series[0].Bars {
		lang := pass.Rows[b.Ref.Row][0]
		if (lang == "Java") != b.OK {
			t.Errorf("%s: bar drawn %v (value %v, CI %+v)", lang, b.OK, b.Value, b.CI)
		}
	}
	var html bytes.Buffer
	if err := WriteHTML(&html, page); err != nil {
		t.Fatal(err)
	}
	if strings.Count(html.String(), `class="absent"`) < 3 || !strings.Contains(html.String(), "interrupted, 6 not evaluated, re-run to resume") {
		t.Errorf("html: %d absent marks, notice %v", strings.Count(html.String(), `class="absent"`), strings.Contains(html.String(), "re-run to resume"))
	}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return WritePageText(b, HarnessPage(r, false)) },
		"markdown": func(b *bytes.Buffer) error { return WritePageMarkdown(b, page) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "interrupted, 6 not evaluated, re-run to resume") || !strings.Contains(b.String(), "1/2 evaluated; 6 not evaluated: interrupted (") {
			t.Errorf("%s lacks the notice or the evaluated count:\n%s", name, b.String())
		}
	}

	// Nothing evaluated: no rate at all.
	z := interruptedRun(t, 0, false, false)
	head = strings.Join(HarnessHeadline(z), "\n")
	if !strings.Contains(head, "resolved 0/0 evaluated; 8 not evaluated: interrupted ("+Dash+", 95% CI "+Dash+")") || strings.Contains(head, "0/8") {
		t.Errorf("headline with no record:\n%s", head)
	}

	// A finished run: the 6 instances without a prediction are missing,
	// unresolved, in the denominator.
	f := interruptedRun(t, 2, true, true)
	if ms := f.Polynfi.Modes[grading.ModePolyBench]; ms.Total != 8 || ms.Resolved != 1 || ms.NotEvaluated != 0 {
		t.Errorf("finished run with missing predictions: %+v", ms)
	}
	head = strings.Join(HarnessHeadline(f), "\n")
	if !strings.Contains(head, "resolved 1/8 (12.5%") || strings.Contains(head, "not evaluated (") {
		t.Errorf("finished run headline:\n%s", head)
	}
}
