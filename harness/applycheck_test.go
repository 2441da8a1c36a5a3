package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadBaseCommitNamed: a base_commit the repository does not hold (a
// name git would also read as a path or an option) is an error naming the
// field, from the quick apply check and from a work tree alike, not git's
// own message about its arguments.
func TestBadBaseCommitNamed(t *testing.T) {
	dir := t.TempDir()
	for _, a := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "c"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, a...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", a, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "not-a-sha"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{"not-a-sha", "--orphan", "0123456789abcdef0123456789abcdef01234567"} {
		_, err := PatchApplies(t.Context(), dir, base, "", "diff --git a/x b/x\n")
		if err == nil || !strings.Contains(err.Error(), "base_commit") || !strings.Contains(err.Error(), base) {
			t.Errorf("PatchApplies at %q: %v, want an error naming base_commit and the value", base, err)
		}
	}
	if ok, err := PatchApplies(t.Context(), dir, "HEAD", "", ""); err != nil || !ok {
		t.Errorf("an empty patch at HEAD: %v, %v", ok, err)
	}
}
