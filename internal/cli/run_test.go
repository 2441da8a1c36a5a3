package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polynfi/polynfi/agent"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/nfisuite"
	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/runrecord"
)

// scriptedAgent is a coding agent written for the tests: it replays what a
// recorded agent did on the task (its knowledge file maps instance_id →
// one entry per recorded run: the files to write, null to delete, or a
// patch to git-apply), appends "agent instance run" to a ledger, and
// prints its usage in Claude Code's result envelope or as Codex's JSON
// events. Tokens are counted from the prompt it read and what it wrote
// (4 characters a token), so that they differ by task.
const scriptedAgent = `import json, os, subprocess, sys, time
style, knowledge, ledger, name = sys.argv[1:5]
iid, run = os.environ["POLYNFI_INSTANCE_ID"], int(os.environ["POLYNFI_RUN"])
prompt = sys.stdin.read()
assert prompt == open(os.environ["POLYNFI_PROMPT_FILE"]).read(), "stdin is not the prompt"
entries = json.load(open(knowledge))[iid]
entry = entries[run % len(entries)]
written = 0
for path, content in sorted((entry.get("files") or {}).items()):
    if content is None:
        os.remove(path)
        continue
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        f.write(content)
    written += len(content)
if entry.get("patch"):
    subprocess.run(["git", "apply", "-"], input=entry["patch"].encode(), check=True)
    written += len(entry["patch"])
with open(os.path.join(ledger, name + ".log"), "a") as f:
    f.write("%s %s %d\n" % (name, iid, run))
time.sleep(0.05)
tin, tout = len(prompt) // 4 + 50 * run, written // 4 + 20
if style == "claude":
    print(json.dumps({"type": "result", "subtype": "success", "is_error": False, "duration_ms": 50, "num_turns": 1 + run,
                      "result": "done", "total_cost_usd": round(tin * 3e-6 + tout * 15e-6, 6),
                      "usage": {"input_tokens": tin, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": tout}}))
else:
    print(json.dumps({"type": "thread.started", "thread_id": "t-%s-%d" % (iid, run)}))
    print(json.dumps({"type": "turn.started"}))
    print(json.dumps({"type": "turn.completed", "usage": {"input_tokens": tin, "cached_input_tokens": 0, "output_tokens": tout}}))
`

// agentKit is a directory with the scripted agent and its knowledge files
// (visible to agents) and a ledger directory (writable by them).
type agentKit struct {
	dir, ledger string
}

