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
