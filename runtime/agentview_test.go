package runtime

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
)

// TestAgentViewAllowList: the agent view's root holds only the allow-list
// (/usr and its links, /etc, /proc, /dev, /tmp, the home directory's and
// the toolchains' top-level directories), /etc's secrets are empty, the
// command is not root and what it writes in its work tree belongs on the
// host to AgentUser, and a hidden directory inside a visible one stays
// hidden while a visible one inside a hidden one is shown.
func TestAgentViewAllowList(t *testing.T) {
	t.Parallel()
	r := newTestLocal(t, LocalOptions{})
	if r.Isolation() != IsolationBwrap {
		citest.Missing(t, "bwrap unavailable: %s", r.Note())
	}
	base := t.TempDir()
	ws, vis := filepath.Join(base, "ws"), filepath.Join(base, "vis")
	for _, d := range []string{ws, filepath.Join(vis, "hidden", "shown"), filepath.Join(vis, "kept")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(vis, "hidden", "answer.txt"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(vis, "hidden", "shown", "tool.txt"), []byte("t"), 0o644)
	os.WriteFile(filepath.Join(vis, "kept", "k.txt"), []byte("k"), 0o644)
	script := `ls -A /; echo "--"; cat /etc/shadow 2>/dev/null | wc -c; ls -A /etc/ssh 2>/dev/null | wc -l; id -u; echo x > written
test -e ` + filepath.Join(vis, "hidden", "answer.txt") + ` && echo answer-seen
cat ` + filepath.Join(vis, "hidden", "shown", "tool.txt") + ` ` + filepath.Join(vis, "kept", "k.txt") + `; echo`
	res, err := r.Run(context.Background(), Command{Script: script, Dir: ws, AgentView: true,
		Visible: []string{vis, filepath.Join(vis, "hidden", "shown")}, Hide: []string{filepath.Join(vis, "hidden"), os.TempDir()}})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("exit %d, %v: %s", res.ExitCode, err, res.Stderr)
	}
	if len(res.Stderr) > 0 {
		t.Logf("stderr: %s", res.Stderr)
	}
	top, rest, _ := strings.Cut(string(res.Stdout), "--\n")
	allowed := map[string]bool{"usr": true, "bin": true, "sbin": true, "lib": true, "lib32": true, "lib64": true, "libx32": true,
		"etc": true, "proc": true, "dev": true, "tmp": true}
	first := func(p string) string { return strings.Split(strings.TrimPrefix(p, "/"), "/")[0] }
	allowed[first(r.home)] = true
	for _, d := range r.agentToolchains() {
		allowed[first(d)] = true
	}
	if p, err := filepath.EvalSymlinks("/etc/resolv.conf"); err == nil {
		allowed[first(p)] = true
	}
	var extra []string
	for _, e := range strings.Fields(top) {
		if !allowed[e] {
			extra = append(extra, e)
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("the agent's / holds %v besides the allow-list (all: %s)", extra, strings.Join(strings.Fields(top), " "))
	}
	uid, _ := AgentUser()
	wantUID := strconv.Itoa(SandboxUID)
	if os.Geteuid() == 0 {
		wantUID = strconv.Itoa(AgentUID)
	}
	lines := strings.Split(strings.TrimSpace(rest), "\n")
	if len(lines) < 4 || lines[0] != "0" || lines[1] != "0" || lines[2] != wantUID {
		t.Errorf("shadow bytes, ssh entries, uid: %q, want 0, 0, %s", lines, wantUID)
	}
	if strings.Contains(rest, "answer-seen") {
		t.Error("a hidden directory inside a visible one is seen")
	}
	if !strings.Contains(rest, "tk") {
		t.Errorf("a visible directory inside a hidden one, or the visible one, is not seen: %q", rest)
	}
	fi, err := os.Stat(filepath.Join(ws, "written"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Sys().(*syscall.Stat_t).Uid; int(got) != uid || got == 0 && os.Geteuid() == 0 {
		t.Errorf("the written file belongs to uid %d on the host, want %d (never root)", got, uid)
	}
}
