package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
)

// Tests of the defects the fresh-eyes trial of issue #16 at 9b5a8ca
// found, each written from the defect's description.

// fuzzFixture writes a dataset of one Python instance (acme__ledger-1:
// Money.allocate's body changes) over a real repository, with a test
// command that passes when the fix is in the file, and returns the
// dataset and a prediction of the gold patch whose context lines are
// corrupted: git apply refuses it, GNU patch applies it with fuzz.
func fuzzFixture(t *testing.T) (ds, preds string) {
	t.Helper()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repos", "acme__ledger")
	os.MkdirAll(filepath.Join(repo, "ledger"), 0o755)
	sh(t, repo, "git", "init", "--quiet", "--initial-branch=main")
	src := "class Money:\n    \"\"\"An amount.\"\"\"\n\n    def __init__(self, amount):\n        self.amount = amount\n\n" +
		"    def allocate(self, ratios):\n        total = sum(ratios)\n        a = 1\n        b = 2\n        c = 3\n" +
		"        shares = [self.amount * r // total for r in ratios]\n        d = 4\n        e = 5\n        f = 6\n        return shares\n\n" +
		"    def other(self):\n        return self.amount\n"
	os.WriteFile(filepath.Join(repo, "ledger", "money.py"), []byte(src), 0o644)
	sh(t, repo, "git", "add", "-A")
	sh(t, repo, "git", "commit", "--quiet", "-m", "base")
	base := sh(t, repo, "git", "rev-parse", "HEAD")
	gold := "diff --git a/ledger/money.py b/ledger/money.py\n--- a/ledger/money.py\n+++ b/ledger/money.py\n" +
		"@@ -9,7 +9,8 @@ class Money:\n         a = 1\n         b = 2\n         c = 3\n" +
		"-        shares = [self.amount * r // total for r in ratios]\n+        shares = [self.amount * r // total for r in ratios]\n+        shares[0] += self.amount - sum(shares)  # fixed\n" +
		"         d = 4\n         e = 5\n         f = 6\n"
	// The same change with two context lines on each side corrupted.
	fuzzy := strings.Replace(strings.Replace(gold, "         a = 1\n         b = 2\n", "  XXXX corrupted\n  XXXX corrupted\n", 1),
		"         e = 5\n         f = 6\n", "  XXXX corrupted\n  XXXX corrupted\n", 1)
	row := map[string]any{"instance_id": "acme__ledger-1", "repo": "acme/ledger", "base_commit": base, "patch": gold, "test_patch": "",
		"language": "Python", "task_category": "Bug Fix",
		"test_command": `if grep -q fixed ledger/money.py; then s=PASSED; else s=FAILED; fi; echo "==== test session starts ===="; echo "t.py::test_a $s"`,
		"F2P":          "['t.py:None:test_a']", "P2P": "[]"}
	line, _ := json.Marshal(row)
	ds = filepath.Join(dir, "dataset.jsonl")
	os.WriteFile(ds, append(line, '\n'), 0o644)
	pl, _ := json.Marshal(map[string]string{"instance_id": "acme__ledger-1", "model_name_or_path": "m1", "model_patch": fuzzy})
	preds = filepath.Join(dir, "fuzzy.jsonl")
	os.WriteFile(preds, append(pl, '\n'), 0o644)
	return ds, preds
}

