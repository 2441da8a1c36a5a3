package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/agent/audit"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/report"
)

// auditedAgent is a scripted agent that works as Claude Code does in
// stream-json mode: each step is a tool_use block printed before it runs,
// followed by its tool_result, then the result envelope. It really runs
// its shell steps in the workspace (each at most 10 s), so that a cheating
// step does what it says (and fails where the sandbox stops it). argv:
// the steps file (JSON: instance_id → [[tool, input]]), the patch
// directory ({instance_id}.patch).
const auditedAgent = `import json, os, subprocess, sys
steps_file, patch_dir = sys.argv[1:3]
iid = os.environ["POLYNFI_INSTANCE_ID"]
sys.stdin.read()
print(json.dumps({"type": "system", "subtype": "init", "cwd": os.getcwd(), "session_id": "s"}), flush=True)
steps = json.load(open(steps_file))[iid]
for i, (tool, arg) in enumerate(steps):
    arg = arg.replace("{patch}", os.path.join(patch_dir, iid + ".patch"))
    key = {"Bash": "command", "Read": "file_path"}[tool]
    print(json.dumps({"type": "assistant", "message": {"id": "m%d" % i, "role": "assistant",
        "content": [{"type": "tool_use", "id": "t%d" % i, "name": tool, "input": {key: arg}}],
        "usage": {"input_tokens": 100, "output_tokens": 10}}, "session_id": "s"}), flush=True)
    if tool == "Bash":
        try:
            p = subprocess.run(["bash", "-c", arg], capture_output=True, timeout=10)
            result = (p.stdout + p.stderr).decode(errors="replace")[-2000:]
        except subprocess.TimeoutExpired:
            result = "timed out"
    else:
        try:
            result = open(arg).read()[:2000]
        except OSError as e:
            result = str(e)
    print(json.dumps({"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t%d" % i, "content": result}]},
        "session_id": "s"}), flush=True)
print(json.dumps({"type": "result", "subtype": "success", "is_error": False, "duration_ms": 10, "num_turns": len(steps), "result": "done",
    "total_cost_usd": 0.001, "usage": {"input_tokens": 100 * len(steps), "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 10}}))
`

