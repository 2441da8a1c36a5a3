package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/runrecord"
)

// pyEvalFixture writes a one-instance dataset whose gold patch rewrites a
// Python function (so that the NFI deltas have a file to score) and whose
// test command prints a pytest-style pass when the patch applied.
func pyEvalFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repos", "acme__calc")
	os.MkdirAll(repo, 0o755)
	sh(t, repo, "git", "init", "--quiet", "--initial-branch=main")
	os.WriteFile(filepath.Join(repo, "calc.py"), []byte("def add(a, b):\n    return a - b\n"), 0o644)
	sh(t, repo, "git", "add", "calc.py")
	sh(t, repo, "git", "commit", "--quiet", "-m", "base")
	base := sh(t, repo, "git", "rev-parse", "HEAD")
	patch := "diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,3 @@\n def add(a, b):\n-    return a - b\n+    \"\"\"Return the sum of a and b.\"\"\"\n+    return a + b\n"
	row := map[string]any{
		"instance_id": "acme__calc-1", "repo": "acme/calc", "base_commit": base, "patch": patch, "test_patch": "",
		"language": "Python", "task_category": "Bug Fix",
		"test_command": `if grep -q "a + b" calc.py; then s=PASSED; else s=FAILED; fi; echo "==== test session starts ===="; echo "t.py::test_add $s"`,
		"F2P":          "['t.py:None:test_add']", "P2P": "[]",
		"modified_nodes": `["calc.py->module->function_definition:add"]`,
	}
	line, _ := json.Marshal(row)
	ds := filepath.Join(dir, "dataset.jsonl")
	os.WriteFile(ds, append(line, '\n'), 0o644)
	return ds
}

// TestEvalReportsEverything: the summary, report.json and report.html carry
// the retrieval means with denominators and the NFI means; the record has
// the per-instance values; --nfi=false leaves the NFI deltas out; and
// polynfi report renders the run dir in every format, also from the
// records alone.
func TestEvalReportsEverything(t *testing.T) {
	t.Parallel()
	ds := pyEvalFixture(t)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"eval", "--dataset", ds, "--predictions", "gold", "--out", out}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	for _, want := range []string{"Retrieval by language", "Retrieval by complexity class", "single_func", "NFI improvement of the changed source files",
		"Pass rate by complexity class"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout.String())
		}
	}
	var rep report.Harness
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if s := rep.Polynfi.Retrieval; s == nil || s.Overall.File.N != 1 || s.Overall.Node.N != 1 || s.Overall.Node.F1 != 1 {
		t.Errorf("report retrieval %+v", s)
	}
	if n := rep.Polynfi.NFI; n == nil || n.Units != 1 || n.Valid != 1 || n.Mean[0].Aspect != "DOC" || n.Mean[0].N != 1 {
		t.Errorf("report nfi %+v", n)
	}
	recs, err := runrecord.LoadRecords(out)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records %v %v", recs, err)
	}
	if r := recs[0]; r.Retrieval == nil || r.Retrieval.Node == nil || r.NFI == nil || !r.NFI.Delta.Valid {
		t.Errorf("record retrieval %+v nfi %+v", r.Retrieval, r.NFI)
	}
	if html, err := os.ReadFile(filepath.Join(out, "report.html")); err != nil || !bytes.Contains(html, []byte("<svg")) ||
		!bytes.Contains(html, []byte("Retrieval by task category")) {
		t.Errorf("report.html: %v (%d bytes)", err, len(html))
	}

	for _, format := range []string{"text", "markdown", "json", "html"} {
		stdout.Reset()
		if code := Main(context.Background(), []string{"report", out, "--format", format}, &stdout, &stderr); code != ExitOK {
			t.Fatalf("report --format %s: exit %d\n%s", format, code, stderr.String())
		}
		if !strings.Contains(stdout.String(), "Retrieval by language") && format != "json" || format == "json" && !strings.Contains(stdout.String(), `"node_retrieval"`) {
			t.Errorf("report --format %s:\n%.400s", format, stdout.String())
		}
	}
	text := func() string {
		stdout.Reset()
		if code := Main(context.Background(), []string{"report", out}, &stdout, &stderr); code != ExitOK {
			t.Fatalf("report: exit %d\n%s", code, stderr.String())
		}
		return stdout.String()
	}
	fromReport := text()
	os.Remove(filepath.Join(out, "report.json"))
	fromRecords := text()
	for _, want := range []string{"resolved 1/1 (100.0%, 95% CI 20.7–100.0%) under polybench grading", "Retrieval by language", "NFI improvement"} {
		if !strings.Contains(fromRecords, want) {
			t.Errorf("report rebuilt from records lacks %q:\n%s", want, fromRecords)
		}
	}
	if !strings.Contains(fromReport, "predictions gold") {
		t.Errorf("report from report.json:\n%s", fromReport)
	}

	// --nfi=false: no NFI deltas.
	out2 := t.TempDir()
	stdout.Reset()
	if code := Main(context.Background(), []string{"eval", "--dataset", ds, "--predictions", "gold", "--out", out2, "--nfi=false", "--format", "json"}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	rep = report.Harness{}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Polynfi.NFI != nil || rep.Polynfi.Retrieval == nil {
		t.Errorf("--nfi=false: nfi %+v retrieval %v", rep.Polynfi.NFI, rep.Polynfi.Retrieval)
	}
}

// TestEvalMetricsOnlyCountsMissingPredictions: an instance without a
// prediction is scored as an empty prediction (0) and stays in the means;
// a prediction for an instance the dataset does not have is ignored (in no
// denominator). Two instances: acme__calc-2 predicted with its reference
// patch (file and node F1 1), acme__calc-1 missing (0): n=2, mean 0.5.
func TestEvalMetricsOnlyCountsMissingPredictions(t *testing.T) {
	t.Parallel()
	ds := pyEvalFixture(t)
	data, err := os.ReadFile(ds)
	if err != nil {
		t.Fatal(err)
	}
	var row map[string]any
	if err := json.Unmarshal(data, &row); err != nil {
		t.Fatal(err)
	}
	row["instance_id"] = "acme__calc-2"
	second, _ := json.Marshal(row)
	if err := os.WriteFile(ds, append(append(data, second...), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	pred, _ := json.Marshal(map[string]any{"instance_id": "acme__calc-2", "model_patch": row["patch"]})
	preds := filepath.Join(t.TempDir(), "p.jsonl")
	os.WriteFile(preds, []byte(`{"instance_id": "other__repo-1", "model_patch": ""}`+"\n"+string(pred)+"\n"), 0o644)
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"eval", "--dataset", ds, "--predictions", preds, "--metrics-only", "--format", "json"}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	var got struct {
		Summary struct {
			Overall struct {
				Instances int
				File      struct {
					N  int
					F1 float64
				}
				Node struct {
					N  int
					F1 float64
				}
			}
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if o := got.Summary.Overall; o.Instances != 2 || o.File.N != 2 || o.Node.N != 2 || o.File.F1 != 0.5 || o.Node.F1 != 0.5 {
		t.Errorf("overall %+v, want two instances, the missing one scored 0 (means 0.5)", o)
	}
	if !strings.Contains(stderr.String(), "other__repo-1") {
		t.Errorf("the prediction for an unknown instance is not named:\n%s", stderr.String())
	}
}
