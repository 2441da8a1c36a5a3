package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunDirLinksNotFollowed: the output directory of `polynfi run` is not
// trusted. A run's prediction replaced by a symbolic link to a host file
// is not copied into predictions.jsonl, and a run directory whose agent
// directory is a link to a directory elsewhere is neither emptied nor
// written through when the run is done again. Before, the host file
// became a prediction and the linked directory's files were deleted.
func TestRunDirLinksNotFollowed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.run(t, Options{Agent: GoldAgent})
	runDir := RunDir(f.out, GoldAgent, f.task.ID(), 0)
	outside := t.TempDir()
	host := filepath.Join(outside, "host.json")
	const secret = "HOST-SECRET-91c2"
	os.WriteFile(host, []byte(`{"instance_id": "`+secret+`"}`+"\n"), 0o600)

	pred := filepath.Join(runDir, PredictionFile)
	os.Remove(pred)
	if err := os.Symlink(host, pred); err != nil {
		t.Fatal(err)
	}
	err := WritePredictions(f.out)
	if b, _ := os.ReadFile(filepath.Join(f.out, PredictionsFile)); strings.Contains(string(b), secret) {
		t.Fatalf("the host file became a prediction:\n%s", b)
	}
	if err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), PredictionFile) {
		t.Errorf("WritePredictions: got %v, want an error naming %s as a symbolic link", err, PredictionFile)
	}

	// The agent's directory moved elsewhere, a link left in its place,
	// its record gone (so the run is done again).
	agentDir := filepath.Join(f.out, "runs", safeName(GoldAgent))
	moved := filepath.Join(outside, "agent")
	if err := os.Rename(agentDir, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, agentDir); err != nil {
		t.Fatal(err)
	}
	movedRun := filepath.Join(moved, safeName(f.task.ID()), "run-0")
	os.Remove(filepath.Join(movedRun, RecordFile))
	keep := filepath.Join(movedRun, "keep.txt")
	os.WriteFile(keep, []byte("keep"), 0o644)
	r, err := NewRunner(Options{Agent: GoldAgent, Runs: 1, Out: f.out, Runtime: f.local, Visible: []string{f.agents}}, []string{f.dsDir})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Run(context.Background(), []Task{f.task})
	if _, serr := os.Stat(keep); serr != nil {
		t.Fatalf("the run emptied the linked directory %s: %v", movedRun, serr)
	}
	if _, serr := os.Stat(filepath.Join(movedRun, RecordFile)); serr == nil {
		t.Fatalf("the run wrote its record through the linked directory")
	}
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Run: got %v, want an error naming the symbolic link", err)
	}
}
