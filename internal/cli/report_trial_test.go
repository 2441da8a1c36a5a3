package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/report"
)

// Tests of the defects a new-user trial of issue #16 found, each written
// from the defect's description.

// wrongEchoPredictions writes predictions of model "wrong" for the first n
// instances of evalFixture: patches that apply but do not fix (a.txt says
// "three", the test wants "two").
func wrongEchoPredictions(t *testing.T, n int) string {
	t.Helper()
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		line, _ := json.Marshal(map[string]string{"instance_id": "acme__echo-" + string(rune('0'+i)), "model_name_or_path": "wrong",
			"model_patch": "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+three\n"})
		b.Write(append(line, '\n'))
	}
	p := filepath.Join(t.TempDir(), "wrong.jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// "One headline over several models stored in one --out: when two eval
// calls with different predictions (model_name_or_path) store into the
// same run directory, polynfi report OUT prints one headline (predictions
// gold, resolved 3/8 for 4 wrong-model + 4 gold units). The report must
// give per-model headlines/tables (one section per model, each with its
// own denominator). Check text, Markdown, HTML, JSON."
func TestReportOneSectionPerModel(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 4, "0")
	out := t.TempDir()
	for _, preds := range []string{"gold", wrongEchoPredictions(t, 4)} {
		if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", out); code != ExitOK {
			t.Fatalf("eval %s: exit %d\n%s", preds, code, stderr)
		}
	}
	pooled := regexp.MustCompile(`resolved \d+/8\b`)
	for _, format := range []string{"text", "markdown", "html"} {
		stdout, stderr, code := runCLI(t, "report", "--format", format, out)
		if code != ExitOK {
			t.Fatalf("report --format %s: exit %d\n%s", format, code, stderr)
		}
		if pooled.MatchString(stdout) {
			t.Errorf("report --format %s pools the two models into one denominator:\n%s", format, stdout)
		}
		gold, wrong := strings.Index(stdout, "model gold"), strings.Index(stdout, "model wrong")
		if gold < 0 || wrong < 0 {
			t.Fatalf("report --format %s has no section per model:\n%s", format, stdout)
		}
		// Each section has its own headline: gold resolves 4/4, wrong 0/4.
		if g := stdout[gold:wrong]; !strings.Contains(g, "resolved 4/4") {
			t.Errorf("report --format %s: the gold section lacks resolved 4/4:\n%s", format, g)
		}
		if w := stdout[wrong:]; !strings.Contains(w, "resolved 0/4") {
			t.Errorf("report --format %s: the wrong section lacks resolved 0/4:\n%s", format, w)
		}
	}
	stdout, _, code := runCLI(t, "report", "--format", "json", out)
	var rep report.Harness
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != ExitOK {
		t.Fatalf("json: exit %d, %v", code, err)
	}
	got := map[string][2]int{}
	for _, m := range rep.Polynfi.Models {
		got[m.Model] = [2]int{m.Report.ResolvedInstances, m.Report.Polynfi.Modes[m.Report.Polynfi.NativeMode].Total}
	}
	if len(got) != 2 || got["gold"] != [2]int{4, 4} || got["wrong"] != [2]int{0, 4} {
		t.Errorf("json per-model sections %v, want gold 4/4 and wrong 0/4", got)
	}
	// eval's own report.json and summary say the same.
	if r := readHarnessReport(t, out); len(r.Polynfi.Models) != 2 {
		t.Errorf("OUT/report.json has %d model sections, want 2", len(r.Polynfi.Models))
	}
	// A submission bundle is of one model: --model picks it.
	bundle := filepath.Join(t.TempDir(), "bundle")
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle, out); code != ExitUsage || !strings.Contains(stderr, "--model") {
		t.Errorf("--bundle of a two-model run without --model: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle, "--model", "wrong", out); code != ExitOK {
		t.Fatalf("--bundle --model wrong: exit %d\n%s", code, stderr)
	}
	var meta struct {
		Model    string `json:"model_name_or_path"`
		Total    int    `json:"total_instances"`
		Resolved int    `json:"resolved_polybench"`
	}
	mb, _ := os.ReadFile(filepath.Join(bundle, "polynfi", "metadata.json"))
	if err := json.Unmarshal(mb, &meta); err != nil || meta.Model != "wrong" || meta.Total != 4 || meta.Resolved != 0 {
		t.Errorf("bundle metadata %+v (%v), want wrong 0/4", meta, err)
	}
}