// Defect 1: "Same prediction, different file F1 by mode: the gold patch
// with corrupted context lines applies only with patch --fuzz. Full run:
// resolved, file F1 1.00, but node F1 0 with node_error 'patch does not
// match file content' (the run says it both applied and did not).
// --metrics-only: file F1 0, 'empty or not applied'." One definition: the
// patch applied (the cascade applied it), so both modes score its files
// and its nodes, located in the file as it was actually patched.
func TestFuzzAppliedPatchSameMetricsInEveryMode(t *testing.T) {
	t.Parallel()
	ds, preds := fuzzFixture(t)
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	recs, _, err := runrecord.ReadRecords(out)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records: %v, %d", err, len(recs))
	}
	rec := recs[0]
	if rec.Status != grading.StatusResolved || rec.ModelPatchApply == nil || !strings.Contains(rec.ModelPatchApply.Method, "fuzz") {
		t.Fatalf("the corrupted gold patch should apply with fuzz and resolve: status %s, apply %+v", rec.Status, rec.ModelPatchApply)
	}
	const node = "ledger/money.py->module->class_definition:Money->function_definition:allocate"
	full := rec.Retrieval
	if full == nil || full.File.F1 != 1 || full.Node == nil || full.Node.F1 != 1 || full.NodeError != "" ||
		len(full.PredictedNodes) != 1 || full.PredictedNodes[0] != node {
		t.Errorf("full run: the applied patch's metrics are %+v, want file F1 1, node F1 1 (%s), no node error", full, node)
	}
	metricsOnlyAsFullRun(t, ds, preds, full, "the same prediction")
}

