package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Defects a fresh-eyes tester found (helper "robust"), each tested from
// its description.

// "eval/validate delete the user's files when --out is an existing
// directory that is not a polynfi run."
func TestEvalRefusesForeignOut(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 1, "0")
	proj := filepath.Join(t.TempDir(), "proj")
	files := map[string]string{filepath.Join(proj, ".work", "important.txt"): "keep", filepath.Join(proj, "sub", ".tmp-draft.txt"): "precious"}
	for p, data := range files {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"eval", "--dataset", ds, "--predictions", "gold", "--out", proj},
		{"validate", "--dataset", ds, "--out", proj},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != ExitUsage || !strings.Contains(stderr, proj) || !strings.Contains(stderr, "not a polynfi run") {
			t.Errorf("%s: exit %d, want %d with a message naming %s\n%s", args[0], code, ExitUsage, proj, stderr)
		}
	}
	for p, data := range files {
		if b, err := os.ReadFile(p); err != nil || string(b) != data {
			t.Errorf("%s: %q %v: the user's file was touched", p, b, err)
		}
	}
	// A polynfi run directory is reused (resume), an empty one taken.
	out := t.TempDir()
	for i := 0; i < 2; i++ {
		if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
			t.Fatalf("eval #%d into a polynfi run: exit %d\n%s", i+1, code, stderr)
		}
	}
}

// "One corrupt record file makes polynfi report fail entirely." The rest
// is reported, the corrupt file named in every format; eval says it
// evaluates it again; a truncated polynfi-run.json is exit 3 naming it.
func TestReportCorruptRecord(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	bad := filepath.Join(out, "gold", "acme__echo-1", "run-0", "result.json")
	b, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "markdown", "json", "html"} {
		stdout, stderr, code := runCLI(t, "report", "--format", format, out)
		if code != ExitOK || !strings.Contains(stdout, bad) || !strings.Contains(stdout, "unexpected end of JSON input") {
			t.Errorf("report --format %s: exit %d, want 0 naming %s\n%s\n%s", format, code, bad, stdout, stderr)
		}
		if format == "text" && (!strings.Contains(stdout, "1 record files could not be read") || !strings.Contains(stdout, "resolved 1/1 evaluated; 1 not evaluated: no readable record")) {
			t.Errorf("text headline does not count the unreadable record:\n%s", stdout)
		}
	}
	_, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out)
	if code != ExitOK || !strings.Contains(stderr, "warning: unreadable record "+bad) || !strings.Contains(stderr, "evaluating it again") {
		t.Errorf("eval over a corrupt record: exit %d\n%s", code, stderr)
	}
	if stdout, _, code := runCLI(t, "report", out); code != ExitOK || strings.Contains(stdout, "could not be read") || !strings.Contains(stdout, "resolved 2/2") {
		t.Errorf("after re-evaluation: exit %d\n%s", code, stdout)
	}
	man := filepath.Join(out, "polynfi-run.json")
	b, _ = os.ReadFile(man)
	os.WriteFile(man, b[:len(b)/3], 0o644)
	if _, stderr, code := runCLI(t, "report", out); code != ExitError || !strings.Contains(stderr, man) {
		t.Errorf("truncated manifest: exit %d, want %d naming %s\n%s", code, ExitError, man, stderr)
	}
}
