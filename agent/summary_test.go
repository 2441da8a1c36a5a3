package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCrashedAgentHasNoPrediction: an agent that crashes before changing
// anything is a failed run whose record gives its exit code and the last
// line of its stderr, and it writes no prediction (eval counts a missing
// prediction, as SWE-bench does), where it used to write an empty one.
func TestCrashedAgentHasNoPrediction(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cmd := f.script(t, "crash.sh", `echo starting >&2; echo 'RuntimeError: model API refused the key' >&2; exit 7`)
	sum := f.run(t, Options{Agent: "cmd", Command: cmd})
	rec, pred := f.record(t, "cmd", 0)
	if rec.Status != StatusFailed || sum.ByStatus[StatusFailed] != 1 {
		t.Fatalf("status %s", rec.Status)
	}
	if want := "the agent exited with code 7; stderr ends: RuntimeError: model API refused the key"; rec.Reason() != want || rec.Error != want {
		t.Errorf("reason %q, error %q; want %q", rec.Reason(), rec.Error, want)
	}
	if pred != nil {
		t.Errorf("a crashed run that changed nothing wrote a prediction: %v", pred)
	}
	if b, err := os.ReadFile(filepath.Join(f.out, PredictionsFile)); err != nil || len(b) != 0 {
		t.Errorf("predictions.jsonl %q (%v); want it empty", b, err)
	}
	found := false
	for _, n := range rec.Notes {
		found = found || n == NoPredictionNote
	}
	if !found {
		t.Errorf("the record does not say why there is no prediction: %v", rec.Notes)
	}
}

// TestSummaryCountsInterrupted: 4 runs on 2 workers, interrupted once run
// 0 is recorded while run 1 is in flight: 1 ran, 1 interrupted in
// flight, 2 never started; nothing is counted as not started for a
// budget.
func TestSummaryCountsInterrupted(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// Run 0 finishes only once run 1 has started, so that run 1 is in
	// flight at the interruption whatever the load.
	cmd := f.script(t, "slow.sh", `
if [ "$POLYNFI_RUN" = 0 ]; then
  while [ ! -e '`+f.ledger+`/started-1' ]; do sleep 0.05; done
  exit 0
fi
touch '`+f.ledger+`/started-'"$POLYNFI_RUN"
sleep 600
`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := NewRunner(Options{Agent: "cmd", Command: cmd, Runs: 4, Workers: 2, Out: f.out, Runtime: f.local,
		Visible: []string{f.agents}, Writable: []string{f.ledger},
		Progress: func(Event) { cancel() }}, []string{f.dsDir})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := r.Run(ctx, []Task{f.task})
	if err == nil || !sum.Interrupted {
		t.Fatalf("not interrupted: %v", err)
	}
	if sum.Total != 4 || sum.Ran != 1 || sum.Abandoned != 1 || sum.Stopped != 2 || sum.NotStarted != 0 {
		t.Errorf("total %d, ran %d, interrupted in flight %d, not started (interrupted) %d, not started (budget) %d; want 4, 1, 1, 2, 0",
			sum.Total, sum.Ran, sum.Abandoned, sum.Stopped, sum.NotStarted)
	}
}

// TestSummaryNamesSpentBudget: the whole-run budget spent by the first
// run leaves the other two not started, and the summary names the budget.
func TestSummaryNamesSpentBudget(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cmd := f.script(t, "claude.sh", `echo '{"type":"result","is_error":false,"total_cost_usd":0.01,"usage":{"input_tokens":800,"output_tokens":200}}'`)
	sum := f.run(t, Options{Agent: "claude", Command: cmd, Runs: 3, TotalMaxTokens: 500})
	if sum.NotStarted != 2 || sum.Ran != 1 || sum.Stopped != 0 || sum.Abandoned != 0 || !strings.HasPrefix(sum.BudgetSpent, "total tokens 1000 > 500") {
		t.Errorf("ran %d, not started %d (%q), stopped %d, abandoned %d; want 1, 2 (total tokens 1000 > 500), 0, 0",
			sum.Ran, sum.NotStarted, sum.BudgetSpent, sum.Stopped, sum.Abandoned)
	}
}
