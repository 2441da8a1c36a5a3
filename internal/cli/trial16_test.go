package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/report"
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
	recs, _, err := harness.ReadRecords(out)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records: %v, %d", err, len(recs))
	}
	rec := recs[0]
	if rec.Status != harness.StatusResolved || rec.ModelPatchApply == nil || !strings.Contains(rec.ModelPatchApply.Method, "fuzz") {
		t.Fatalf("the corrupted gold patch should apply with fuzz and resolve: status %s, apply %+v", rec.Status, rec.ModelPatchApply)
	}
	const node = "ledger/money.py->module->class_definition:Money->function_definition:allocate"
	full := rec.Retrieval
	if full == nil || full.File.F1 != 1 || full.Node == nil || full.Node.F1 != 1 || full.NodeError != "" ||
		len(full.PredictedNodes) != 1 || full.PredictedNodes[0] != node {
		t.Errorf("full run: the applied patch's metrics are %+v, want file F1 1, node F1 1 (%s), no node error", full, node)
	}
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
			t.Errorf("--metrics-only scores the same prediction differently from the full run:\nmetrics-only %+v\nfull run     %+v", m, *full)
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
