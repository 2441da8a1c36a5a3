package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalRelativeOut runs the README's kind of command line, with a
// relative --out, from another directory: the instance must resolve (git and
// the tests run in other working directories, so paths must not stay relative).
func TestEvalRelativeOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pytest on a sample instance")
	}
	dataset, err := filepath.Abs("../../examples/polybench/dataset.csv")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	out, errOut, code := run(t, "eval", "--dataset", dataset, "--predictions", "gold", "--out", "runs/rel",
		"--instance-ids", "tidyledger__ledgerkit-12", "--nfi=false")
	if code != ExitOK || !strings.Contains(out, "resolved 1/1") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join("runs", "rel", "report.json")); err != nil {
		t.Fatal(err)
	}
}
