package harness

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// TestCanariesGoRust evaluates, with the real toolchains and the local
// runtime, the gold patches of a Go (go test -json) and a Rust (cargo test,
// libtest JUnit) instance of examples/multilang: each run gets a
// must-pass and a must-fail canary in its test file, both read back
// (resolved, not tampered, no canary in the graded results). Then a Go
// patch whose package init, in the test binary, prints go test's own
// output for every FAIL_TO_PASS and PASS_TO_PASS test as passed and
// exits 0 (test2json turns it into pass events): the report lacks the
// canaries, tampered in every mode.
func TestCanariesGoRust(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test and cargo test")
	}
	dir, err := filepath.Abs("../examples/multilang")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Load(filepath.Join(dir, "dataset.csv"))
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]dataset.Instance{}
	for _, in := range ds.Instances {
		byID[in.InstanceID] = in
	}
	h, _ := newHarness(t, filepath.Join(dir, "repos"), grading.Mode(ds.NativeMode()))
	h.Env = []string{"POLYNFI_DATASET_DIR=" + dir}
	h.ReadOnly = []string{filepath.Join(filepath.Dir(dir), "polybench", "env")}
	eval := func(t *testing.T, in dataset.Instance, patch string) (*runrecord.Record, string) {
		rec, art, err := h.Evaluate(context.Background(), in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "m", ModelPatch: patch})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Test == nil {
			t.Fatalf("no test run: %s\n%.3000s", rec.Error, art.TestLog)
		}
		t.Logf("%s: %s (%s); canaries %+v; note %q", in.InstanceID, rec.Status, rec.Verdicts.Strict.Reason, rec.Test.Canaries, rec.Test.CanaryNote)
		return rec, string(art.TestLog)
	}
	for _, id := range []string{"gridworks__durfmt-4", "numerals__romanum-3"} {
		t.Run(id, func(t *testing.T) {
			in, ok := byID[id]
			if !ok {
				t.Fatalf("%s not in the sample", id)
			}
			rec, log := eval(t, in, in.Patch)
			if !rec.Resolved || rec.Status == grading.StatusTampered {
				t.Errorf("gold: %s (%s)", rec.Status, rec.Verdicts.Strict.Reason)
			}
			if cs := rec.Test.Canaries; len(cs) != 2 || cs[0].Fail || !cs[1].Fail {
				t.Errorf("canaries %+v, want a must-pass and a must-fail one", cs)
			}
			for _, c := range rec.Test.Canaries {
				if !strings.Contains(log, c.Name) {
					t.Errorf("canary %s is not in the test log: it did not run", c.Name)
				}
			}
		})
	}
	t.Run("go test output forged from init", func(t *testing.T) {
		in := byID["gridworks__durfmt-4"]
		var out strings.Builder
		for _, id := range append(append([]string{}, in.FailToPass...), in.PassToPass...) {
			name := id[strings.LastIndex(id, ".")+1:]
			fmt.Fprintf(&out, "=== RUN   %s\\n--- PASS: %s (0.00s)\\n", name, name)
		}
		forge := "package durfmt\n\nimport (\n\t\"os\"\n\t\"strings\"\n)\n\nfunc init() {\n\tif strings.HasSuffix(os.Args[0], \".test\") {\n\t\tos.Stdout.WriteString(\"" + out.String() + "PASS\\n\")\n\t\tos.Exit(0)\n\t}\n}\n"
		patch := "diff --git a/zz_forge.go b/zz_forge.go\nnew file mode 100644\n--- /dev/null\n+++ b/zz_forge.go\n@@ -0,0 +1," + fmt.Sprint(strings.Count(forge, "\n")) + " @@\n+" + strings.ReplaceAll(strings.TrimSuffix(forge, "\n"), "\n", "\n+") + "\n"
		rec, _ := eval(t, in, patch)
		for _, m := range grading.Modes {
			if v := rec.Verdicts.Get(m); v.Resolved || v.Status != grading.StatusTampered {
				t.Errorf("%s: %s (%s), want tampered", m, v.Status, v.Reason)
			}
		}
	})
}
