package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAgentSandboxHostSecrets: an agent under the local runtime tries what
// issue 24 (item 2) saw agents do: read /etc/shadow, a 0600 file in the
// home directory and one in a directory it was given to read, find other
// copies of the dataset on the machine (under /var/tmp and the home
// directory) with find / and apply the reference solution from one. It
// must find and read none of them, its prediction must not be the
// reference, and it must not run as the host's root (a file it writes
// belongs to another user on the host; its uid is not 0).
func TestAgentSandboxHostSecrets(t *testing.T) {
	f := newFixture(t)
	f.needIsolation(t)
	home, _ := os.UserHomeDir()
	tag := fmt.Sprintf("polynfi-dscopy-%d", os.Getpid())
	// Copies of the dataset (its reference after included) outside the
	// dataset's own directory: one in a system temporary directory
	// outside /tmp, one in the home directory.
	varTmp, err := os.MkdirTemp("/var/tmp", tag+"-")
	if err != nil {
		t.Fatal(err)
	}
	homeCopy := filepath.Join(home, "."+tag)
	t.Cleanup(func() { os.RemoveAll(varTmp); os.RemoveAll(homeCopy) })
	ds, err := os.ReadFile(f.dsFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{varTmp, homeCopy} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "tasks.jsonl"), ds, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	homeSecret := filepath.Join(home, fmt.Sprintf(".polynfi-secret-%d", os.Getpid()))
	if err := os.WriteFile(homeSecret, []byte("HOME-SECRET-MARKER\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(homeSecret) })
	// A 0600 file of polynfi's user inside a directory the agent may read
	// (root's when polynfi runs as root).
	visibleSecret := filepath.Join(f.agents, "secret.txt")
	if err := os.WriteFile(visibleSecret, []byte("VISIBLE-SECRET-MARKER\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := f.script(t, "thief.sh", fmt.Sprintf(`
try() { if eval "$2" >/dev/null 2>&1; then echo "$1: yes"; else echo "$1: no"; fi; }
try read-shadow 'grep -q : /etc/shadow'
try read-gshadow 'grep -q : /etc/gshadow'
try read-home-secret 'grep -q HOME-SECRET-MARKER %[1]s'
try read-visible-secret 'grep -q VISIBLE-SECRET-MARKER %[2]s'
try uid-0 'test "$(id -u)" = 0'
echo "uid_map: $(cat /proc/self/uid_map)"
id -u > %[3]s/owner-probe
found=$(find / -xdev \( -path /proc -o -path /sys -o -path /dev \) -prune -o -name '%[4]s*' -print 2>/dev/null; find / \( -path /proc -o -path /sys -o -path /dev \) -prune -o -type f -name tasks.jsonl -print 2>/dev/null)
echo "found: ${found:-none}"
for d in $found; do
  for ds in $d $d/tasks.jsonl; do
    test -f "$ds" || continue
    python3 - "$ds" <<'EOF' && echo "applied the reference from $ds"
import json, sys
task = json.loads(open(sys.argv[1]).readline())
for f in task["files"]:
    open(f["path"], "w").write(f["after"])
EOF
  done
done
`, homeSecret, visibleSecret, f.ledger, tag))
	f.run(t, Options{Agent: "cmd", Command: cmd})
	rec, pred := f.record(t, "cmd", 0)
	b, _ := os.ReadFile(filepath.Join(RunDir(f.out, "cmd", f.task.ID(), 0), StdoutFile))
	got := string(b)
	if rec.Status != StatusCompleted {
		e, _ := os.ReadFile(filepath.Join(RunDir(f.out, "cmd", f.task.ID(), 0), StderrFile))
		t.Fatalf("status %s (%s)\n%s\n%s", rec.Status, rec.Error, got, e)
	}
	wants := []string{"read-shadow: no", "read-gshadow: no", "read-home-secret: no", "uid-0: no", "found: none"}
	if os.Geteuid() == 0 {
		// A 0600 file of root's is unreadable to the agent even in view;
		// as another user, the agent is polynfi's own user.
		wants = append(wants, "read-visible-secret: no")
	}
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in the agent's output:\n%s", want, got)
		}
	}
	if strings.Contains(got, "applied the reference") {
		t.Errorf("the agent applied the reference solution from a copy of the dataset:\n%s", got)
	}
	files, _ := pred["files"].(map[string]any)
	if files["pkg/mod.py"] == fixtureAfter {
		t.Errorf("the prediction is the reference solution")
	}
	fi, err := os.Stat(filepath.Join(f.ledger, "owner-probe"))
	if err != nil {
		t.Fatalf("the agent wrote no file: %v\n%s", err, got)
	}
	if uid := fi.Sys().(*syscall.Stat_t).Uid; uid == 0 {
		t.Errorf("a file the agent wrote belongs to the host's root: the agent ran as root\n%s", got)
	}
}

// TestAgentSandboxToolchains: an ordinary agent under the local runtime
// still has what it needs: python3, git and node from the host's PATH, a
// writable work tree and its own .git, a writable home and /tmp, and its
// change is collected.
func TestAgentSandboxToolchains(t *testing.T) {
	f := newFixture(t)
	f.needIsolation(t)
	cmd := f.script(t, "worker.sh", `set -e
python3 -c 'import sys, json; print("python", sys.version_info[0])'
git --version
git status --short
node -e 'console.log("node", 1 + 1)'
echo cache > "$HOME/.agent-cache" && cat "$HOME/.agent-cache"
echo scratch > /tmp/scratch && cat /tmp/scratch
python3 - <<'EOF'
p = "pkg/mod.py"
s = open(p).read().replace("    return x", '    """Return x unchanged."""\n    return x', 1)
open(p, "w").write(s)
EOF
git add -A && git -c user.name=a -c user.email=a@b commit -qm edit && echo committed
`)
	f.run(t, Options{Agent: "cmd", Command: cmd})
	rec, pred := f.record(t, "cmd", 0)
	b, _ := os.ReadFile(filepath.Join(RunDir(f.out, "cmd", f.task.ID(), 0), StdoutFile))
	e, _ := os.ReadFile(filepath.Join(RunDir(f.out, "cmd", f.task.ID(), 0), StderrFile))
	if rec.Status != StatusCompleted {
		t.Fatalf("status %s (%s)\n%s\n%s", rec.Status, rec.Error, b, e)
	}
	for _, want := range []string{"python 3", "git version", "node 2", "cache", "scratch", "committed"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("want %q in the agent's output:\n%s\n%s", want, b, e)
		}
	}
	files, _ := pred["files"].(map[string]any)
	if files["pkg/mod.py"] != agentEdit {
		t.Errorf("prediction %v, want the agent's edit", files)
	}
}

// TestAgentStateCopied: a preset's state directory reaches each run as a
// copy in its private home: the agent reads its login there (a 0600 file
// of polynfi's user), other sessions are left out, and what it writes
// there reaches neither the host's directory nor the next run.
func TestAgentStateCopied(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	state := filepath.Join(home, ".codex")
	if err := os.MkdirAll(filepath.Join(state, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(state, "auth.json"), []byte(`{"token":"LOGIN-MARKER"}`), 0o600)
	os.WriteFile(filepath.Join(state, "sessions", "old.jsonl"), []byte("OTHER-SESSION-MARKER"), 0o600)
	f := newFixture(t)
	f.needIsolation(t)
	cmd := f.script(t, "codex.sh", `
grep -q LOGIN-MARKER "$HOME/.codex/auth.json" && echo login-read
test -e "$HOME/.codex/sessions" && echo sessions-seen
test -e "$HOME/.codex/run-written" && echo earlier-run-seen
echo x > "$HOME/.codex/run-written" && echo state-written
echo '{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}'
`)
	f.run(t, Options{Agent: "codex", Command: cmd, Runs: 2, KeepWorkspaces: true})
	// The copies held the login: gone even with the workspaces kept.
	filepath.WalkDir(filepath.Join(f.out, ".work"), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "auth.json" {
			t.Errorf("a copy of the agent's login was left on disk: %s", p)
		}
		return nil
	})
	for run := 0; run < 2; run++ {
		rec, _ := f.record(t, "codex", run)
		b, _ := os.ReadFile(filepath.Join(RunDir(f.out, "codex", f.task.ID(), run), StdoutFile))
		got := string(b)
		if rec.Status != StatusCompleted || !strings.Contains(got, "login-read") || !strings.Contains(got, "state-written") {
			e, _ := os.ReadFile(filepath.Join(RunDir(f.out, "codex", f.task.ID(), run), StderrFile))
			t.Errorf("run %d: status %s (%s), output %q, stderr %q", run, rec.Status, rec.Error, got, e)
		}
		for _, bad := range []string{"sessions-seen", "earlier-run-seen"} {
			if strings.Contains(got, bad) {
				t.Errorf("run %d: %s", run, bad)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(state, "run-written")); err == nil {
		t.Error("the agent wrote into the host's state directory")
	}
}

// TestAgentProgramNotVisibleHint (issue 25): an agent program in a
// directory the sandbox does not show fails with exit 127 and a reason
// that says so and names --agent-visible.
func TestAgentProgramNotVisibleHint(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.needIsolation(t)
	elsewhere := t.TempDir()
	prog := filepath.Join(elsewhere, "agent.sh")
	if err := os.WriteFile(prog, []byte("#!/bin/bash\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.run(t, Options{Agent: "cmd", Command: prog})
	rec, _ := f.record(t, "cmd", 0)
	if rec.Status != StatusFailed || rec.ExitCode != 127 || !strings.Contains(rec.Error, "--agent-visible") || !strings.Contains(rec.Error, "not be visible inside the agent's sandbox") {
		t.Errorf("status %s exit %d error %q, want failed, 127 and the --agent-visible hint", rec.Status, rec.ExitCode, rec.Error)
	}
}
