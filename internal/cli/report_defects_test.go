package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polynfi/polynfi/report"
)

// Tests of issue #16's defects, each written from the defect's description.

// readHarnessReport decodes OUT/report.json.
func readHarnessReport(t *testing.T, out string) report.Harness {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Harness
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// "polynfi report DIR on a directory that is not a run merges every run
// found below it and prints plausible numbers, exit 0."
func TestReportRefusesNonRunDirectory(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	parent := t.TempDir()
	for _, name := range []string{"a", "b"} {
		if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", filepath.Join(parent, name)); code != ExitOK {
			t.Fatalf("eval: exit %d\n%s", code, stderr)
		}
	}
	for _, dir := range []string{parent, t.TempDir()} {
		stdout, stderr, code := runCLI(t, "report", dir)
		if code == ExitOK || !strings.Contains(stderr, "not a polynfi run directory") || strings.Contains(stdout, "resolved") {
			t.Errorf("report %s: exit %d\nstdout:\n%s\nstderr:\n%s", dir, code, stdout, stderr)
		}
	}
	// A run directory, and a list of them, are reported.
	stdout, stderr, code := runCLI(t, "report", filepath.Join(parent, "a"), filepath.Join(parent, "b"))
	if code != ExitOK || strings.Count(stdout, "resolved 2/2") != 2 {
		t.Errorf("report a b: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// A run written before manifests existed (report.json, no manifest) is
	// still a run: reported from its records, inputs from its report.json.
	os.Remove(filepath.Join(parent, "b", "polynfi-run.json"))
	stdout, stderr, code = runCLI(t, "report", filepath.Join(parent, "b"))
	if code != ExitOK || !strings.Contains(stdout, "resolved 2/2") || !strings.Contains(stdout, "dataset "+ds) {
		t.Errorf("legacy run: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// "After Ctrl-C, every instance not yet evaluated is listed as an error
// (resolved 0/8, error 8); no text, Markdown or HTML report says the run
// was interrupted."
func TestReportInterruptedRun(t *testing.T) {
	t.Parallel()
	bin := buildPolynfi(t)
	const n = 6
	ds := evalFixture(t, n, "0.6")
	out := filepath.Join(t.TempDir(), "out")
	code, stderr := startUntil(t, bin, out, []string{"eval", "--dataset", ds, "--predictions", "gold", "--out", out}, 1, syscall.SIGINT)
	if code != ExitInterrupted {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	recorded, _ := countRecords(t, out)
	missing := n - recorded
	if missing < 1 {
		t.Fatalf("all %d recorded before the interrupt", recorded)
	}
	rep := readHarnessReport(t, out)
	if rep.ErrorInstances != 0 || len(rep.IncompleteIDs) != missing || !rep.Polynfi.Interrupted {
		t.Errorf("report.json: error %d incomplete %v interrupted %v; want 0, %d ids, true", rep.ErrorInstances, rep.IncompleteIDs, rep.Polynfi.Interrupted, missing)
	}
	line := fmt.Sprintf("interrupted, %d not evaluated, re-run to resume", missing)
	for _, format := range []string{"text", "markdown", "html", "json"} {
		stdout, stderr, code := runCLI(t, "report", "--format", format, out)
		if code != ExitOK || !strings.Contains(stdout, line) {
			t.Errorf("report --format %s: exit %d, no %q\n%s\n%s", format, code, line, stdout, stderr)
		}
	}
}

// "eval exits 0 when every prediction was rejected, with an empty report."
func TestEvalNothingEvaluated(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	preds := filepath.Join(t.TempDir(), "p.jsonl")
	os.WriteFile(preds, []byte(`{"instance_id": 5, "model_patch": ""}`+"\n"+`{"model_patch": "x"}`+"\n"+`{"instance_id": "nowhere-1", "model_patch": ""}`+"\n"), 0o644)
	out := t.TempDir()
	_, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", out)
	if code == ExitOK || !strings.Contains(stderr, "nothing could be evaluated") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

// "report.json and polynfi report OUT cover only the last eval call's
// --instance-ids, not every record stored in OUT."
func TestReportCoversEveryRecord(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 3, "0")
	out := t.TempDir()
	for _, id := range []string{"acme__echo-0", "acme__echo-1"} {
		if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out, "--instance-ids", id); code != ExitOK {
			t.Fatalf("eval %s: exit %d\n%s", id, code, stderr)
		}
	}
	rep := readHarnessReport(t, out)
	if rep.TotalInstances != 2 || rep.ResolvedInstances != 2 {
		t.Errorf("report.json: total %d resolved %d, want 2 2", rep.TotalInstances, rep.ResolvedInstances)
	}
	stdout, stderr, code := runCLI(t, "report", out)
	if code != ExitOK || !strings.Contains(stdout, "resolved 2/2") {
		t.Errorf("report: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// "polynfi report cannot render a --metrics-only run and says no NFI
// suite records."
func TestReportMetricsOnlyRun(t *testing.T) {
	t.Parallel()
	ds := pyEvalFixture(t)
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--metrics-only", "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	for _, format := range []string{"text", "markdown", "html", "json"} {
		stdout, stderr, code := runCLI(t, "report", "--format", format, out)
		if code != ExitOK || !strings.Contains(stdout, "Retrieval by language") && format != "json" || strings.Contains(stderr, "NFI suite") {
			t.Errorf("report --format %s: exit %d\n%s\n%s", format, code, stdout, stderr)
		}
	}
}

// "Per-instance results (which instance failed and why) are in report.json
// only, not in the text, Markdown or HTML reports."
func TestReportPerInstance(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	preds := filepath.Join(t.TempDir(), "p.jsonl")
	os.WriteFile(preds, []byte(`{"instance_id": "acme__echo-0", "model_name_or_path": "m", "model_patch": "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-nothere\n+two\n"}`+"\n"+
		`{"instance_id": "acme__echo-1", "model_name_or_path": "m", "model_patch": "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"}`+"\n"), 0o644)
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		// The patch that failed to apply has a patch, no test log and no
		// command (its tests never ran: TestInstancesDrillDownNamesWhy).
		{[]string{"report", "--instances", out}, []string{"acme__echo-0", "patch_failed", "acme__echo-1", "resolved", filepath.Join("m", "acme__echo-1", "run-0", "test.log")}},
		{[]string{"report", "--format", "markdown", out}, []string{"acme__echo-0", "patch_failed", "(m/acme__echo-1/run-0/test.log)", "(m/acme__echo-0/run-0/model.patch)", "(m/acme__echo-1/run-0/command.sh)"}},
		{[]string{"report", "--format", "html", out}, []string{"acme__echo-0", "patch_failed", `href="m/acme__echo-1/run-0/test.log"`, `href="m/acme__echo-0/run-0/model.patch"`}},
	} {
		stdout, stderr, code := runCLI(t, c.args...)
		for _, w := range c.want {
			if code != ExitOK || !strings.Contains(stdout, w) {
				t.Errorf("%v: exit %d, lacks %q\n%s\n%s", c.args, code, w, stdout, stderr)
			}
		}
	}
}

// "The same predictions give different localization means depending on the
// mode ...; instances without a prediction drop out of the node
// denominator although the note says they count 0; a patch that does not
// apply scores file F1 1.0 under --metrics-only and 0 in a full run."
func TestLocalizationSameInEveryMode(t *testing.T) {
	t.Parallel()
	ds := pyEvalFixture(t)
	// Add two instances of the same repository: one whose prediction does
	// not apply (it edits a line that is not there) and one without a
	// prediction.
	b, _ := os.ReadFile(ds)
	var row map[string]any
	json.Unmarshal(b, &row)
	var lines []string
	for i, id := range []string{"acme__calc-1", "acme__calc-2", "acme__calc-3"} {
		r := map[string]any{}
		for k, v := range row {
			r[k] = v
		}
		r["instance_id"] = id
		_ = i
		line, _ := json.Marshal(r)
		lines = append(lines, string(line))
	}
	os.WriteFile(ds, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	unapplied := "diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a * b\n+    return a + b\n"
	gold := row["patch"].(string)
	p1, _ := json.Marshal(map[string]string{"instance_id": "acme__calc-1", "model_name_or_path": "m", "model_patch": gold})
	p2, _ := json.Marshal(map[string]string{"instance_id": "acme__calc-2", "model_name_or_path": "m", "model_patch": unapplied})
	preds := filepath.Join(t.TempDir(), "p.jsonl")
	os.WriteFile(preds, []byte(string(p1)+"\n"+string(p2)+"\n"), 0o644)

	type overall struct {
		File struct {
			N  int
			F1 float64
		}
		Node struct {
			N  int
			F1 float64
		}
	}
	full := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", full); code != ExitOK {
		t.Fatalf("eval: %s", stderr)
	}
	rep := readHarnessReport(t, full)
	var got [2]overall
	rb, _ := json.Marshal(rep.Polynfi.Retrieval.Overall)
	json.Unmarshal(rb, &got[0])
	stdout, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--metrics-only", "--format", "json")
	if code != ExitOK {
		t.Fatalf("metrics-only: %s", stderr)
	}
	var mo struct {
		Summary struct{ Overall json.RawMessage }
	}
	json.Unmarshal([]byte(stdout), &mo)
	json.Unmarshal(mo.Summary.Overall, &got[1])
	// Three units in both denominators; only the applied gold patch scores
	// (1 each), the unapplied and the missing prediction count 0.
	for i, g := range got {
		if g.File.N != 3 || g.Node.N != 3 || math.Abs(g.File.F1-1.0/3) > 1e-9 || math.Abs(g.Node.F1-1.0/3) > 1e-9 {
			t.Errorf("%s: %+v, want file and node F1 1/3 over 3 units", []string{"full run", "metrics-only"}[i], g)
		}
	}
}

// The interrupted line holds for SWE-NFI suite runs too: SIGINT a real
// polynfi process on the NFI sample, then every format of the report says
// how many (task, agent, run) units were not evaluated.
func TestReportInterruptedNFIRun(t *testing.T) {
	t.Parallel()
	bin := buildPolynfi(t)
	out := filepath.Join(t.TempDir(), "nfi")
	cmd := exec.Command(bin, "eval", "--dataset", "../../examples/nfi/tasks.jsonl", "--predictions", "../../examples/nfi/predictions.jsonl", "--out", out)
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &bytes.Buffer{}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	records := func() int {
		m, _ := filepath.Glob(filepath.Join(out, "records", "*", "*", "*.json"))
		n, _ := filepath.Glob(filepath.Join(out, "records", "*", "*.json"))
		k, _ := filepath.Glob(filepath.Join(out, "records", "*.json"))
		return len(m) + len(n) + len(k)
	}
	deadline := time.Now().Add(120 * time.Second)
	for time.Now().Before(deadline) && records() < 2 {
		time.Sleep(100 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	if records() >= 72 || records() < 1 {
		t.Fatalf("%d records after SIGINT", records())
	}
	stdout, stderr, code := runCLI(t, "report", "--format", "json", out)
	if code != ExitOK {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	var rep struct {
		Records      int    `json:"records"`
		NotEvaluated int    `json:"not_evaluated"`
		Notice       string `json:"notice"`
	}
	json.Unmarshal([]byte(stdout), &rep)
	if rep.Records+rep.NotEvaluated != 72 || rep.Notice == "" {
		t.Errorf("records %d + not evaluated %d, want 72; notice %q", rep.Records, rep.NotEvaluated, rep.Notice)
	}
	line := fmt.Sprintf("interrupted, %d not evaluated, re-run to resume", rep.NotEvaluated)
	for _, format := range []string{"text", "markdown", "html"} {
		stdout, _, _ := runCLI(t, "report", "--format", format, out)
		if !strings.Contains(stdout, line) {
			t.Errorf("report --format %s lacks %q", format, line)
		}
	}
}