// metricsOnlyAsFullRun checks that `eval --metrics-only` (to stdout and
// with --out) scores the one prediction of preds as the full run did.
func metricsOnlyAsFullRun(t *testing.T, ds, preds string, full *retrieval.InstanceMetrics, what string) {
	t.Helper()
	for _, flags := range [][]string{nil, {"--out", filepath.Join(t.TempDir(), "mo")}} {
		args := append([]string{"eval", "--metrics-only", "--format", "json", "--dataset", ds, "--predictions", preds}, flags...)
		stdout, stderr, code := runCLI(t, args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		var mo report.MetricsOnly
		if err := json.Unmarshal([]byte(stdout), &mo); err != nil || len(mo.Instances) != 1 {
			t.Fatalf("metrics-only json: %v\n%s", err, stdout)
		}
		m := mo.Instances[0]
		if m.File != full.File || m.Node == nil || *m.Node != *full.Node || m.NodeStatus != full.NodeStatus || m.NodeError != full.NodeError ||
			strings.Join(m.PredictedNodes, ",") != strings.Join(full.PredictedNodes, ",") {
			t.Errorf("--metrics-only scores %s differently from the full run:\nmetrics-only %+v\nfull run     %+v\n%s", what, m, *full, stderr)
		}
	}
}

// jsonLines writes rows as a JSONL file in a temporary directory.
func jsonLines(t *testing.T, name string, rows ...any) string {
	t.Helper()
	var b bytes.Buffer
	for _, r := range rows {
		if s, ok := r.(string); ok {
			b.WriteString(s + "\n")
			continue
		}
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// exit3Message runs the CLI, wants exit 3 and returns its "nothing could
// be evaluated" message (to the end of stderr) and the whole stderr.
func exit3Message(t *testing.T, args ...string) (msg, stderr string) {
	t.Helper()
	_, stderr, code := runCLI(t, args...)
	if code != ExitError {
		t.Fatalf("%v: exit %d, want 3\n%s", args, code, stderr)
	}
	i := strings.Index(stderr, "nothing could be evaluated")
	if i < 0 {
		t.Fatalf("%v: no 'nothing could be evaluated' message:\n%s", args, stderr)
	}
	return strings.TrimSpace(stderr[i:]), stderr
}

// Defect 5: "eval's exit-3 message differs by mode: same predictions file
// (one bad row + one unknown id) gives '(0 input errors)' under
// --metrics-only and '(1 prediction rows rejected, 1 predictions for
// instances not in the dataset…)' in a full run. One message."
func TestEvalExit3SameMessageInEveryMode(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	preds := jsonLines(t, "bad.jsonl",
		map[string]any{"instance_id": "acme__echo-0", "model_name_or_path": "m", "model_patch": 7},
		map[string]any{"instance_id": "nope__nope-1", "model_name_or_path": "m", "model_patch": ""})
	var msgs []string
	for _, extra := range [][]string{{"--out", t.TempDir()}, {"--metrics-only"}} {
		args := append([]string{"eval", "--dataset", ds, "--predictions", preds}, extra...)
		msg, _ := exit3Message(t, args...)
		if !strings.Contains(msg, "1 prediction rows rejected") || !strings.Contains(msg, "1 predictions for instances not in the dataset") {
			t.Errorf("%v: the message does not count the rejected row and the unknown id: %s", extra, msg)
		}
		msgs = append(msgs, msg)
	}
	if msgs[0] != msgs[1] {
		t.Errorf("the exit-3 message differs by mode:\nfull:         %s\nmetrics-only: %s", msgs[0], msgs[1])
	}
}

// tamperVerdict rewrites the first record of out as an older grading
// would have stored it (unresolved in every mode), so that a regrade
// changes it back; it returns the unit's instance id.
func tamperVerdict(t *testing.T, out string) string {
	t.Helper()
	recs, err := runrecord.LoadRecords(out)
	if err != nil || len(recs) == 0 {
		t.Fatalf("records %d %v", len(recs), err)
	}
	old := recs[0]
	old.Verdicts = grading.AllModes(grading.StatusUnresolved, "no test results in the log")
	old.Resolved, old.Status = false, grading.StatusUnresolved
	b, _ := json.MarshalIndent(old, "", "  ")
	if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(runrecord.RecordRelDir(old.Key)), runrecord.ResultFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return old.InstanceID
}

// Defect 2: "regrade --apply leaves OUT/report.json and report.html stale
// (still 4/8 after regrade says 3/8), the report never says a regrade
// happened, the header still names the old dataset, and regrading against
// a different dataset (different sha256) gives no warning." A different
// dataset is refused (exit 2) unless --allow-different-dataset, which
// warns and makes the reports name the dataset the verdicts come from.
func TestRegradeApplyRewritesReportsAndSaysSo(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatal(stderr)
	}
	tamperVerdict(t, out)
	// The stored reports as an older grading wrote them: 1/2.
	if _, stderr, code := runCLI(t, "report", "--format", "json", out); code != ExitOK {
		t.Fatal(stderr)
	}
	stdout, stderr, code := runCLI(t, "regrade", "--apply", out)
	if code != ExitOK || !strings.Contains(stdout, "1 changed") {
		t.Fatalf("regrade --apply: exit %d\n%s\n%s", code, stdout, stderr)
	}
	rep := readHarnessReport(t, out)
	if rep.ResolvedInstances != 2 {
		t.Errorf("OUT/report.json after regrade --apply: resolved %d, want 2 (stale)", rep.ResolvedInstances)
	}
	if len(rep.Polynfi.Regrades) != 1 || rep.Polynfi.Regrades[0].Changed != 1 {
		t.Errorf("report.json does not record the regrade: %+v", rep.Polynfi.Regrades)
	}
	html, _ := os.ReadFile(filepath.Join(out, "report.html"))
	said := regexp.MustCompile(`re-graded \d{4}-\d\d-\d\dT[\d:]+Z by polynfi \S+ \(1 verdicts changed\)`)
	if !strings.Contains(string(html), "resolved 2/2") || !said.Match(html) {
		t.Errorf("OUT/report.html is stale or does not say it was re-graded")
	}
	for _, format := range []string{"text", "markdown", "html"} {
		stdout, _, _ := runCLI(t, "report", "--format", format, out)
		if !said.MatchString(stdout) {
			t.Errorf("report --format %s does not say the run was re-graded:\n%s", format, stdout)
		}
	}

	// Another dataset: the same rows with one F2P list changed.
	raw, _ := os.ReadFile(ds)
	other := filepath.Join(t.TempDir(), "dataset-mod.jsonl")
	os.WriteFile(other, bytes.Replace(raw, []byte(`t.py:None:test_a`), []byte(`t.py:None:test_b`), 1), 0o644)
	stdout, stderr, code = runCLI(t, "regrade", "--apply", "--dataset", other, out)
	if code != ExitUsage || !strings.Contains(stderr, "sha256") || !strings.Contains(stderr, "--allow-different-dataset") {
		t.Fatalf("regrade against a different dataset: exit %d, want 2 naming the digests and the flag\n%s\n%s", code, stdout, stderr)
	}
	if r := readHarnessReport(t, out); r.ResolvedInstances != 2 || len(r.Polynfi.Regrades) != 1 {
		t.Errorf("a refused regrade changed the run: resolved %d, regrades %d", r.ResolvedInstances, len(r.Polynfi.Regrades))
	}
	stdout, stderr, code = runCLI(t, "regrade", "--apply", "--allow-different-dataset", "--dataset", other, out)
	if code != ExitOK || !strings.Contains(stderr, "warning") || !strings.Contains(stderr, other) {
		t.Fatalf("regrade --allow-different-dataset: exit %d, want 0 with a warning naming %s\n%s\n%s", code, other, stdout, stderr)
	}
	rep = readHarnessReport(t, out)
	if rep.Polynfi.Dataset != other || rep.ResolvedInstances != 1 || len(rep.Polynfi.Regrades) != 2 {
		t.Errorf("after a regrade against %s: report names dataset %s, resolved %d, %d regrades", other, rep.Polynfi.Dataset, rep.ResolvedInstances, len(rep.Polynfi.Regrades))
	}
	text, _, _ := runCLI(t, "report", out)
	if !strings.Contains(text, "dataset "+other) || !strings.Contains(text, "not the one the run was evaluated with ("+ds) {
		t.Errorf("the report's header does not name the dataset the verdicts come from and the one the run had:\n%s", text)
	}
}

// Defect 8: "regrade on an interrupted run should mention the
// not-evaluated units."
func TestRegradeInterruptedRunNamesNotEvaluated(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 3, "0")
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatal(stderr)
	}
	// An interrupted run: its manifest incomplete, one unit's record never
	// written.
	man, _, err := runrecord.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	man.Complete = false
	if err := man.Write(out); err != nil {
		t.Fatal(err)
	}
	recs, _ := runrecord.LoadRecords(out)
	gone := recs[len(recs)-1]
	os.RemoveAll(filepath.Join(out, filepath.FromSlash(runrecord.RecordRelDir(gone.Key))))
	stdout, stderr, code := runCLI(t, "regrade", out)
	if code != ExitOK || !strings.Contains(stdout, "1 units were not evaluated") || !strings.Contains(stdout, gone.InstanceID) {
		t.Errorf("regrade of an interrupted run does not name its not-evaluated unit %s: exit %d\n%s\n%s", gone.InstanceID, code, stdout, stderr)
	}
	jout, _, _ := runCLI(t, "regrade", "--format", "json", out)
	var doc struct {
		NotEvaluated []string `json:"not_evaluated"`
	}
	if err := json.Unmarshal([]byte(jout), &doc); err != nil || len(doc.NotEvaluated) != 1 {
		t.Errorf("regrade --format json: not_evaluated %v (%v)", doc.NotEvaluated, err)
	}
}