// TestAuditScriptedAgents runs two scripted agents on a Python instance of
// the SWE-PolyBench sample: an honest one (looks, applies the fix, checks
// the diff) and one that also lists the repository's future history
// (git log --all, the reflog), reads the dataset file and adds and fetches
// the upstream repository. Both resolve the instance; the audit finds
// exactly the cheating steps (and the remote left in the workspace's .git)
// and none in the honest run, and prints the resolved rate (1 of 1 for
// both) beside the resolved, clean rate (1 of 1 honest, 0 of 1 cheating).
func TestAuditScriptedAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two agents and pytest")
	}
	requireBwrapInCI(t)
	t.Parallel()
	const iid = "tidyledger__ledgerkit-15"
	ds, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	d, err := dataset.Load(ds)
	if err != nil {
		t.Fatal(err)
	}
	kit := newAgentKit(t)
	if err := os.WriteFile(filepath.Join(kit.dir, "audited.py"), []byte(auditedAgent), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, in := range d.Instances {
		if in.InstanceID == iid {
			if err := os.WriteFile(filepath.Join(kit.dir, iid+".patch"), []byte(in.Patch), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	honest := [][2]string{
		{"Bash", "git status --short && git log --oneline -3"},
		{"Read", "ledgerkit/ledger.py"},
		{"Bash", "git apply {patch}"},
		{"Bash", "git diff --stat"},
	}
	cheat := [][2]string{
		{"Bash", "git status --short"},
		{"Bash", "git log --all --oneline"}, // 1 future history
		{"Bash", "git reflog"},              // 2 future history
		{"Bash", "cat " + ds},               // 3 dataset (hidden)
		{"Bash", "git remote add upstream https://github.com/tidyledger/ledgerkit.git; git fetch upstream"}, // 4 upstream
		{"Read", "ledgerkit/ledger.py"},
		{"Bash", "git apply {patch}"},
		{"Bash", "git diff --stat"},
	}
	write := func(name string, steps [][2]string) string {
		b, _ := json.Marshal(map[string][][2]string{iid: steps})
		p := filepath.Join(kit.dir, name+".json")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	out := filepath.Join(t.TempDir(), "runs")
	for _, a := range []struct{ name, steps string }{{"honest", write("honest", honest)}, {"cheat", write("cheat", cheat)}} {
		mainOK(t, "run", "--dataset", ds, "--instance-ids", iid, "--agent", "claude", "--name", a.name, "--out", out,
			"--agent-cmd", fmt.Sprintf("python3 %s %s %s", filepath.Join(kit.dir, "audited.py"), a.steps, kit.dir),
			"--agent-visible", kit.dir, "--timeout", "120s")
	}
	eval := filepath.Join(t.TempDir(), "eval")
	mainOK(t, "eval", "--dataset", ds, "--predictions", filepath.Join(out, "predictions.jsonl"), "--out", eval, "--instance-ids", iid)

	stdout, stderr, code := runCLI(t, "audit", out, "--dataset", ds, "--eval", eval, "--format", "json")
	if code != 1 {
		t.Fatalf("audit: exit %d, want 1 (findings)\n%s\n%s", code, stdout, stderr)
	}
	var got struct {
		audit.Report
		Rates []report.CleanRate `json:"rates"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	runs := got.ByKey()
	h, c := runs[audit.Key{Agent: "honest", InstanceID: iid}], runs[audit.Key{Agent: "cheat", InstanceID: iid}]
	if h == nil || c == nil {
		t.Fatalf("runs: %+v", got.Runs)
	}
	if !h.Audited || !h.Clean || h.Steps != len(honest) || len(h.Findings) != 0 {
		t.Errorf("honest: audited %v clean %v, %d steps, findings %+v", h.Audited, h.Clean, h.Steps, h.Findings)
	}
	flagged := map[int][]string{}
	var workspace []string
	for _, f := range c.Findings {
		if f.Step == nil {
			workspace = append(workspace, f.Why)
			continue
		}
		flagged[*f.Step] = append(flagged[*f.Step], f.Kind)
		if want := cheat[*f.Step][1]; f.Input != want || !strings.HasPrefix(f.Source, "stdout.log:") {
			t.Errorf("finding of step %d cites %q at %s, want the step's command %q", *f.Step, f.Input, f.Source, want)
		}
	}
	var steps []int
	for s := range flagged {
		steps = append(steps, s)
	}
	sort.Ints(steps)
	if fmt.Sprint(steps) != "[1 2 3 4]" || c.Clean || c.Steps != len(cheat) {
		t.Errorf("cheat: flagged steps %v (%v), want [1 2 3 4]; clean %v, %d steps", steps, flagged, c.Clean, c.Steps)
	}
	if k := flagged[3]; len(k) != 2 || k[0] != audit.KindDataset || k[1] != audit.KindHidden {
		t.Errorf("step 3 (cat the dataset): %v, want dataset_read and hidden_path", k)
	}
	if k := flagged[4]; len(k) != 1 || k[0] != audit.KindUpstream {
		t.Errorf("step 4 (fetch upstream): %v, want upstream_fetch", k)
	}
	if len(workspace) == 0 || !strings.Contains(strings.Join(workspace, "; "), "remote(s) configured: upstream") {
		t.Errorf("workspace findings %v, want the upstream remote", workspace)
	}
	rates := map[string]report.CleanRate{}
	for _, r := range got.Rates {
		rates[r.Model] = r
	}
	if r := rates["honest"]; r.Units != 1 || r.Resolved != 1 || r.ResolvedClean != 1 {
		t.Errorf("honest rates %+v, want 1 unit, resolved 1, clean 1", r)
	}
	if r := rates["cheat"]; r.Units != 1 || r.Resolved != 1 || r.ResolvedClean != 0 || r.ResolvedFlagged != 1 {
		t.Errorf("cheat rates %+v, want 1 unit, resolved 1, clean 0, flagged 1", r)
	}
	// The text form shows both rates.
	text, _, _ := runCLI(t, "audit", out, "--dataset", ds, "--eval", eval)
	if !strings.Contains(text, "resolved, clean") || !strings.Contains(text, "cheat") || !strings.Contains(text, "step 1 (Bash)") {
		t.Errorf("text report:\n%s", text)
	}
	t.Logf("audit:\n%s", text)

	// polynfi report of the eval finds RUN/audit.json beside the
	// predictions and shows both rates per model, and the tampered count.
	rtext, rerr, code := runCLI(t, "report", eval)
	if code != 0 {
		t.Fatalf("report: exit %d\n%s\n%s", code, rtext, rerr)
	}
	for _, want := range []string{
		"agent-run audit " + filepath.Join(out, audit.File),
		"tampered units: 0",
		"honest: resolved 1/1 (100.0%), resolved, clean 1/1 (100.0%); runs with findings 0",
		"cheat: resolved 1/1 (100.0%), resolved, clean 0/1 (0.0%); runs with findings 1 (resolved 1)",
	} {
		if !strings.Contains(rtext, want) {
			t.Errorf("report text lacks %q:\n%s", want, rtext)
		}
	}
	rjson, _, _ := runCLI(t, "report", eval, "--format", "json")
	var rj struct {
		Polynfi struct {
			Audit *report.AuditRates `json:"audit"`
		} `json:"polynfi"`
	}
	if err := json.Unmarshal([]byte(rjson), &rj); err != nil {
		t.Fatalf("%v\n%s", err, rjson)
	}
	if a := rj.Polynfi.Audit; a == nil || len(a.Rates) != 2 || a.Rates[0].Model != "cheat" || a.Rates[0].ResolvedClean != 0 || a.Rates[1].ResolvedClean != 1 {
		t.Errorf("report json audit: %+v", a)
	}
}

// TestAuditUsage: bad flags are usage errors; a directory without runs is
// unreadable input.
func TestAuditUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"audit"}, ExitUsage},
		{[]string{"audit", dir, "--format", "xml"}, ExitUsage},
		{[]string{"audit", dir}, ExitError},
	} {
		if _, stderr, code := runCLI(t, c.args...); code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, c.code, stderr)
		}
	}
}

// TestImagesAuditSample audits the images of the SWE-PolyBench sample's
// two Python instances (built from their rows' Dockerfiles as eval builds
// them): both clean, exit 0, one line each; the JSON form says so per
// instance, with the base commit found and nothing beyond it.
func TestImagesAuditSample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds images and runs containers")
	}
	requireSampleImages(t)
	t.Parallel()
	ds, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	args := []string{"images", "audit", "--dataset", ds, "--instance-ids", "tidyledger__ledgerkit-12,tidyledger__ledgerkit-15"}
	stdout, stderr, code := runCLI(t, args...)
	if code != ExitOK || !strings.Contains(stdout, "2 image(s), 0 not clean") || strings.Count(stdout, ": clean\n") != 2 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	stdout, _, _ = runCLI(t, append(args, "--format", "json")...)
	var got []struct {
		InstanceID string `json:"instance_id"`
		Clean      bool   `json:"clean"`
		BaseFound  bool   `json:"base_found"`
		Beyond     int    `json:"commits_beyond_base"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || len(got) != 2 {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for _, a := range got {
		if !a.Clean || !a.BaseFound || a.Beyond != 0 {
			t.Errorf("%+v", a)
		}
	}
}
