package runtime

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
)

// newTestLocal is NewLocal closed when tb ends, so that a test leaves no
// polynfi-sandbox-etc-* directory in the temporary directory.
func newTestLocal(tb testing.TB, opts LocalOptions) *Local {
	tb.Helper()
	l := NewLocal(context.Background(), opts)
	tb.Cleanup(func() { l.Close() })
	return l
}

// polynfiEntries lists the names under dir that start with prefix.
func polynfiEntries(t *testing.T, dir, prefix string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if strings.HasPrefix(e.Name(), prefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// ownGroupDirs lists this process's "polynfi-<pid>-*" parent cgroups.
func ownGroupDirs(t *testing.T) []string {
	t.Helper()
	var out []string
	for c, rel := range ownCgroups() {
		if c != "pids" && c != "memory" {
			continue
		}
		for _, d := range []string{filepath.Join(cgroupV1Root, c, rel), filepath.Join(cgroupV1Root, c)} {
			for _, n := range polynfiEntries(t, d, fmt.Sprintf("polynfi-%d-", os.Getpid())) {
				out = append(out, filepath.Join(d, n))
			}
		}
	}
	return out
}

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestLocalLeavesNothing: a bubblewrap Local that ran a command and was
// closed leaves no polynfi-sandbox-etc-* directory in the temporary
// directory and no cgroup of its own; what a killed process left (its pid
// gone) is removed by the next NewLocal, what a live process holds is
// kept.
func TestLocalLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	before := len(ownGroupDirs(t))
	r := NewLocal(context.Background(), LocalOptions{})
	if r.Isolation() != IsolationBwrap {
		citest.Missing(t, "bwrap unavailable: %s", r.Note())
	}
	if res, err := r.Run(context.Background(), Command{Script: "echo ok", Dir: t.TempDir()}); err != nil || res.ExitCode != 0 {
		t.Fatalf("run: exit %d %v", res.ExitCode, err)
	}
	if got := polynfiEntries(t, tmp, etcDirPrefix); len(got) != 1 {
		t.Errorf("while open: %v, want one sandbox etc directory", got)
	}
	r.Close()
	if got := polynfiEntries(t, tmp, "polynfi-"); len(got) != 0 {
		t.Errorf("after Close, left in the temporary directory: %v", got)
	}
	if got := ownGroupDirs(t); len(got) > before {
		t.Errorf("after Close, cgroups left: %v", got)
	}

	// A killed process's leftovers go at the next NewLocal; a live one's stay.
	dead := deadPID(t)
	staleEtc := filepath.Join(tmp, fmt.Sprintf("%s%d-123", etcDirPrefix, dead))
	liveEtc := filepath.Join(tmp, fmt.Sprintf("%s%d-456", etcDirPrefix, os.Getppid()))
	for _, d := range []string{staleEtc, liveEtc} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "passwd"), []byte("x\n"), 0o644)
	}
	var staleGroups []string
	for c, rel := range ownCgroups() {
		if c == "pids" || c == "memory" {
			g := filepath.Join(cgroupV1Root, c, rel, fmt.Sprintf("polynfi-%d", dead))
			if os.MkdirAll(filepath.Join(g, "run-1"), 0o755) == nil {
				staleGroups = append(staleGroups, g)
			}
		}
	}
	r2 := NewLocal(context.Background(), LocalOptions{})
	defer r2.Close()
	if _, err := os.Stat(staleEtc); !os.IsNotExist(err) {
		t.Errorf("a dead process's %s is still there (%v)", staleEtc, err)
	}
	if _, err := os.Stat(liveEtc); err != nil {
		t.Errorf("a live process's %s was removed: %v", liveEtc, err)
	}
	for _, g := range staleGroups {
		if _, err := os.Stat(g); !os.IsNotExist(err) {
			t.Errorf("a dead process's cgroup %s is still there (%v)", g, err)
		}
	}
}