// Defect 7: "--instances drill-down gaps: missing units have blank
// status/reason and don't point to the rejected prediction row (row
// rejected: model_patch a number): say 'missing: prediction row 2
// rejected (field model_patch)'; a strict-only failure caused by a
// test-file edit shows '–' as reason: give the reason; the empty-patch
// unit links to an empty command.sh and test.log: don't link empty or
// absent artefacts (say 'not run: empty patch')."
func TestInstancesDrillDownNamesWhy(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 3, "0")
	fix := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"
	testEdit := fix + "diff --git a/tests/test_extra.py b/tests/test_extra.py\nnew file mode 100644\n--- /dev/null\n+++ b/tests/test_extra.py\n@@ -0,0 +1 @@\n+def test_x(): pass\n"
	preds := jsonLines(t, "p.jsonl",
		map[string]any{"instance_id": "acme__echo-0", "model_name_or_path": "m", "model_patch": testEdit},
		map[string]any{"instance_id": "acme__echo-1", "model_name_or_path": "m", "model_patch": 7},
		map[string]any{"instance_id": "acme__echo-2", "model_name_or_path": "m", "model_patch": ""})
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	rep := readHarnessReport(t, out)
	units := map[string]report.UnitResult{}
	for _, u := range rep.Polynfi.UnitResults {
		units[u.InstanceID] = u
	}
	edit, missing, empty := units["acme__echo-0"], units["acme__echo-1"], units["acme__echo-2"]
	if edit.Outcome != "resolved" || !strings.Contains(edit.Reason, "strict") || !strings.Contains(edit.Reason, "tests/test_extra.py") {
		t.Errorf("strict-only failure by a test edit: %+v, want its strict reason naming tests/test_extra.py", edit)
	}
	if missing.Status == "" || !strings.Contains(missing.Reason, "prediction row 2") || !strings.Contains(missing.Reason, "rejected") ||
		!strings.Contains(missing.Reason, "model_patch") {
		t.Errorf("missing unit: %+v, want a status and 'prediction row 2 ... rejected (field model_patch ...)'", missing)
	}
	if empty.Reason != "not run: empty patch" || len(empty.Files) != 0 {
		t.Errorf("empty-patch unit: reason %q, artefacts %v; want 'not run: empty patch' and none linked", empty.Reason, empty.Files)
	}
	for _, format := range []string{"text", "markdown", "html"} {
		args := []string{"report", "--format", format, out}
		if format == "text" {
			args = []string{"report", "--instances", out}
		}
		stdout, _, _ := runCLI(t, args...)
		for _, want := range []string{"prediction row 2", "not run: empty patch", "tests/test_extra.py"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("report %s: the drill-down lacks %q", format, want)
			}
		}
		rel := runrecord.RecordRelDir(runrecord.Key{InstanceID: "acme__echo-2", Model: "m"})
		for _, f := range []string{runrecord.LogFile, runrecord.CommandFile, runrecord.PatchFile} {
			if strings.Contains(stdout, rel+"/"+f) {
				t.Errorf("report %s links the empty-patch unit's %s, which holds nothing", format, f)
			}
		}
	}
}

