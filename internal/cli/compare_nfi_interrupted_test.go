package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polynfi/polynfi/nfirecord"
)

// interruptNFISample runs a real polynfi eval of the bundled SWE-NFI sample
// into a new directory and sends SIGINT once at least k records exist;
// it returns the run directory (its records and an incomplete manifest).
func interruptNFISample(t *testing.T, k int) string {
	t.Helper()
	bin := buildPolynfi(t)
	out := filepath.Join(t.TempDir(), "nfi-intr")
	cmd := exec.Command(bin, "eval", "--dataset", "../../examples/nfi/tasks.jsonl", "--predictions", "../../examples/nfi/predictions.jsonl", "--out", out)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A safety bound only: the loop ends as soon as k records exist.
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		if recs, _, _ := nfirecord.ReadRecords(out); len(recs) >= k {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != ExitInterrupted {
		t.Fatalf("eval after SIGINT: exit %d, want %d\n%s", code, ExitInterrupted, stderr.String())
	}
	return out
}

// "polynfi compare RUN_A RUN_B where one side is an interrupted SWE-NFI run
// (SIGINT mid-run of polynfi eval --dataset examples/nfi/tasks.jsonl): the
// interrupted side's not-evaluated units are shown only as 'on one side
// only', without the 'B interrupted: N not evaluated' line that compare
// already prints for SWE-PolyBench runs." The NFI path must treat them as
// the PolyBench path does: out of the pairs and of the rate, the line in
// every format.
func TestCompareInterruptedNFIRun(t *testing.T) {
	t.Parallel()
	full := nfiSampleRun(t)
	intr := interruptNFISample(t, 4)
	recs, _, err := nfirecord.ReadRecords(intr)
	if err != nil {
		t.Fatal(err)
	}
	// The agent the interrupted run reached, and how many of its 36 (task,
	// run) units (12 tasks x 3 runs) it evaluated.
	perModel := map[string]int{}
	for _, r := range recs {
		perModel[r.Model]++
	}
	model, done := "", 0
	for m, n := range perModel {
		if n > done {
			model, done = m, n
		}
	}
	const units = 36
	if done == 0 || done >= units {
		t.Fatalf("interrupted run holds %v records per agent: want some but not all of one agent's %d", perModel, units)
	}
	notEval := units - done
	stdout, stderr, code := runCLI(t, "compare", "--format", "json", "--model-a", model, "--model-b", model, full, intr)
	if code != ExitOK {
		t.Fatalf("compare: exit %d\n%s", code, stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	sa, sb := doc["a"].(map[string]any), doc["b"].(map[string]any)
	if sb["units"] != float64(done) || sb["not_evaluated"] != float64(notEval) || sb["interrupted"] != true ||
		len(sb["not_evaluated_ids"].([]any)) != notEval || sa["units"] != float64(units) || sa["not_evaluated"] != float64(0) {
		t.Errorf("sides: A %v\nB %v\nwant B %d evaluated, %d not evaluated, interrupted; A %d units", sa, sb, done, notEval, units)
	}
	if doc["paired"] != float64(done) || len(doc["unpaired"].([]any)) != 0 {
		t.Errorf("paired %v, unpaired %v: want %d pairs, none on one side only", doc["paired"], doc["unpaired"], done)
	}
	line := fmt.Sprintf("B interrupted: %d not evaluated, left out of the pairs and of B's rate", notEval)
	if n, _ := doc["notices"].([]any); len(n) != 1 || !strings.Contains(fmt.Sprint(n[0]), line) {
		t.Errorf("JSON notices %v, want %q", doc["notices"], line)
	}
	for _, format := range []string{"text", "markdown", "html"} {
		stdout, stderr, code := runCLI(t, "compare", "--format", format, "--model-a", model, "--model-b", model, full, intr)
		stdout = html.UnescapeString(stdout) // HTML writes B's as B&#39;s
		if code != ExitOK || !strings.Contains(stdout, line) || strings.Contains(stdout, "one side only") {
			t.Errorf("compare --format %s: exit %d, want %q and no unit on one side only\n%s\n%s", format, code, line, stdout, stderr)
		}
	}
	// The other way round: A is the interrupted side.
	stdout, stderr, code = runCLI(t, "compare", "--model-a", model, "--model-b", model, intr, full)
	if want := fmt.Sprintf("A interrupted: %d not evaluated, left out of the pairs and of A's rate", notEval); code != ExitOK || !strings.Contains(stdout, want) {
		t.Errorf("compare INTR FULL: exit %d, want %q\n%s\n%s", code, want, stdout, stderr)
	}
	// An agent of the run's manifest that the interrupt left without any
	// record is an agent of the run with nothing evaluated, not an agent
	// the run does not hold.
	for _, other := range []string{"agent-alpha", "agent-beta"} {
		if perModel[other] > 0 {
			continue
		}
		_, stderr, code := runCLI(t, "compare", "--model-a", other, "--model-b", other, full, intr)
		if code == ExitOK || code == ExitUsage || !strings.Contains(stderr, fmt.Sprintf("%d not evaluated", units)) || !strings.Contains(stderr, "interrupted") {
			t.Errorf("compare of %s, which the interrupted run never reached: exit %d, want exit %d naming %d not evaluated (interrupted)\n%s", other, code, ExitError, units, stderr)
		}
	}
}