// "polynfi report --format json|html DIR1 DIR2 prints concatenated
// documents (invalid JSON / two <html>). Must produce one valid document
// (JSON: one object with a list of runs; HTML: one page with a section
// per run). Check markdown/text too for clarity."
func TestReportSeveralRunsOneDocument(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	parent := t.TempDir()
	a, b := filepath.Join(parent, "run-a"), filepath.Join(parent, "run-b")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", a); code != ExitOK {
		t.Fatal(stderr)
	}
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", wrongEchoPredictions(t, 2), "--out", b); code != ExitOK {
		t.Fatal(stderr)
	}
	stdout, stderr, code := runCLI(t, "report", "--format", "json", a, b)
	if code != ExitOK {
		t.Fatalf("json: exit %d\n%s", code, stderr)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	var doc struct {
		Runs []struct {
			Dir    string          `json:"dir"`
			Kind   string          `json:"kind"`
			Report json.RawMessage `json:"report"`
		} `json:"runs"`
	}
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("json: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Errorf("json: more than one document:\n%s", stdout)
	}
	if len(doc.Runs) != 2 || doc.Runs[0].Dir != a || doc.Runs[1].Dir != b {
		t.Fatalf("json runs %+v, want %s and %s", doc.Runs, a, b)
	}
	for i, want := range []int{2, 0} {
		var r report.Harness
		if err := json.Unmarshal(doc.Runs[i].Report, &r); err != nil || r.ResolvedInstances != want || doc.Runs[i].Kind != "harness" {
			t.Errorf("run %d: kind %q resolved %d (%v), want harness %d", i, doc.Runs[i].Kind, r.ResolvedInstances, err, want)
		}
	}
	stdout, _, code = runCLI(t, "report", "--format", "html", a, b)
	if code != ExitOK || strings.Count(stdout, "<html") != 1 || strings.Count(stdout, "</html>") != 1 || strings.Count(stdout, "<!DOCTYPE") != 1 {
		t.Errorf("html: exit %d, not one page:\n%s", code, stdout)
	}
	// Table ids stay unique on the one page (charts refer to them).
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`<table id="([^"]+)"`).FindAllStringSubmatch(stdout, -1) {
		if seen[m[1]] {
			t.Errorf("html: table id %q twice", m[1])
		}
		seen[m[1]] = true
	}
	for _, format := range []string{"html", "markdown", "text"} {
		stdout, _, _ := runCLI(t, "report", "--format", format, a, b)
		// The opening line names both directories; each section's headline
		// follows a heading naming its own directory (the drill-down links
		// of run-a's section name run-a too, so look back from each
		// headline for the nearest directory named).
		ia, ib := strings.Index(stdout, "resolved 2/2"), strings.Index(stdout, "resolved 0/2")
		nearest := func(i int) string {
			if i < 0 {
				return ""
			}
			if strings.LastIndex(stdout[:i], "run-a") > strings.LastIndex(stdout[:i], "run-b") {
				return "run-a"
			}
			return "run-b"
		}
		if ia < 0 || ib < 0 || ia > ib || nearest(ia) != "run-a" || nearest(ib) != "run-b" {
			t.Errorf("%s: no section per run naming its directory:\n%s", format, stdout)
		}
	}
}