// Defect 4: "No per-instance drill-down for --metrics-only runs: report
// --instances ignored, HTML/Markdown have no instance rows. Add it
// (file/node P/R/F1 per instance, why 0), in every format."
func TestMetricsOnlyDrillDown(t *testing.T) {
	t.Parallel()
	ds, preds := fuzzFixture(t)
	// A second instance (the same row under another id) whose prediction
	// touches another file: file F1 0, and why.
	raw, _ := os.ReadFile(ds)
	os.WriteFile(ds, append(raw, bytes.Replace(raw, []byte(`"acme__ledger-1"`), []byte(`"acme__ledger-2"`), 1)...), 0o644)
	other := jsonLines(t, "other.jsonl", map[string]any{"instance_id": "acme__ledger-2", "model_name_or_path": "m1",
		"model_patch": "diff --git a/README b/README\nnew file mode 100644\n--- /dev/null\n+++ b/README\n@@ -0,0 +1 @@\n+hi\n"})
	p1, _ := os.ReadFile(preds)
	p2, _ := os.ReadFile(other)
	os.WriteFile(preds, append(p1, p2...), 0o644)
	out := filepath.Join(t.TempDir(), "mo")
	if _, stderr, code := runCLI(t, "eval", "--metrics-only", "--dataset", ds, "--predictions", preds, "--out", out); code != ExitOK {
		t.Fatalf("eval --metrics-only: exit %d\n%s", code, stderr)
	}
	for _, args := range [][]string{{"report", "--instances", out}, {"report", "--format", "markdown", out}, {"report", "--format", "html", out}} {
		stdout, stderr, code := runCLI(t, args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		i := strings.Index(stdout, "Instances")
		if i < 0 {
			t.Errorf("%v: no per-instance drill-down:\n%s", args, stdout)
			continue
		}
		drill := stdout[i:]
		for _, want := range []string{"acme__ledger-1", "acme__ledger-2", "1.00", "is a reference file"} {
			if !strings.Contains(drill, want) {
				t.Errorf("%v: the drill-down lacks %q:\n%s", args, want, drill)
			}
		}
	}
	if stdout, _, _ := runCLI(t, "report", out); strings.Contains(stdout, "acme__ledger-2 ") {
		t.Errorf("report without --instances prints the drill-down")
	}
}

// Defect 3 (in part): "a duplicate row makes 9 for 8 distinct ids;
// predictions for ids whose rows couldn't be read are called 'not an
// instance of the dataset'." Duplicates are named and counted once; a row
// with two bad fields is one unreadable row; a prediction for an
// unreadable row says so.
func TestUnreadableRowsCountedOnceAndNamed(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	raw, _ := os.ReadFile(ds)
	first := bytes.SplitN(raw, []byte("\n"), 2)[0]
	var bad map[string]any
	json.Unmarshal(first, &bad)
	bad["instance_id"], bad["F2P"], bad["P2P"] = "acme__echo-9", "['unclosed", "['unclosed"
	badLine, _ := json.Marshal(bad)
	rows := append(append(append([]byte{}, raw...), first...), '\n') // a duplicate of acme__echo-0
	rows = append(append(rows, badLine...), '\n')
	os.WriteFile(ds, rows, 0o644)
	preds := jsonLines(t, "p.jsonl",
		map[string]any{"instance_id": "acme__echo-0", "model_name_or_path": "m", "model_patch": "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"},
		map[string]any{"instance_id": "acme__echo-9", "model_name_or_path": "m", "model_patch": "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"})
	out := t.TempDir()
	_, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", out)
	if code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	rep := readHarnessReport(t, out)
	x := rep.Polynfi
	if x.UnreadableRows != 1 || x.Modes[x.NativeMode].Total != 3 {
		t.Errorf("unreadable rows %d, native total %d; want 1 unreadable row (the duplicate named, not counted; two bad fields are one row) and 3 units for 3 distinct ids",
			x.UnreadableRows, x.Modes[x.NativeMode].Total)
	}
	// The duplicate is named under its own heading (duplicate_rows), not
	// among the rows that could not be read.
	dup := false
	for _, d := range x.DuplicateRows {
		dup = dup || strings.Contains(d.Reason, "duplicate of row 1")
	}
	if !dup {
		t.Errorf("the duplicate row is not named: %v", x.DuplicateRows)
	}
	found := false
	for _, p := range x.IgnoredPredictions {
		if p.InstanceID == "acme__echo-9" {
			found = true
			if strings.Contains(p.Reason, "not an instance of the dataset") || !strings.Contains(p.Reason, "could not be read") {
				t.Errorf("prediction for the unreadable row: %q, want it to say the row could not be read", p.Reason)
			}
		}
	}
	if !found {
		t.Errorf("the prediction for the unreadable row acme__echo-9 is not named: %+v", x.IgnoredPredictions)
	}
}

// A files prediction ({"files": {path: content}}, no model_patch) is
// scored from the change its files make over base + test patch, in the
// full run and under --metrics-only alike (one code path,
// harness.filesChange): the fixed money.py gives file and node F1 1 in
// both. Before, --metrics-only scored it as an empty prediction (file F1
// 0) while the full run gave 1.
func TestFilesPredictionSameMetricsInEveryMode(t *testing.T) {
	t.Parallel()
	ds, _ := fuzzFixture(t)
	repo := filepath.Join(filepath.Dir(ds), "repos", "acme__ledger")
	src, err := os.ReadFile(filepath.Join(repo, "ledger", "money.py"))
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(string(src), "        shares = [self.amount * r // total for r in ratios]\n",
		"        shares = [self.amount * r // total for r in ratios]\n        shares[0] += self.amount - sum(shares)  # fixed\n", 1)
	preds := jsonLines(t, "files.jsonl", map[string]any{"instance_id": "acme__ledger-1", "model_name_or_path": "m1",
		"files": map[string]string{"ledger/money.py": fixed}})
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	recs, _, err := runrecord.ReadRecords(out)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records: %v, %d", err, len(recs))
	}
	const node = "ledger/money.py->module->class_definition:Money->function_definition:allocate"
	full := recs[0].Retrieval
	if recs[0].Status != grading.StatusResolved || full == nil || full.File.F1 != 1 || full.Node == nil || full.Node.F1 != 1 ||
		len(full.PredictedNodes) != 1 || full.PredictedNodes[0] != node {
		t.Fatalf("full run: status %s, metrics %+v, want resolved with file and node F1 1 (%s)", recs[0].Status, full, node)
	}
	metricsOnlyAsFullRun(t, ds, preds, full, "the files prediction")
}
