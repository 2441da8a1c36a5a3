package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// TestEvalUnwritableHome: eval resolves the gold patch of a small fixture
// instance whatever HOME is: a directory that cannot be written (mode
// 0555) or a path that does not exist (issue 25 item 1: any HOME).
func TestEvalUnwritableHome(t *testing.T) {
	ds := evalFixture(t, 1, "0")
	ro := filepath.Join(t.TempDir(), "home")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	for _, home := range []string{ro, "/nonexistent"} {
		t.Run(home, func(t *testing.T) {
			t.Setenv("HOME", home)
			out := t.TempDir()
			stdout, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out)
			if code != ExitOK || !strings.Contains(stdout, "resolved 1/1") {
				t.Errorf("HOME=%s: exit %d\n%s\n%s", home, code, stdout, stderr)
			}
		})
	}
}

// TestEvalEnvironmentFailureNamesLog: an instance whose test command
// cannot run (exit 127: no such program) is an environment failure, not
// the patch's fault: its reason ends with "; log: <the record's log>",
// a file that exists, and the eval summary says "environment failures: 1
// unit where no test ran (not the patch's fault)" and lists it.
func TestEvalEnvironmentFailureNamesLog(t *testing.T) {
	ds := evalFixture(t, 1, "0")
	b, _ := os.ReadFile(ds)
	var row map[string]any
	if err := json.Unmarshal(b, &row); err != nil {
		t.Fatal(err)
	}
	row["test_command"] = "polynfi-no-such-test-runner -q"
	b, _ = json.Marshal(row)
	os.WriteFile(ds, append(b, '\n'), 0o644)
	out := t.TempDir()
	stdout, stderr, _ := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out)
	if !strings.Contains(stdout, "environment failures: 1 unit where no test ran (not the patch's fault)\n  acme__echo-0: ") {
		t.Errorf("summary lacks the environment failure:\n%s\n%s", stdout, stderr)
	}
	recs, err := runrecord.LoadRecords(out)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records: %d %v", len(recs), err)
	}
	st := recs[0].Verdicts.Strict
	m := regexp.MustCompile(`; log: (\S+)$`).FindStringSubmatch(st.Reason)
	if st.Status != grading.StatusInfraFailure || m == nil {
		t.Fatalf("strict verdict %s, reason %q: want an infra failure naming its log", st.Status, st.Reason)
	}
	if _, err := os.Stat(m[1]); err != nil {
		t.Errorf("the log the reason names: %v", err)
	}
	if !strings.Contains(stdout, m[1]) {
		t.Errorf("the summary does not name the log %s:\n%s", m[1], stdout)
	}
}
