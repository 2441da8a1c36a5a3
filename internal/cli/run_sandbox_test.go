package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/agent"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
)

// thiefAgent looks for copies of the dataset anywhere on the machine
// (find / for dataset.csv and for the directory the test planted) and
// git-applies its instance's gold patch from the first it can read.
const thiefAgent = `import csv, os, subprocess, sys
csv.field_size_limit(1 << 30)
tag = sys.argv[1]
iid = os.environ["POLYNFI_INSTANCE_ID"]
found = subprocess.run("find / \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o \\( -name 'dataset.csv' -o -name '%s*' \\) -print 2>/dev/null" % tag,
                       shell=True, capture_output=True, text=True).stdout.split()
print("found:", " ".join(found) or "none")
for p in found:
    for f in (p, os.path.join(p, "dataset.csv")):
        try:
            rows = list(csv.DictReader(open(f)))
        except Exception:
            continue
        for r in rows:
            if r.get("instance_id") == iid and r.get("patch"):
                if subprocess.run(["git", "apply", "-"], input=r["patch"].encode()).returncode == 0:
                    print("applied the gold patch from", f)
                    sys.exit(0)
open("THIEF_FOUND_NOTHING.txt", "w").write("no copy of the dataset\n")  # a prediction all the same
`

// TestRunHostileAgentUnresolved (issue 24, item 2): an agent run by
// 'polynfi run' with the local runtime searches the machine for another
// copy of the dataset (one planted under /var/tmp, the repository's own
// examples elsewhere) and applies its instance's gold patch from it. It
// finds none, so 'polynfi eval' scores its prediction unresolved.
func TestRunHostileAgentUnresolved(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end: a run and an eval")
	}
	requireBwrapInCI(t)
	if probeLocal(t).Isolation() != runtime.IsolationBwrap {
		t.Skip("bubblewrap does not work here")
	}
	src, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	repos, _ := filepath.Abs("../../examples/polybench/repos")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dsDir := t.TempDir()
	ds := filepath.Join(dsDir, "dataset.csv")
	if err := os.WriteFile(ds, b, 0o644); err != nil {
		t.Fatal(err)
	}
	tag := fmt.Sprintf("polynfi-dscopy-%d", os.Getpid())
	planted, err := os.MkdirTemp("/var/tmp", tag+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(planted) })
	os.Chmod(planted, 0o755)
	if err := os.WriteFile(filepath.Join(planted, "dataset.csv"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	kit := newAgentKit(t)
	if err := os.WriteFile(filepath.Join(kit.dir, "thief.py"), []byte(thiefAgent), 0o644); err != nil {
		t.Fatal(err)
	}
	const id = "tidyledger__ledgerkit-12"
	out := filepath.Join(t.TempDir(), "runs")
	mainOK(t, "run", "--dataset", ds, "--repos-dir", repos, "--instance-ids", id, "--agent", "cmd", "--name", "thief", "--out", out,
		"--agent-cmd", "python3 "+filepath.Join(kit.dir, "thief.py")+" "+tag, "--agent-visible", kit.dir, "--timeout", "120s")
	stdout, _ := os.ReadFile(filepath.Join(agent.RunDir(out, "thief", id, 0), agent.StdoutFile))
	if !strings.Contains(string(stdout), "found: none") || strings.Contains(string(stdout), "applied the gold patch") {
		t.Errorf("the agent found a copy of the dataset:\n%s", stdout)
	}
	eval := filepath.Join(t.TempDir(), "eval")
	code := Main(t.Context(), []string{"eval", "--dataset", ds, "--repos-dir", repos, "--predictions", filepath.Join(out, agent.PredictionsFile), "--out", eval},
		&strings.Builder{}, &strings.Builder{})
	recs, err := runrecord.LoadRecords(eval)
	if err != nil {
		t.Fatalf("eval exit %d: %v", code, err)
	}
	for _, r := range recs {
		if r.Resolved {
			t.Errorf("%s resolved: the agent got the reference solution (its output:\n%s)", r.InstanceID, stdout)
		}
	}
	if len(recs) != 1 {
		t.Errorf("%d eval records, want 1 (eval exit %d)", len(recs), code)
	}
}

// TestRunAgentPathsUnreadableToAgent: when polynfi runs as root the agent
// does not, so an --agent-writable directory only root may write is
// refused before any run (exit 2, naming the path and the agent's uid),
// not found out by every run.
func TestRunAgentPathsUnreadableToAgent(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("polynfi is not root here: the agent is its own user")
	}
	requireBwrapInCI(t)
	if probeLocal(t).Isolation() != runtime.IsolationBwrap {
		t.Skip("bubblewrap does not work here")
	}
	ds, _ := filepath.Abs("../../examples/nfi/tasks.jsonl")
	rootOnly := t.TempDir() // 0755, root's
	out := filepath.Join(t.TempDir(), "runs")
	var stdout, stderr strings.Builder
	code := Main(t.Context(), []string{"run", "--dataset", ds, "--agent-cmd", "true", "--out", out, "--agent-writable", rootOnly}, &stdout, &stderr)
	if code != ExitUsage || !strings.Contains(stderr.String(), rootOnly) || !strings.Contains(stderr.String(), "uid 65534") {
		t.Errorf("exit %d, stderr %q; want %d naming %s and uid 65534", code, stderr.String(), ExitUsage, rootOnly)
	}
	if recs, _ := agent.LoadRecords(out); len(recs) > 0 {
		t.Errorf("%d runs recorded, want none", len(recs))
	}
}

// probeLocal returns a local runtime with default options, already closed
// (its temporary files removed): its Isolation, Note and Refuses say what
// this machine's bubblewrap does.
func probeLocal(t *testing.T) *runtime.Local {
	t.Helper()
	l := runtime.NewLocal(t.Context(), runtime.LocalOptions{})
	l.Close()
	return l
}