// "polynfi report --bundle DIR keeps stale results from an earlier bundle
// written to the same DIR (files of instances no longer in the run
// remain), and on an SWE-NFI suite run does nothing and exits 0."
func TestReportBundleFresh(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	two, one := t.TempDir(), t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", two); code != ExitOK {
		t.Fatal(stderr)
	}
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", one, "--instance-ids", "acme__echo-0"); code != ExitOK {
		t.Fatal(stderr)
	}
	bundle := filepath.Join(t.TempDir(), "bundle")
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle, two); code != ExitOK {
		t.Fatal(stderr)
	}
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle, one); code != ExitOK {
		t.Fatalf("second bundle into the same dir: exit %d\n%s", code, stderr)
	}
	for _, stale := range []string{"logs/acme__echo-1_result.json", "logs/acme__echo-1"} {
		if _, err := os.Stat(filepath.Join(bundle, stale)); err == nil {
			t.Errorf("%s of the earlier bundle is still there", stale)
		}
	}
	if _, err := os.Stat(filepath.Join(bundle, "logs", "acme__echo-0_result.json")); err != nil {
		t.Error(err)
	}
	// A non-empty directory that is not a bundle is refused, untouched.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "thesis.tex"), []byte("keep me"), 0o644)
	_, stderr, code := runCLI(t, "report", "--bundle", other, two)
	if code == ExitOK || !strings.Contains(stderr, other) {
		t.Errorf("--bundle into a non-empty non-bundle dir: exit %d\n%s", code, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(other, "thesis.tex")); err != nil || string(b) != "keep me" {
		t.Errorf("the non-bundle dir was changed: %v", err)
	}
	// An SWE-NFI suite run: never a silent exit 0 with nothing written.
	nfiBundle := filepath.Join(t.TempDir(), "nfi-bundle")
	_, stderr, code = runCLI(t, "report", "--bundle", nfiBundle, nfiSampleRun(t))
	if code == ExitOK {
		if _, err := os.Stat(filepath.Join(nfiBundle, "polynfi", "metadata.json")); err != nil {
			t.Errorf("NFI run: --bundle exit 0 but no bundle: %v", err)
		}
	} else if !strings.Contains(stderr, "--bundle") {
		t.Errorf("NFI run: exit %d without saying why:\n%s", code, stderr)
	}
}

// rejectedFixture writes predictions for evalFixture's two instances: row
// 1 a good one for acme__echo-0, row 2 a bad model_patch for acme__echo-1,
// row 3 one for an instance not in the dataset.
func rejectedFixture(t *testing.T, ids ...string) string {
	t.Helper()
	gold := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"
	r1, _ := json.Marshal(map[string]any{"instance_id": ids[0], "model_name_or_path": "m", "model_patch": gold})
	r2, _ := json.Marshal(map[string]any{"instance_id": ids[1], "model_name_or_path": "m", "model_patch": 5})
	r3, _ := json.Marshal(map[string]any{"instance_id": "nowhere__else-9", "model_name_or_path": "m", "model_patch": gold})
	p := filepath.Join(t.TempDir(), "preds.jsonl")
	os.WriteFile(p, []byte(string(r1)+"\n"+string(r2)+"\n"+string(r3)+"\n"), 0o644)
	return p
}

