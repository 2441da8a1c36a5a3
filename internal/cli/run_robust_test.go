package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/agent"
)

// mainCode runs polynfi in-process and returns its exit code and streams.
func mainCode(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestRunCrashedAgentReported: an agent that crashes on one task is listed
// in the summary with its reason (exit code, last stderr line), writes no
// prediction for it (not an empty one), and eval counts that run as a
// missing prediction.
func TestRunCrashedAgentReported(t *testing.T) {
	t.Parallel()
	ds, _ := filepath.Abs("../../examples/nfi/tasks.jsonl")
	out := filepath.Join(t.TempDir(), "runs")
	cmd := `if [ "$POLYNFI_INSTANCE_ID" = acme__inventory-101 ]; then echo 'Traceback (most recent call last):' >&2; echo 'KeyError: OPENAI_API_KEY' >&2; exit 7; fi; echo '# touched' >> {files}`
	stdout, _ := mainOK(t, "run", "--dataset", ds, "--out", out, "--no-isolation", "--agent-cmd", cmd,
		"--instance-ids", "acme__inventory-101,taskq__jobs-94")
	want := "acme__inventory-101 run 0: failed: the agent exited with code 7; stderr ends: KeyError: OPENAI_API_KEY"
	if !strings.Contains(stdout, want) || !strings.Contains(stdout, "runs that did not complete (1;") {
		t.Errorf("want %q in the summary:\n%s", want, stdout)
	}
	preds, err := os.ReadFile(filepath.Join(out, agent.PredictionsFile))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(preds)), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "taskq__jobs-94") {
		t.Errorf("predictions.jsonl: want only taskq__jobs-94's prediction, got\n%s", preds)
	}
	evalOut := filepath.Join(t.TempDir(), "eval")
	_, stderr := mainOK(t, "eval", "--dataset", ds, "--predictions", filepath.Join(out, agent.PredictionsFile), "--out", evalOut,
		"--instance-ids", "acme__inventory-101,taskq__jobs-94")
	if !strings.Contains(stderr, "1 missing predictions") {
		t.Errorf("eval does not count the crashed run as a missing prediction:\n%s", stderr)
	}
	// JSON names it too.
	_, js, _ := mainCode("run", "--dataset", ds, "--out", out, "--no-isolation", "--agent-cmd", cmd,
		"--instance-ids", "acme__inventory-101,taskq__jobs-94", "--format", "json")
	if !strings.Contains(js, `"reason": "the agent exited with code 7; stderr ends: KeyError: OPENAI_API_KEY"`) || !strings.Contains(js, `"prediction": false`) {
		t.Errorf("json summary:\n%s", js)
	}
}

// TestRunBudgetNotStartedExit: when a whole-run budget is spent and runs
// were not started, run says so and exits 1, with exact counts.
func TestRunBudgetNotStartedExit(t *testing.T) {
	t.Parallel()
	ds, _ := filepath.Abs("../../examples/nfi/tasks.jsonl")
	out := filepath.Join(t.TempDir(), "runs")
	cmd := `echo '{"type":"result","is_error":false,"total_cost_usd":0.01,"usage":{"input_tokens":800,"output_tokens":200}}'`
	code, stdout, stderr := mainCode("run", "--dataset", ds, "--out", out, "--no-isolation", "--agent", "claude", "--agent-cmd", cmd,
		"--runs", "3", "--total-max-tokens", "500", "--instance-ids", "acme__inventory-101", "--workers", "1")
	if code != ExitFindings {
		t.Errorf("exit %d, want %d", code, ExitFindings)
	}
	if !strings.Contains(stdout, "runs: 3 (1 run now, 0 already recorded, 2 not started: whole-run budget spent (total tokens 1000 > 500))") {
		t.Errorf("summary:\n%s", stdout)
	}
	if !strings.Contains(stderr, "2 of 3 runs not started: the whole-run budget was spent (total tokens 1000 > 500)") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if strings.Contains(stdout, "interrupted") {
		t.Errorf("nothing was interrupted:\n%s", stdout)
	}
}

// TestScoreOutputIsDirectory: `score --output DIR` says DIR is a
// directory (exit 2) instead of a rename error, and scores nothing.
func TestScoreOutputIsDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "m.py")
	if err := os.WriteFile(src, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outDir := filepath.Join(dir, "results")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"score", "--output", outDir, src}, {"diff", "--output", outDir, src, src}} {
		code, _, stderr := mainCode(cmd...)
		if code != ExitUsage || !strings.Contains(stderr, "--out "+outDir+" is a directory: give a file path") || strings.Contains(stderr, "rename") {
			t.Errorf("%v: exit %d\n%s", cmd, code, stderr)
		}
	}
	code, _, stderr := mainCode("score", "--output", filepath.Join(dir, "nosuch", "x.json"), src)
	if code != ExitError || !strings.Contains(stderr, "directory "+filepath.Join(dir, "nosuch")+" does not exist") {
		t.Errorf("missing directory: exit %d\n%s", code, stderr)
	}
	if entries, _ := os.ReadDir(outDir); len(entries) != 0 {
		t.Errorf("%d files left in %s", len(entries), outDir)
	}
}