func newAgentKit(t *testing.T) *agentKit {
	t.Helper()
	k := &agentKit{dir: t.TempDir(), ledger: t.TempDir()}
	// The agent is an unprivileged user (runtime.AgentUser): it may write
	// the ledger and read the kit as any other user would.
	if err := os.Chmod(k.ledger, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(k.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(k.dir, "agent.py"), []byte(scriptedAgent), 0o644); err != nil {
		t.Fatal(err)
	}
	return k
}

type kitEntry struct {
	Files map[string]*string `json:"files,omitempty"`
	Patch string             `json:"patch,omitempty"`
}

// knowledge writes one agent's knowledge file and returns its path.
func (k *agentKit) knowledge(t *testing.T, name string, m map[string][]kitEntry) string {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(k.dir, name+".json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// args are the `polynfi run` arguments of one scripted agent.
func (k *agentKit) args(ds, out, style, name, knowledge string, runs int) []string {
	return []string{"run", "--dataset", ds, "--agent", style, "--name", name, "--out", out, "--runs", fmt.Sprint(runs), "--workers", "2",
		"--agent-cmd", fmt.Sprintf("python3 %s %s %s %s %s", filepath.Join(k.dir, "agent.py"), style, knowledge, k.ledger, name),
		"--agent-visible", k.dir, "--agent-writable", k.ledger, "--timeout", "60s"}
}

// ledger counts how often each "agent instance run" line was written.
func (k *agentKit) ledgerCounts(t *testing.T, name string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	f, err := os.Open(filepath.Join(k.ledger, name+".log"))
	if err != nil {
		return counts
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		counts[sc.Text()]++
	}
	return counts
}

func mainOK(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), args, &stdout, &stderr); code != ExitOK {
		t.Fatalf("polynfi %s: exit %d\n%s\n%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// waitNoProcess waits until no process's command line holds arg, and fails
// the test if one still does after limit.
func waitNoProcess(t *testing.T, arg string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		var alive []string
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			if _, err := strconv.Atoi(e.Name()); err != nil {
				continue
			}
			b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err == nil && bytes.Contains(b, []byte(arg)) {
				alive = append(alive, e.Name())
			}
		}
		if len(alive) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes %v still run %s %s after their parent was killed", alive, arg, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func runRecords(t *testing.T, out string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	filepath.WalkDir(filepath.Join(out, "runs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == agent.RecordFile {
			b, _ := os.ReadFile(p)
			m[p] = b
		}
		return nil
	})
	return m
}

// nfiKnowledge turns the bundled SWE-NFI sample's recorded predictions of
// one agent into a scripted agent's knowledge (the complete files each of
// its runs produced; diff predictions resolved against the code before).
func nfiKnowledge(t *testing.T, tasks []dataset.NFITask, preds []dataset.Prediction, model string) map[string][]kitEntry {
	t.Helper()
	byID := map[string]*dataset.NFITask{}
	for i := range tasks {
		byID[tasks[i].InstanceID] = &tasks[i]
	}
	m := map[string][]kitEntry{}
	for _, p := range preds {
		if p.ModelNameOrPath != model {
			continue
		}
		task := byID[p.InstanceID]
		e := kitEntry{Files: map[string]*string{}}
		if files, reason, _ := nfisuite.Output(task, &p); reason == "" {
			for path, content := range files {
				if content == "" {
					e.Files[path] = nil
				} else {
					c := content
					e.Files[path] = &c
				}
			}
		}
		for len(m[p.InstanceID]) <= p.Run {
			m[p.InstanceID] = append(m[p.InstanceID], kitEntry{})
		}
		m[p.InstanceID][p.Run] = e
	}
	return m
}

// TestRunNFISampleEndToEnd runs two scripted agents (Claude-style and
// Codex-style output) five times on each of the 12 bundled SWE-NFI tasks,
// kills the first `polynfi run` halfway (SIGKILL) and re-runs it, adds the
// oracle agent, then evaluates and reports: every run is recorded once,
// Tables 3 and 4, the consistency table over 5 runs and the cost table
// come from the measured times and reported tokens, and the oracle's row
// equals the Human Reference row.
func TestRunNFISampleEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: about a minute")
	}
	requireBwrapInCI(t)
	t.Parallel()
	ds, _ := filepath.Abs("../../examples/nfi/tasks.jsonl")
	ts, err := dataset.LoadNFITasks(ds)
	if err != nil || len(ts.Tasks) != 12 {
		t.Fatalf("sample: %v, %d tasks", err, len(ts.Tasks))
	}
	recorded, err := dataset.LoadPredictions("../../examples/nfi/predictions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	kit := newAgentKit(t)
	claudeK := kit.knowledge(t, "claude", nfiKnowledge(t, ts.Tasks, recorded.Predictions, "agent-alpha"))
	codexK := kit.knowledge(t, "codex", nfiKnowledge(t, ts.Tasks, recorded.Predictions, "agent-beta"))
	out := filepath.Join(t.TempDir(), "runs")
	claudeArgs := kit.args(ds, out, "claude", "claude-scripted", claudeK, 5)

	// Kill the first agent's run halfway, keep what it recorded.
	bin := buildPolynfi(t)
	cmd := exec.Command(bin, claudeArgs...)
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &bytes.Buffer{}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) && len(runRecords(t, out)) < 25 {
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	// The agents in flight die with polynfi (the sandbox's parent-death
	// signal), but after it: read the ledger once none is left, or a line
	// written after the reading looks like a finished run done twice.
	waitNoProcess(t, filepath.Join(kit.dir, "agent.py"), 30*time.Second)
	before := runRecords(t, out)
	if len(before) < 25 || len(before) >= 60 {
		t.Fatalf("%d runs recorded when killed, want some but not all of 60", len(before))
	}
	ledgerAtKill := kit.ledgerCounts(t, "claude-scripted")
	stdout, _ := mainOK(t, claudeArgs...)
	if want := fmt.Sprintf("runs: 60 (%d run now, %d already recorded", 60-len(before), len(before)); !strings.Contains(stdout, want) {
		t.Errorf("resumed run: want %q in\n%s", want, stdout)
	}
	after := runRecords(t, out)
	if len(after) != 60 {
		t.Fatalf("%d claude runs recorded, want 60", len(after))
	}
	for p, b := range before {
		if !bytes.Equal(after[p], b) {
			t.Errorf("%s was redone by the resumed run", p)
		}
	}
	ledger := kit.ledgerCounts(t, "claude-scripted")
	if len(ledger) != 60 {
		t.Errorf("the agent ran %d distinct (task, run) pairs, want 60", len(ledger))
	}
	for line, n := range ledger {
		// A run in flight at the kill ran twice; every finished one once.
		if n > 1 && (n > 2 || ledgerAtKill[line] != 1) {
			t.Errorf("%s: the agent ran %d times", line, n)
		}
	}
	mainOK(t, kit.args(ds, out, "codex", "codex-scripted", codexK, 5)...)
	mainOK(t, "run", "--dataset", ds, "--agent", "gold", "--out", out)
	for name, n := range kit.ledgerCounts(t, "codex-scripted") {
		if n != 1 {
			t.Errorf("%s ran %d times", name, n)
		}
	}

	preds, err := dataset.LoadPredictions(filepath.Join(out, agent.PredictionsFile))
	if err != nil || len(preds.Errors) > 0 || len(preds.Predictions) != 132 {
		t.Fatalf("predictions: %v, %d errors, %d predictions (want 132)", err, len(preds.Errors), len(preds.Predictions))
	}
	eval := filepath.Join(t.TempDir(), "eval")
	_, stderr := mainOK(t, "eval", "--dataset", ds, "--predictions", filepath.Join(out, agent.PredictionsFile), "--out", eval, "--workers", "2")
	if !strings.Contains(stderr, "132 runs (132 evaluated, 0 up to date, 0 missing predictions)") {
		t.Errorf("eval: %s", stderr)
	}
	var rep report.NFISuiteReport
	b, err := os.ReadFile(filepath.Join(eval, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	rows := map[string]report.Table3Row{}
	for _, r := range rep.Report.Table3 {
		rows[r.Agent] = r
	}
	for _, a := range []string{"claude-scripted", "codex-scripted"} {
		if rows[a].Runs != 60 {
			t.Errorf("Table 3 %s: %d runs, want 60", a, rows[a].Runs)
		}
	}
	if rows["gold"].Mean != rows[report.HumanReference].Mean || rows["gold"].PassPct != 100 {
		t.Errorf("the oracle does not reproduce the Human Reference row:\n%+v\n%+v", rows["gold"], rows[report.HumanReference])
	}
	if len(rep.Report.Table4) != 4 {
		t.Errorf("Table 4 rows %d, want 4", len(rep.Report.Table4))
	}
	for _, c := range rep.Report.Consistency {
		if c.Agent != "gold" && (c.MaxRuns != 5 || c.Tasks != 12) {
			t.Errorf("consistency %s: %d tasks, %d runs; want 12 and 5", c.Agent, c.Tasks, c.MaxRuns)
		}
	}
	recs := map[string][]*agent.Record{}
	all, err := agent.LoadRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all {
		recs[r.Agent] = append(recs[r.Agent], r)
	}
	for _, c := range rep.Report.Cost {
		if c.Agent == "gold" {
			if c.MeanTokens.OK || !c.MeanSeconds.OK {
				t.Errorf("gold cost row %+v: want measured time and unknown tokens", c)
			}
			continue
		}
		var secs, toks float64
		for _, r := range recs[c.Agent] {
			secs += r.DurationS
			n, ok := r.Usage.Tokens()
			if !ok {
				t.Errorf("%s %s run %d: no tokens recorded", c.Agent, r.InstanceID, r.Run)
			}
			toks += float64(n)
		}
		if !c.MeanSeconds.OK || c.MeanSeconds.N != 60 || abs(c.MeanSeconds.Value-secs/60) > 1e-6 {
			t.Errorf("cost %s: mean seconds %+v, want %.4f over 60 measured runs", c.Agent, c.MeanSeconds, secs/60)
		}
		if !c.MeanTokens.OK || abs(c.MeanTokens.Value-toks/60) > 1e-6 {
			t.Errorf("cost %s: mean tokens %+v, want %.1f", c.Agent, c.MeanTokens, toks/60)
		}
		if c.Agent == "claude-scripted" && !c.MeanCostUSD.OK || c.Agent == "codex-scripted" && c.MeanCostUSD.OK {
			t.Errorf("cost %s: mean USD %+v (Claude reports cost, Codex does not)", c.Agent, c.MeanCostUSD)
		}
	}
	var overhead float64
	for _, r := range all {
		overhead += r.Timing.OverheadS
	}
	t.Logf("polynfi overhead per agent run: mean %.3fs over %d runs (workspace, collection, records)", overhead/float64(len(all)), len(all))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// requireBwrapInCI fails in CI when bubblewrap cannot isolate the agents
// (the tests' claims about what agents cannot see rely on it).
func requireBwrapInCI(t *testing.T) {
	t.Helper()
	if os.Getenv("CI") != "true" {
		return
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Fatal("bubblewrap is not installed; CI must provide it")
	}
}

// TestRunPolyBenchSampleEndToEnd runs two scripted agents three times on
// each instance of the bundled SWE-PolyBench sample (they git-apply the
// gold patch, the sample's wrong patch, or nothing, by run), evaluates the
// predictions, and checks the resolved counts per agent and pass@k over
// the repeats.
func TestRunPolyBenchSampleEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: a few minutes (Maven, Jest, Mocha, pytest)")
	}
	requireBwrapInCI(t)
	t.Parallel()
	ds, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	d, err := dataset.Load(ds)
	if err != nil || len(d.Instances) != 8 {
		t.Fatalf("sample: %v", err)
	}
	wrong, err := dataset.LoadPredictions("../../examples/polybench/predictions-wrong.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	wrongOf := map[string]string{}
	for _, p := range wrong.Predictions {
		wrongOf[p.InstanceID] = p.ModelPatch
	}
	// claude-scripted: gold, wrong, gold; codex-scripted: wrong, nothing, gold.
	a, b := map[string][]kitEntry{}, map[string][]kitEntry{}
	for _, in := range d.Instances {
		gold, bad := kitEntry{Patch: in.Patch}, kitEntry{Patch: wrongOf[in.InstanceID]}
		a[in.InstanceID] = []kitEntry{gold, bad, gold}
		b[in.InstanceID] = []kitEntry{bad, {}, gold}
	}
	kit := newAgentKit(t)
	out := filepath.Join(t.TempDir(), "runs")
	mainOK(t, kit.args(ds, out, "claude", "claude-scripted", kit.knowledge(t, "claude", a), 3)...)
	mainOK(t, kit.args(ds, out, "codex", "codex-scripted", kit.knowledge(t, "codex", b), 3)...)
	recs, err := agent.LoadRecords(out)
	if err != nil || len(recs) != 48 {
		t.Fatalf("%d records (%v), want 48", len(recs), err)
	}
	for _, r := range recs {
		if r.Status != agent.StatusCompleted {
			t.Errorf("%s %s run %d: %s %s", r.Agent, r.InstanceID, r.Run, r.Status, r.Error)
		}
	}
	eval := filepath.Join(t.TempDir(), "eval")
	stdout, _ := mainOK(t, "eval", "--dataset", ds, "--predictions", filepath.Join(out, agent.PredictionsFile), "--out", eval, "--workers", "2")
	t.Logf("eval:\n%s", stdout)
	hrecs, err := runrecord.LoadRecords(eval)
	if err != nil || len(hrecs) != 48 {
		t.Fatalf("%d harness records (%v), want 48", len(hrecs), err)
	}
	resolved := map[string]int{}
	for _, r := range hrecs {
		if r.Resolved {
			resolved[r.Model]++
		}
	}
	// The sample's wrong patches fail on 4 instances and are gold on the
	// other 4: claude resolves 8 + 4 + 8, codex 4 + 0 + 8.
	if resolved["claude-scripted"] != 20 || resolved["codex-scripted"] != 12 {
		t.Errorf("resolved %v, want claude-scripted 20 and codex-scripted 12", resolved)
	}
	checkPassAtK(t, eval, stdout, map[string][3]float64{
		"claude-scripted": {20.0 / 24, 1, 1},
		"codex-scripted":  {12.0 / 24, 20.0 / 24, 1},
	})
}

// checkPassAtK reads pass@k per model from a harness run's report.json and
// its printed summary.
func checkPassAtK(t *testing.T, evalDir, stdout string, want map[string][3]float64) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(evalDir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Harness
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]report.PassAtKRow{}
	for _, r := range rep.Polynfi.PassAtK {
		got[r.Model] = r
	}
	for model, w := range want {
		r, ok := got[model]
		if !ok || len(r.PassAtK) != 3 {
			t.Errorf("pass@k of %s: %+v", model, r)
			continue
		}
		for k := range w {
			if c := r.PassAtK[k]; !c.OK || abs(c.Value-w[k]) > 1e-9 {
				t.Errorf("%s pass@%d = %+v, want %.4f", model, k+1, c, w[k])
			}
		}
	}
	if !strings.Contains(stdout, "pass@k over repeated runs") {
		t.Errorf("the printed report has no pass@k table:\n%s", stdout)
	}
}

func TestRunUsage(t *testing.T) {
	t.Parallel()
	ds, _ := filepath.Abs("../../examples/nfi/tasks.jsonl")
	out := t.TempDir()
	for _, args := range [][]string{
		{"run", "--agent", "gold", "--out", out},
		{"run", "--dataset", ds, "--agent", "gold"},
		{"run", "--dataset", ds, "--out", out},
		{"run", "--dataset", ds, "--out", out, "--agent", "nosuch"},
		{"run", "--dataset", ds, "--out", out, "--agent-cmd", "tool {nosuch}"},
		{"run", "--dataset", ds, "--out", out, "--agent", "gold", "--runs", "0"},
		{"run", "--dataset", ds, "--out", out, "--agent", "gold", "--agent-cmd", "true"},
		{"run", "--dataset", ds, "--out", out, "--agent", "cmd"},
		{"run", "--dataset", ds, "--out", out, "--agent-cmd", "true", "--agent-env", "POLYNFI_SURELY_UNSET_VARIABLE"},
		{"run", "--dataset", ds, "--out", out, "--agent-cmd", "true", "--image", "x"},
		{"run", "--dataset", ds, "--out", out, "--agent-cmd", "true", "--runtime", "docker"},
		{"run", "--dataset", ds, "--out", out, "--agent-cmd", "true", "--runtime", "vm"},
		{"run", "--dataset", ds, "--out", out, "--agent", "gold", "--instance-ids", "nosuch__task-1"},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), args, &stdout, &stderr); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, ExitUsage, stderr.String())
		}
	}
	var stdout bytes.Buffer
	if code := Main(context.Background(), []string{"run", "--show-prompt", "--dataset", ds, "--instance-ids", "acme__inventory-101"}, &stdout, &bytes.Buffer{}); code != ExitOK ||
		!strings.Contains(stdout.String(), "### inventory/stock.py") || !strings.Contains(stdout.String(), "DOC (documentation)") {
		t.Errorf("--show-prompt: exit %d\n%s", code, stdout.String())
	}
}

