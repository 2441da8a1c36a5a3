package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDiffBaseJava: `diff --base` finds a Java file a commit changes, and
// a commit that empties a catch block lowers I_ERR through JAVA-ERR-P01.
func TestDiffBaseJava(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(catchBody string) {
		t.Helper()
		src := "class A {\n  void f() {\n    try { g(); } catch (IllegalStateException e) {" + catchBody + "}\n  }\n  void g() {}\n  void h(Exception e) { g(); }\n}\n"
		if err := os.WriteFile(filepath.Join(dir, "A.java"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write(" h(e); ")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	write(" ")
	git("commit", "-q", "-am", "swallow the exception")
	t.Chdir(dir)
	out, errOut, code := run(t, "diff", "--base", "HEAD~1", "--format", "json", "--isolated")
	if code != ExitOK && code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		ImprovementPP map[string]float64 `json:"improvement_pp"`
		Flipped       []struct {
			Path, ID string
		} `json:"flipped"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.ImprovementPP["ERR"] >= 0 || len(got.Flipped) != 1 || got.Flipped[0].ID != "JAVA-ERR-P01" || got.Flipped[0].Path != "A.java" {
		t.Errorf("I_ERR %v pp, flipped %+v; want a negative I_ERR and JAVA-ERR-P01 broken in A.java", got.ImprovementPP["ERR"], got.Flipped)
	}
}
