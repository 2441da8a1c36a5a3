package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadFlagValuesExitUsage: bad flag values are usage errors (exit 2)
// in every command, before any work: non-positive durations, negative
// numbers, an unknown rule selector given as a flag, an unknown image
// kind.
func TestBadFlagValuesExitUsage(t *testing.T) {
	t.Parallel()
	py := filepath.Join(t.TempDir(), "m.py")
	if err := os.WriteFile(py, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	nfiDS, _ := filepath.Abs("../../examples/nfi/tasks.jsonl")
	pbDS, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	out := func() string { return filepath.Join(t.TempDir(), "out") }
	for _, args := range [][]string{
		{"eval", "--dataset", pbDS, "--predictions", "gold", "--out", out(), "--timeout", "-5s"},
		{"eval", "--dataset", pbDS, "--predictions", "gold", "--out", out(), "--timeout", "0s"},
		{"eval", "--dataset", nfiDS, "--predictions", "gold", "--out", out(), "--agent", "gold", "--agent-timeout", "-1m"},
		{"validate", "--dataset", pbDS, "--out", out(), "--timeout", "-1s"},
		{"run", "--dataset", nfiDS, "--out", out(), "--agent", "gold", "--timeout", "-1s"},
		{"run", "--dataset", nfiDS, "--out", out(), "--agent", "gold", "--max-output", "-1"},
		{"eval", "--dataset", pbDS, "--predictions", "gold", "--out", out(), "--retries", "-1"},
		{"eval", "--dataset", pbDS, "--predictions", "gold", "--out", out(), "--pending-timeout", "-1s", "--runtime", "kubernetes"},
		{"eval", "--dataset", pbDS, "--predictions", "gold", "--out", out(), "--pod-deadline", "0s", "--runtime", "kubernetes"},
		{"diff", "--max-findings", "-1", py, py},
		{"mine", "--repo", t.TempDir(), "--out", filepath.Join(t.TempDir(), "c.jsonl"), "--workers", "-1"},
		{"mine", "--repo", t.TempDir(), "--out", filepath.Join(t.TempDir(), "c.jsonl"), "--per-repo-cap", "-1"},
		{"review", "export", "--candidates", py, "--out", t.TempDir(), "--excerpt-lines", "-1"},
		{"score", "--select", "NOPE-X99", py},
		{"score", "--ignore", "NOPE-X99", py},
		{"images", "list", "--kind", "nope"},
		{"tasks", "build", "--candidates", py, "--labels", py, "--out", filepath.Join(t.TempDir(), "tasks.csv")},
		{"eval", "--dataset", pbDS, "--predictions", "gold", "--out", out(), "--run-as-user", "-5", "--runtime", "kubernetes"},
	} {
		code, _, stderr := mainCode(args...)
		if code != ExitUsage {
			t.Errorf("%s: exit %d, want %d\n%s", strings.Join(args, " "), code, ExitUsage, stderr)
		}
	}
	// A bad selector in a settings file is an error in that input (exit 3).
	dir := t.TempDir()
	cfg := filepath.Join(dir, "polynfi.toml")
	if err := os.WriteFile(cfg, []byte("select = [\"NOPE-X99\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := mainCode("score", "--config", cfg, py); code != ExitError {
		t.Errorf("bad settings file: exit %d, want %d\n%s", code, ExitError, stderr)
	}
}

// TestDockerLimitFlagsRefusedElsewhere: --cpus, --memory, --pids and
// --start-ahead are the Docker runtime's; given with --runtime kubernetes
// or local they are refused (exit 2, naming the flags and what applies
// instead), not silently ignored.
func TestDockerLimitFlagsRefusedElsewhere(t *testing.T) {
	t.Parallel()
	pbDS, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--runtime", "kubernetes", "--pids", "100", "--memory", "1g"}, "--memory, --pids: not applied with --runtime kubernetes (a pod's limits are --pod-cpu-limit and --pod-memory-limit"},
		{[]string{"--runtime", "kubernetes", "--cpus", "1"}, "--cpus: not applied with --runtime kubernetes"},
		{[]string{"--cpus", "1"}, "--cpus: need --runtime docker (--runtime local does not apply them)"},
		{[]string{"--runtime", "local", "--start-ahead", "2"}, "--start-ahead: need --runtime docker"},
	} {
		args := append([]string{"eval", "--dataset", pbDS, "--predictions", "gold", "--out", filepath.Join(t.TempDir(), "out")}, c.args...)
		code, _, stderr := mainCode(args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, ExitUsage, c.want)
		}
	}
}

// TestHelpValueNames: flag value names and defaults in --help say what
// to give.
func TestHelpValueNames(t *testing.T) {
	t.Parallel()
	_, help, _ := mainCode("eval", "--help")
	for _, want := range []string{"--agent AGENT ", "--agent-cmd TEMPLATE ", "--run-as-user UID "} {
		if !strings.Contains(help, want) {
			t.Errorf("eval --help lacks %q", want)
		}
	}
	for _, bad := range []string{"--agent polynfi", "--agent-cmd polynfi", "(default -1)"} {
		if strings.Contains(help, bad) {
			t.Errorf("eval --help shows %q", bad)
		}
	}
	_, help, _ = mainCode("images", "build", "--help")
	if !strings.Contains(help, "not used by images build") {
		t.Errorf("images build --help does not say --cache-level is not used:\n%s", help)
	}
}

// TestRulesExplainRuffCode: `rules explain E722` explains the rule that
// emulates Ruff's E722 and says so; a code several rules emulate names
// them; an unknown id says what ids look like and where to find them.
func TestRulesExplainRuffCode(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := mainCode("rules", "explain", "E722")
	if code != ExitOK || !strings.HasPrefix(stdout, "ERR-P01 (bare-except)") || !strings.Contains(stderr, "E722 is a Ruff code; polynfi's rule ERR-P01 is exactly it") {
		t.Errorf("E722: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, _, stderr := mainCode("rules", "explain", "up035"); code != ExitUsage || !strings.Contains(stderr, "UP035 is emulated by several rules: ") {
		t.Errorf("UP035: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := mainCode("rules", "explain", "X999"); code != ExitUsage || !strings.Contains(stderr, "rule ids look like ERR-R01") || !strings.Contains(stderr, "polynfi rules --format json") {
		t.Errorf("X999: exit %d\n%s", code, stderr)
	}
}

// TestMissingKubeconfigNamed: with no kubeconfig, eval and cleanup on
// kubernetes say that the kubeconfig is missing and where they looked,
// not that a daemon is unreachable.
func TestMissingKubeconfigNamed(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	pbDS, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	missing := filepath.Join(t.TempDir(), "nosuch-kubeconfig")
	for _, c := range []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"eval", "--runtime", "kubernetes", "--dataset", pbDS, "--predictions", "gold", "--out", filepath.Join(t.TempDir(), "o")},
			"no kubeconfig: --kubeconfig not given, $KUBECONFIG not set, and " + filepath.Join(home, ".kube", "config") + " does not exist"},
		{missing, []string{"eval", "--runtime", "kubernetes", "--dataset", pbDS, "--predictions", "gold", "--out", filepath.Join(t.TempDir(), "o")},
			"no kubeconfig: $KUBECONFIG names " + missing + ", which do not exist"},
		{"", []string{"cleanup", "--runtime", "kubernetes", "--run-id", "abc", "--kubeconfig", missing},
			"--kubeconfig " + missing + ": no such file"},
	} {
		t.Setenv("KUBECONFIG", c.env)
		code, _, stderr := mainCode(c.args...)
		if code != ExitError || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "daemon_unreachable") {
			t.Errorf("%v: exit %d\n%s", c.args, code, stderr)
		}
	}
	// A pod deadline that a test running to its timeout would reach is
	// warned about before anything else.
	_, _, stderr := mainCode("eval", "--runtime", "kubernetes", "--dataset", pbDS, "--predictions", "gold", "--out", filepath.Join(t.TempDir(), "o"),
		"--kubeconfig", missing, "--pod-deadline", "20m", "--timeout", "30m")
	if !strings.Contains(stderr, "warning: --pod-deadline 20m0s is not longer than --timeout 30m0s") {
		t.Errorf("no warning of a pod deadline within the test timeout:\n%s", stderr)
	}
}
