package polybench_test

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
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

	// A copy of the script the user can read, in a directory of its own
	// (env/venv goes there); HOME empty, its own.
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
	env := filepath.Join(dir, "env")
	if err := os.MkdirAll(env, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(env, "setup.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{home, env} {
		if out, err := exec.Command("chown", name, p).CombinedOutput(); err != nil {
			t.Fatalf("chown: %v\n%s", err, out)
		}
	}
	asUser := func(extraEnv ...string) *exec.Cmd {
		args := append([]string{"--reuid=" + name, "--regid=nogroup", "--clear-groups", "--",
			"env", "-i", "HOME=" + home, "PATH=/usr/bin:/bin", "PIP_NO_INDEX=1", "PIP_CONFIG_FILE=/dev/null"}, extraEnv...)
		cmd := exec.Command("setpriv", args...)
		// The user's own directory: the checkout the test runs in may be
		// one the user cannot read (a clone under mktemp -d is 0700),
		// while a real user runs setup.sh from a checkout of their own.
		cmd.Dir = dir
		return cmd
	}
	setup := func(extraEnv ...string) string {
		t.Helper()
		cmd := asUser(append(extraEnv, "POLYNFI_SETUP_STEPS=python", "bash", filepath.Join(env, "setup.sh"))...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("setup.sh as a user without root or sudo: %v\n%s", err, out)
		}
		return string(out)
	}

	// No package index at all (offline): one line says what to install,
	// and the set-up goes on.
	out := setup()
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "apt-get install") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "python3-pytest") || !strings.Contains(lines[0], "not root and no sudo") {
		t.Errorf("offline: want one line saying what to install (python3-pytest) without root or sudo, got %q in:\n%s", lines, out)
	}
	if strings.Contains(out, "npm") || strings.Contains(out, "maven") {
		t.Errorf("steps other than python ran:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(env, "venv")); err == nil {
		t.Errorf("a failed virtual environment was left behind")
	}

	// pytest's wheels at hand (.ci/pytest-wheels.sh): pytest lands in the
	// virtual environment env/venv, and nothing is left to install.
	wheels := os.Getenv("POLYNFI_PYTEST_WHEELS")
	if wheels == "" {
		wheels = "/var/cache/polynfi/pytest-wheels"
	}
	if _, err := os.Stat(filepath.Join(wheels, ".polynfi-pytest-8.3.5")); err != nil {
		citest.Missing(t, "no pytest wheels (%v): bash .ci/pytest-wheels.sh", err)
	}
	out = setup("PIP_FIND_LINKS=" + wheels)
	if strings.Contains(out, "apt-get install") || !strings.Contains(out, "pytest in "+filepath.Join(env, "venv")) {
		t.Errorf("with the wheels: want pytest in env/venv and nothing to install:\n%s", out)
	}
	check := asUser(filepath.Join(env, "venv", "bin", "python3"), "-m", "pytest", "--version")
	if b, err := check.CombinedOutput(); err != nil || !strings.Contains(string(b), "pytest 8.3.5") {
		t.Errorf("env/venv's python3 -m pytest --version: %v\n%s", err, b)
	}
	// A second run finds it there.
	if out := setup(); !strings.Contains(out, "pytest present in") {
		t.Errorf("second run: want pytest present in env/venv:\n%s", out)
	}
}