// "N predictions rejected (counted as unresolved) counts predictions for
// instances not in the dataset (those are in no denominator, so counted as
// unresolved is false). Separate them ... Every report format (text,
// Markdown, HTML, JSON) must name the rejected rows (file, line/row,
// instance id, field, reason) — today only JSON does."
func TestReportRejectedAndUnknownPredictions(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	preds := rejectedFixture(t, "acme__echo-0", "acme__echo-1")
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	for _, format := range []string{"text", "markdown", "html", "json"} {
		stdout, stderr, code := runCLI(t, "report", "--format", format, out)
		if code != ExitOK {
			t.Fatalf("%s: exit %d\n%s", format, code, stderr)
		}
		if strings.Contains(stdout, "2 predictions rejected") {
			t.Errorf("%s: counts the unknown instance's prediction as rejected:\n%s", format, stdout)
		}
		if format == "json" {
			var rep report.Harness
			json.Unmarshal([]byte(stdout), &rep)
			x := rep.Polynfi
			if x.Rejected != 1 || len(x.RejectedRows) != 1 || len(x.IgnoredPredictions) != 1 {
				t.Fatalf("json: rejected %d %+v ignored %+v, want one each", x.Rejected, x.RejectedRows, x.IgnoredPredictions)
			}
			r, ig := x.RejectedRows[0], x.IgnoredPredictions[0]
			if r.File != preds || r.Row != 2 || r.Line != 2 || r.InstanceID != "acme__echo-1" || r.Field != "model_patch" || r.Reason == "" {
				t.Errorf("json rejected row %+v", r)
			}
			if ig.File != preds || ig.Row != 3 || ig.InstanceID != "nowhere__else-9" {
				t.Errorf("json ignored prediction %+v", ig)
			}
			if x.Modes[x.NativeMode].Total != 2 || rep.ResolvedInstances != 1 {
				t.Errorf("json: resolved %d/%d, want 1/2", rep.ResolvedInstances, x.Modes[x.NativeMode].Total)
			}
			continue
		}
		for _, want := range []string{"1 prediction rows rejected", "row 2 (line 2)", "acme__echo-1", "field model_patch",
			"1 predictions name instances not in the dataset", "nowhere__else-9", "resolved 1/2"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s lacks %q:\n%s", format, want, stdout)
			}
		}
		if !strings.Contains(stdout, filepath.Base(preds)) {
			t.Errorf("%s does not name the predictions file:\n%s", format, stdout)
		}
	}
}

// "--metrics-only runs' tables lack the rejected-predictions line and the
// confidence-interval columns that full runs have (one definition per
// number, every mode)."
func TestMetricsOnlyReportLikeFullRun(t *testing.T) {
	t.Parallel()
	ds := pyEvalFixture(t)
	b, _ := os.ReadFile(ds)
	var row map[string]any
	json.Unmarshal(b, &row)
	row["instance_id"] = "acme__calc-2"
	second, _ := json.Marshal(row)
	os.WriteFile(ds, append(b, append(second, '\n')...), 0o644)
	gold := row["patch"].(string)
	r1, _ := json.Marshal(map[string]any{"instance_id": "acme__calc-1", "model_name_or_path": "m", "model_patch": gold})
	r2, _ := json.Marshal(map[string]any{"instance_id": "acme__calc-2", "model_name_or_path": "m", "model_patch": 5})
	r3, _ := json.Marshal(map[string]any{"instance_id": "nowhere__else-9", "model_name_or_path": "m", "model_patch": gold})
	preds := filepath.Join(t.TempDir(), "preds.jsonl")
	os.WriteFile(preds, []byte(string(r1)+"\n"+string(r2)+"\n"+string(r3)+"\n"), 0o644)

	full, mo := t.TempDir(), t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", full); code != ExitOK {
		t.Fatalf("eval: %s", stderr)
	}
	evalOut, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--metrics-only", "--out", mo)
	if code != ExitOK {
		t.Fatalf("eval --metrics-only: %s", stderr)
	}
	want := []string{"file F1 95% CI", "node F1 95% CI", "1 prediction rows rejected", "row 2 (line 2)", "acme__calc-2", "field model_patch", "nowhere__else-9"}
	for _, c := range []struct{ name, out string }{{"eval --metrics-only", evalOut}} {
		for _, w := range want {
			if !strings.Contains(c.out, w) {
				t.Errorf("%s lacks %q:\n%s", c.name, w, c.out)
			}
		}
	}
	for _, format := range []string{"text", "markdown", "html"} {
		stdout, stderr, code := runCLI(t, "report", "--format", format, mo)
		if code != ExitOK {
			t.Fatalf("report %s: exit %d\n%s", format, code, stderr)
		}
		for _, w := range want {
			if !strings.Contains(stdout, w) {
				t.Errorf("report --format %s of the --metrics-only run lacks %q:\n%s", format, w, stdout)
			}
		}
		// The retrieval table of both modes is the same table: same rows,
		// same intervals.
		fullOut, _, _ := runCLI(t, "report", "--format", format, full)
		if a, b := retrievalTable(fullOut), retrievalTable(stdout); a == "" || a != b {
			t.Errorf("%s: retrieval tables differ between the full and the --metrics-only run:\nfull:\n%s\nmetrics-only:\n%s", format, a, b)
		}
	}
	stdout, _, _ := runCLI(t, "report", "--format", "json", mo)
	var j struct {
		RetrievalCI  map[string]report.F1Intervals `json:"retrieval_ci"`
		Rejected     int                           `json:"rejected_predictions"`
		RejectedRows []json.RawMessage             `json:"rejected_rows"`
		Ignored      []json.RawMessage             `json:"ignored_predictions"`
	}
	if err := json.Unmarshal([]byte(stdout), &j); err != nil || !j.RetrievalCI["all"].File.OK || j.Rejected != 1 || len(j.RejectedRows) != 1 || len(j.Ignored) != 1 {
		t.Errorf("json of the --metrics-only run: %v %+v\n%s", err, j, stdout)
	}
}