// TestEvalChainsAgent: `polynfi eval --agent` runs the agent into
// OUT/agent-runs and evaluates its predictions in one command.
func TestEvalChainsAgent(t *testing.T) {
	t.Parallel()
	ds, _ := filepath.Abs("../../examples/nfi/tasks.jsonl")
	out := t.TempDir()
	stdout, stderr := mainOK(t, "eval", "--dataset", ds, "--agent", "gold", "--out", out, "--instance-ids", "acme__inventory-101,taskq__jobs-94")
	if !strings.Contains(stderr, "runs: 2 (2 run now") || !strings.Contains(stdout, "gold ") || !strings.Contains(stdout, "Table 3") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "agent-runs", agent.PredictionsFile)); err != nil {
		t.Error(err)
	}
	var se bytes.Buffer
	if code := Main(context.Background(), []string{"eval", "--dataset", ds, "--agent", "gold", "--predictions", "gold", "--out", out}, &bytes.Buffer{}, &se); code != ExitUsage {
		t.Errorf("--agent with --predictions: exit %d", code)
	}
}

// TestRunInterrupt: SIGINT stops `polynfi run` (exit 130, saying what it
// kept), the runs in flight are abandoned, and the same command finishes
// the rest without redoing the recorded ones.
func TestRunInterrupt(t *testing.T) {
	requireBwrapInCI(t)
	t.Parallel()
	bin := buildPolynfi(t)
	ds, _ := filepath.Abs("../../examples/nfi/tasks.jsonl")
	out := filepath.Join(t.TempDir(), "runs")
	args := []string{"run", "--dataset", ds, "--out", out, "--agent-cmd", "sleep 0.5; echo '# touched' >> {files}", "--runs", "3",
		"--instance-ids", "acme__inventory-101,taskq__jobs-94"}
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) && len(runRecords(t, out)) < 2 {
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	kept := runRecords(t, out)
	if code := cmd.ProcessState.ExitCode(); code != ExitInterrupted || !strings.Contains(stderr.String(), "interrupted after") || !strings.Contains(stderr.String(), "/6 runs recorded") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	if len(kept) < 2 || len(kept) >= 6 {
		t.Fatalf("%d runs recorded at the interruption", len(kept))
	}
	stdout, _ := mainOK(t, args...)
	if want := fmt.Sprintf("runs: 6 (%d run now, %d already recorded", 6-len(kept), len(kept)); !strings.Contains(stdout, want) {
		t.Errorf("want %q in\n%s", want, stdout)
	}
	for p, b := range kept {
		if got, _ := os.ReadFile(p); !bytes.Equal(got, b) {
			t.Errorf("%s redone", p)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(out, ".work", "cmd")); len(entries) != 0 {
		t.Errorf("%d workspaces left after a completed run", len(entries))
	}
}
