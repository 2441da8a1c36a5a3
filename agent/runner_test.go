package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/runtime"
)

const (
	fixtureBefore = "def f(x):\n    return x\n"
	fixtureAfter  = "def f(x):\n    \"\"\"Return x. REFERENCE-AFTER-MARKER\"\"\"\n    return x\n"
	agentEdit     = "def f(x):\n    \"\"\"Return x unchanged.\"\"\"\n    return x\n"
)

// fixture is a one-task NFI dataset on disk (its directory is hidden from
// agents), a directory of scripted agents (made visible to them) and a
// ledger directory agents may write to.
type fixture struct {
	task           Task
	dsDir, dsFile  string
	agents, ledger string
	out            string
	isolated       bool
	local          *runtime.Local
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{dsDir: t.TempDir(), agents: t.TempDir(), ledger: t.TempDir(), out: t.TempDir()}
	nt := &dataset.NFITask{InstanceID: "acme__mod-1", Repo: "acme/mod", Description: "Document f.", Aspect: nfi.Documentation, Scope: "single",
		Files:       []dataset.NFIFile{{Path: "pkg/mod.py", Before: fixtureBefore, After: fixtureAfter}},
		Tests:       []dataset.FileContent{{Path: "tests/test_mod.py", Content: "# HELD-BACK-TEST-MARKER\nfrom pkg.mod import f\n\ndef test_f():\n    assert f(1) == 1\n"}},
		TestCommand: "python3 -m pytest -rA -p no:cacheprovider tests"}
	// The agent is an unprivileged user (runtime.AgentUser): it may write
	// the ledger and read the agents' directory as any other user would.
	if err := os.Chmod(f.ledger, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(f.agents, 0o755); err != nil {
		t.Fatal(err)
	}
	f.task = Task{NFI: nt}
	b, _ := json.Marshal(nt)
	f.dsFile = filepath.Join(f.dsDir, "tasks.jsonl")
	if err := os.WriteFile(f.dsFile, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	f.local = runtime.NewLocal(context.Background(), runtime.LocalOptions{})
	t.Cleanup(func() { f.local.Close() })
	f.isolated = f.local.Isolation() == runtime.IsolationBwrap
	return f
}

// needIsolation fails in CI and skips elsewhere when bubblewrap does not work.
func (f *fixture) needIsolation(t *testing.T) {
	t.Helper()
	if f.isolated {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("bubblewrap does not work here (%s); CI must provide it", f.local.Note())
	}
	t.Skipf("bubblewrap does not work here: %s", f.local.Note())
}

// script writes an executable bash script into the agents directory.
func (f *fixture) script(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(f.agents, name)
	if err := os.WriteFile(p, []byte("#!/bin/bash\nset -u\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *fixture) run(t *testing.T, opt Options) *Summary {
	t.Helper()
	opt.Out = f.out
	opt.Runtime = f.local
	opt.Visible = append(opt.Visible, f.agents)
	opt.Writable = append(opt.Writable, f.ledger)
	if opt.Runs == 0 {
		opt.Runs = 1
	}
	r, err := NewRunner(opt, []string{f.dsDir})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := r.Run(context.Background(), []Task{f.task})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func (f *fixture) record(t *testing.T, name string, run int) (*Record, map[string]any) {
	t.Helper()
	dir := RunDir(f.out, name, f.task.ID(), run)
	rec, ok := readRecord(dir)
	if !ok {
		t.Fatalf("no record in %s", dir)
	}
	var pred map[string]any
	if b, err := os.ReadFile(filepath.Join(dir, PredictionFile)); err == nil {
		if err := json.Unmarshal(b, &pred); err != nil {
			t.Fatal(err)
		}
	}
	return rec, pred
}

func TestClaudeStyleAgent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cmd := f.script(t, "claude.sh", (`
cat > /tmp/stdin.txt                # the prompt arrives on stdin
grep -q 'Document f.' /tmp/stdin.txt || { echo "no prompt on stdin" >&2; exit 9; }
cmp -s /tmp/stdin.txt "$POLYNFI_PROMPT_FILE" || { echo "stdin differs from the prompt file" >&2; exit 9; }
printf 'def f(x):\n    """Return x unchanged."""\n    return x\n' > pkg/mod.py
echo '{"type":"result","subtype":"success","is_error":false,"duration_ms":1234,"num_turns":3,"result":"ok","total_cost_usd":0.042,"usage":{"input_tokens":100,"cache_creation_input_tokens":900,"cache_read_input_tokens":0,"output_tokens":250}}'
`))
	sum := f.run(t, Options{Agent: "claude", Command: cmd + " {workdir}", Name: "claude-scripted"})
	if sum.ByStatus[StatusCompleted] != 1 {
		rec, _ := f.record(t, "claude-scripted", 0)
		b, _ := os.ReadFile(filepath.Join(RunDir(f.out, "claude-scripted", f.task.ID(), 0), StderrFile))
		t.Fatalf("statuses %v: %+v\n%s", sum.ByStatus, rec, b)
	}
	rec, pred := f.record(t, "claude-scripted", 0)
	if *rec.Usage.TokensIn != 1000 || *rec.Usage.TokensOut != 250 || *rec.Usage.CostUSD != 0.042 || *rec.Usage.Turns != 3 {
		t.Errorf("usage %+v", rec.Usage)
	}
	files, _ := pred["files"].(map[string]any)
	if files["pkg/mod.py"] != agentEdit || pred["tokens_in"] != 1000.0 || pred["cost_usd"] != 0.042 || pred["duration_s"] == nil {
		t.Errorf("prediction %v", pred)
	}
	if !strings.Contains(rec.Command, f.agents) || rec.ExitCode != 0 || len(rec.EnvNames) == 0 {
		t.Errorf("record command %q exit %d env %v", rec.Command, rec.ExitCode, rec.EnvNames)
	}
	if rec.Timing.OverheadS <= 0 || rec.Timing.OverheadS >= rec.Timing.TotalS {
		t.Errorf("timing %+v", rec.Timing)
	}
	preds, err := dataset.LoadPredictions(filepath.Join(f.out, PredictionsFile))
	if err != nil || len(preds.Errors) > 0 || len(preds.Predictions) != 1 || preds.Predictions[0].Files["pkg/mod.py"] != agentEdit {
		t.Fatalf("predictions.jsonl does not load as eval reads it: %v %v", err, preds)
	}
}

func TestCodexStyleAgentUnknownCost(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cmd := f.script(t, "codex.sh", `
echo '{"type":"thread.started","thread_id":"t1"}'
echo '{"type":"turn.started"}'
sed -i 's/return x/return x  # same/' pkg/mod.py
echo '{"type":"turn.completed","usage":{"input_tokens":5000,"cached_input_tokens":4000,"output_tokens":300}}'
echo '{"type":"turn.started"}'
echo '{"type":"turn.completed","usage":{"input_tokens":5700,"cached_input_tokens":4000,"output_tokens":320}}'
`)
	// turn.completed carries the thread's running totals: the last counts.
	f.run(t, Options{Agent: "codex", Command: cmd, Runs: 2})
	for run := 0; run < 2; run++ {
		rec, pred := f.record(t, "codex", run)
		if rec.Status != StatusCompleted || *rec.Usage.TokensIn != 5700 || *rec.Usage.TokensOut != 320 || rec.Usage.CostUSD != nil {
			t.Errorf("run %d: %s %+v", run, rec.Status, rec.Usage)
		}
		if v, ok := pred["cost_usd"]; !ok || v != nil {
			t.Errorf("run %d: cost_usd %v, want null (unknown)", run, v)
		}
	}
}

// TestHangingAgentTreeKilled: an agent that hangs is killed at its
// timeout with everything it started (a background child that would write
// to the ledger 3 s later never does). Every process of the tree holds a
// FIFO of the ledger open: the test awaits the FIFO's end of file (every
// holder gone) rather than sleeping past the children's delay.
func TestHangingAgentTreeKilled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	alive := filepath.Join(f.ledger, "alive")
	if err := syscall.Mkfifo(alive, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(alive, 0o666); err != nil {
		t.Fatal(err)
	}
	// Without a sandbox a child that left the process group may outlive
	// the agent (only the PID namespace kills it): it lets the FIFO go.
	setsidFIFO := ""
	if !f.isolated {
		setsidFIFO = "exec 3>&-; "
	}
	cmd := f.script(t, "hang.sh", fmt.Sprintf(`
exec 3<>%[1]s/alive
echo started > %[1]s/started
( sleep 3; echo late > %[1]s/late ) &
setsid bash -c '%[2]ssleep 3; echo late > %[1]s/late-setsid' &
sleep 300
`, f.ledger, setsidFIFO))
	start := time.Now()
	sum := f.run(t, Options{Agent: "cmd", Command: cmd, Timeout: time.Second})
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("run took %s for a 1s timeout", took)
	}
	rec, _ := f.record(t, "cmd", 0)
	if rec.Status != StatusTimeout || !rec.TimedOut || sum.ByStatus[StatusTimeout] != 1 {
		t.Fatalf("status %s timed out %v", rec.Status, rec.TimedOut)
	}
	if _, err := os.Stat(filepath.Join(f.ledger, "started")); err != nil {
		t.Fatalf("the agent never ran: %v", err)
	}
	// A read end opened without blocking: EOF once no process of the
	// agent's tree holds the FIFO; EAGAIN while one does.
	fd, err := syscall.Open(alive, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	deadline := time.Now().Add(10 * time.Second)
	for buf := make([]byte, 64); ; {
		n, err := syscall.Read(fd, buf)
		if n == 0 && err == nil {
			break // every holder is gone
		}
		if time.Now().After(deadline) {
			t.Fatalf("a process of the agent's tree still holds the ledger's FIFO 10s after the timeout (read %d, %v)", n, err)
		}
		time.Sleep(20 * time.Millisecond) // polling for the event
	}
	if _, err := os.Stat(filepath.Join(f.ledger, "late")); err == nil {
		t.Error("a child of the agent outlived the timeout")
	}
	if f.isolated {
		// A child that left the process group dies with the sandbox's PID namespace.
		if _, err := os.Stat(filepath.Join(f.ledger, "late-setsid")); err == nil {
			t.Error("a setsid child of the agent outlived the timeout")
		}
	}
}

func TestCrashingAgentKeepsItsChange(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cmd := f.script(t, "crash.sh", `echo '# partial' >> pkg/mod.py; echo boom >&2; exit 3`)
	sum := f.run(t, Options{Agent: "cmd", Command: cmd})
	rec, pred := f.record(t, "cmd", 0)
	if rec.Status != StatusFailed || rec.ExitCode != 3 || sum.ByStatus[StatusFailed] != 1 {
		t.Fatalf("status %s exit %d", rec.Status, rec.ExitCode)
	}
	files, _ := pred["files"].(map[string]any)
	if files["pkg/mod.py"] != fixtureBefore+"# partial\n" {
		t.Errorf("prediction %v", pred)
	}
	if b, _ := os.ReadFile(filepath.Join(RunDir(f.out, "cmd", f.task.ID(), 0), StderrFile)); string(b) != "boom\n" {
		t.Errorf("stderr.log %q", b)
	}
	// --redo runs a failed run again; without it the record is kept.
	again := f.run(t, Options{Agent: "cmd", Command: cmd})
	if again.Reused != 1 || again.Ran != 0 {
		t.Errorf("re-run: %d reused, %d ran; want the failed run kept", again.Reused, again.Ran)
	}
	redo := f.run(t, Options{Agent: "cmd", Command: cmd, Redo: true})
	if redo.Ran != 1 {
		t.Errorf("--redo ran %d runs, want 1", redo.Ran)
	}
}

// TestRunBudgetStopsAgent: an agent reporting 1,000 tokens a turn for 40
// turns (40 s) is stopped once it passes a 2,500-token budget.
func TestRunBudgetStopsAgent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cmd := f.script(t, "spender.sh", `
for i in $(seq 400); do
  echo '{"type":"turn.completed","usage":{"input_tokens":'$((900 * i))',"cached_input_tokens":0,"output_tokens":'$((100 * i))'}}'
  sleep 0.1
done
`)
	start := time.Now()
	f.run(t, Options{Agent: "codex", Command: cmd, MaxTokens: 2500})
	rec, _ := f.record(t, "codex", 0)
	if rec.Status != StatusOverBudget || !strings.Contains(rec.OverBudget, "run tokens 3000 > 2500") {
		t.Fatalf("status %s over %q", rec.Status, rec.OverBudget)
	}
	if took := time.Since(start); took > 25*time.Second {
		t.Errorf("stopped after %s; the agent would have run 40 s", took)
	}
}

// TestTotalBudget: with a whole-run budget of 1,500 tokens and agents of
// 1,000 tokens each, the first run completes, the second is stopped when
// its report passes the budget, and the third never starts.
func TestTotalBudget(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cmd := f.script(t, "claude.sh", `echo '{"type":"result","is_error":false,"total_cost_usd":0.01,"usage":{"input_tokens":800,"output_tokens":200}}'; sleep 0.5`)
	sum := f.run(t, Options{Agent: "claude", Command: cmd, Runs: 3, TotalMaxTokens: 1500})
	r0, _ := f.record(t, "claude", 0)
	r1, _ := f.record(t, "claude", 1)
	if r0.Status != StatusCompleted || r1.Status != StatusOverBudget || !strings.HasPrefix(r1.OverBudget, "total tokens 2000 > 1500") {
		t.Errorf("statuses %s, %s (%s)", r0.Status, r1.Status, r1.OverBudget)
	}
	if sum.NotStarted != 1 || sum.Ran != 2 {
		t.Errorf("ran %d, not started %d; want 2 and 1", sum.Ran, sum.NotStarted)
	}
	if _, ok := readRecord(RunDir(f.out, "claude", f.task.ID(), 2)); ok {
		t.Error("run 2 was recorded although the budget was spent")
	}
}

// TestHostileAgent: an agent that tries to write outside its workspace,
// to read the dataset (the reference solution and the held-back tests),
// another run's output and polynfi's environment gets none of them.
func TestHostileAgent(t *testing.T) {
	f := newFixture(t)
	f.needIsolation(t)
	t.Setenv("POLYNFI_TEST_SECRET", "s3cr3t-value")
	home, _ := os.UserHomeDir()
	escapeHome := filepath.Join(home, fmt.Sprintf(".polynfi-escape-%d", os.Getpid()))
	escapeTmp := filepath.Join(os.TempDir(), fmt.Sprintf("polynfi-escape-%d", os.Getpid()))
	t.Cleanup(func() { os.Remove(escapeHome); os.Remove(escapeTmp) })
	cmd := f.script(t, "hostile.sh", fmt.Sprintf(`
try() { if eval "$2" 2>/dev/null; then echo "$1: yes"; else echo "$1: no"; fi; }
try write-parent 'echo x > ../escape-parent'
try write-home 'echo x > %[1]s'
try write-tmp 'echo x > %[2]s'
try write-out 'echo x > %[3]s/escape-out'
try read-dataset 'grep -q REFERENCE-AFTER-MARKER %[4]s'
try read-tests 'grep -rq HELD-BACK-TEST-MARKER %[5]s'
try read-other-run 'grep -rq RUN0-SECRET %[3]s/runs'
try see-secret-env 'env | grep -q s3cr3t-value'
try read-own-out 'test -w "$POLYNFI_OUT_DIR"'
echo RUN0-SECRET > "$POLYNFI_OUT_DIR/notes.txt"
sed -i 's/return x/return x  # edited/' pkg/mod.py
`, escapeHome, escapeTmp, f.out, f.dsFile, f.dsDir))
	f.run(t, Options{Agent: "cmd", Command: cmd, Runs: 2})
	for run := 0; run < 2; run++ {
		rec, pred := f.record(t, "cmd", run)
		b, _ := os.ReadFile(filepath.Join(RunDir(f.out, "cmd", f.task.ID(), run), StdoutFile))
		got := string(b)
		// write-home writes into the run's private home, never the host's
		// (checked below).
		for _, want := range []string{"read-dataset: no", "read-tests: no", "read-other-run: no", "see-secret-env: no", "read-own-out: yes"} {
			if !strings.Contains(got, want) {
				t.Errorf("run %d: want %q in\n%s", run, want, got)
			}
		}
		if rec.Status != StatusCompleted {
			t.Errorf("run %d: status %s", run, rec.Status)
		}
		files, _ := pred["files"].(map[string]any)
		if len(files) != 1 || !strings.Contains(fmt.Sprint(files["pkg/mod.py"]), "# edited") {
			t.Errorf("run %d: prediction files %v", run, files)
		}
		if len(rec.Trajectory) != 1 || rec.Trajectory[0] != "notes.txt" {
			t.Errorf("run %d: trajectory %v", run, rec.Trajectory)
		}
	}
	for _, p := range []string{escapeHome, escapeTmp, filepath.Join(f.out, "escape-out")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("the agent wrote %s on the host", p)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(f.out, ".work", "*", "*", "escape-parent"))
	if len(matches) > 0 {
		t.Errorf("the agent wrote outside its workspace: %v", matches)
	}
}

// TestGoldAgent: the oracle's prediction is the reference after.
func TestGoldAgent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.run(t, Options{Agent: GoldAgent})
	rec, pred := f.record(t, GoldAgent, 0)
	files, _ := pred["files"].(map[string]any)
	if rec.Status != StatusCompleted || files["pkg/mod.py"] != fixtureAfter || pred["tokens_in"] != nil {
		t.Errorf("status %s, prediction %v", rec.Status, pred)
	}
}

// BenchmarkRunOverhead measures polynfi's own time per agent run
// (workspace, sandbox start, collection, records) with an agent that does
// nothing: the reported overhead_s/run is Timing.OverheadS averaged.
func BenchmarkRunOverhead(b *testing.B) {
	f := newFixture(b)
	r, err := NewRunner(Options{Agent: "cmd", Command: "true", Runs: 1, Out: f.out, Runtime: f.local, Redo: true}, []string{f.dsDir})
	if err != nil {
		b.Fatal(err)
	}
	var overhead float64
	n := 0
	for b.Loop() {
		// Each iteration is a new run of the same task (run 0 redone).
		os.RemoveAll(filepath.Join(f.out, "runs"))
		sum, err := r.Run(context.Background(), []Task{f.task})
		if err != nil || sum.Ran != 1 {
			b.Fatalf("%v %+v", err, sum)
		}
		overhead += sum.Records[0].Timing.OverheadS
		n++
	}
	b.ReportMetric(overhead/float64(n), "overhead_s/run")
}