// retrievalTable cuts the "Retrieval by language" table out of a report
// (up to the next table).
func retrievalTable(s string) string {
	i := strings.Index(s, "Retrieval by language")
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, "Retrieval by task category"); j >= 0 {
		s = s[:j]
	}
	return s
}

// The same holds for an SWE-NFI suite run: a rejected prediction row and
// a prediction for a task the dataset does not have are named, apart, in
// every format.
func TestNFIReportRejectedAndUnknownPredictions(t *testing.T) {
	t.Parallel()
	tasks, _ := os.ReadFile("../../examples/nfi/tasks.jsonl")
	first := strings.SplitN(string(tasks), "\n", 2)[0]
	var task struct {
		InstanceID string `json:"instance_id"`
	}
	json.Unmarshal([]byte(first), &task)
	preds, _ := os.ReadFile("../../examples/nfi/predictions.jsonl")
	var good string
	for _, l := range strings.Split(string(preds), "\n") {
		var p struct {
			InstanceID string `json:"instance_id"`
			Run        int    `json:"run"`
		}
		if json.Unmarshal([]byte(l), &p) == nil && p.InstanceID == task.InstanceID && p.Run == 0 {
			good = l
			break
		}
	}
	if good == "" {
		t.Fatalf("no prediction for %s in the sample", task.InstanceID)
	}
	dir := t.TempDir()
	ds, pf := filepath.Join(dir, "tasks.jsonl"), filepath.Join(dir, "preds.jsonl")
	os.WriteFile(ds, []byte(first+"\n"), 0o644)
	bad, _ := json.Marshal(map[string]any{"instance_id": task.InstanceID, "model_name_or_path": "agent-alpha", "run": 1, "files": 5})
	unknown, _ := json.Marshal(map[string]any{"instance_id": "nowhere__else-9", "model_name_or_path": "agent-alpha", "run": 0, "files": map[string]string{"a.py": "x = 1\n"}})
	os.WriteFile(pf, []byte(good+"\n"+string(bad)+"\n"+string(unknown)+"\n"), 0o644)
	out := filepath.Join(dir, "out")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", pf, "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	for _, format := range []string{"text", "markdown", "html", "json"} {
		stdout, stderr, code := runCLI(t, "report", "--format", format, out)
		if code != ExitOK {
			t.Fatalf("%s: exit %d\n%s", format, code, stderr)
		}
		for _, want := range []string{"row 2 (line 2)", "field files", "nowhere__else-9", "preds.jsonl"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s lacks %q:\n%s", format, want, stdout)
			}
		}
		if format != "json" && !strings.Contains(stdout, "1 predictions name tasks not in the dataset") {
			t.Errorf("%s does not set the unknown task apart:\n%s", format, stdout)
		}
	}
}
