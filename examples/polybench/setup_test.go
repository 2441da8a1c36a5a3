package polybench_test

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetupNonRootNoSudo runs env/setup.sh's Python step as a throwaway
// user that is not root and has no sudo, with HOME an empty directory
// under the temporary directory and Debian's own python3 (PEP 668: pip
// refuses to install) on PATH: the script says in one line exactly what
// to install and ends 0, instead of stopping the set-up. Needs root (to
// add the user), useradd, and a python3 in /usr/bin without pytest.
func TestSetupNonRootNoSudo(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("adding a throwaway user needs root")
	}
	if _, err := exec.LookPath("useradd"); err != nil {
		t.Skip("no useradd")
	}
	if exec.Command("/usr/bin/python3", "-c", "import pytest").Run() == nil {
		t.Skip("/usr/bin/python3 has pytest: nothing to install")
	}
	if _, err := os.Stat("/usr/bin/sudo"); err == nil {
		t.Skip("sudo is installed: the user could use it")
	}
	b := make([]byte, 4)
	rand.Read(b)
	name := "pnfi" + hex.EncodeToString(b)
	if out, err := exec.Command("useradd", "--no-create-home", "--shell", "/bin/sh", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("userdel", name).Run() })

	// A copy of the script the user can read; HOME empty, its own.
	// (t.TempDir's parent is private to root.)
	dir, err := os.MkdirTemp("", "polynfi-setup-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("env/setup.sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "env"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "env", "setup.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chown", name, home).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v\n%s", err, out)
	}
	cmd := exec.Command("setpriv", "--reuid="+name, "--regid=nogroup", "--clear-groups", "--",
		"env", "-i", "HOME="+home, "PATH=/usr/bin:/bin", "PIP_NO_INDEX=1", "POLYNFI_SETUP_STEPS=python",
		"bash", filepath.Join(dir, "env", "setup.sh"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("setup.sh as a user without root or sudo: %v\n%s", err, out)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "apt-get install") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "python3-pytest") || !strings.Contains(lines[0], "not root and no sudo") {
		t.Errorf("want one line saying what to install (python3-pytest) without root or sudo, got %q in:\n%s", lines, out)
	}
	if strings.Contains(string(out), "npm") || strings.Contains(string(out), "maven") {
		t.Errorf("steps other than python ran:\n%s", out)
	}
}
