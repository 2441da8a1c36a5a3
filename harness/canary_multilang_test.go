package harness

import (
	"context"
	"fmt"
	"os"
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
	_, byID, _, eval := multilangCanaryRun(t)
	for _, id := range []string{"gridworks__durfmt-4", "numerals__romanum-3"} {
		t.Run(id, func(t *testing.T) {
			in, ok := byID[id]
			if !ok {
				t.Fatalf("%s not in the sample", id)
			}
			rec, log := eval(t, in, in.Patch)
			if !rec.Resolved || rec.Status == grading.StatusTampered {
				t.Errorf("gold: %s (%s)\n%.3000s", rec.Status, rec.Verdicts.Strict.Reason, log)
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

// TestCanariesPHPRubyCPP evaluates, with the real toolchains (PHPUnit
// --log-junit, RSpec with rspec_junit_formatter, CMake + googletest XML)
// and the local runtime, the gold patches of the PHP, Ruby and C++
// instances of examples/multilang: each run gets a must-pass and a
// must-fail canary in its test file, both read back (resolved, not
// tampered, both canaries in the log). Then, per instance, a patch that
// appends to the library code a forgery run while the runner loads it
// (PHP top-level code, Ruby top-level code, a C++ static initializer):
// it writes the runner's JUnit report with every FAIL_TO_PASS and
// PASS_TO_PASS test passed and ends the process with status 0. Without
// the guards that forgery resolves (so it is one the canaries must
// stop); with them it is tampered in every mode, its canaries missing.
// The C instance gets no canaries, with a note saying why.
func TestCanariesPHPRubyCPP(t *testing.T) {
	if testing.Short() {
		t.Skip("runs phpunit, rspec and a CMake googletest build")
	}
	dir, byID, h, eval := multilangCanaryRun(t)
	xmlText := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")
	// junit returns a JUnit report passing ids, each split into class
	// and name by split.
	junit := func(in dataset.Instance, split func(string) (string, string)) string {
		var b strings.Builder
		ids := append(append([]string{}, in.FailToPass...), in.PassToPass...)
		fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?><testsuites tests="%d" failures="0" errors="0"><testsuite name="all" tests="%d" failures="0" errors="0">`, len(ids), len(ids))
		for _, id := range ids {
			c, n := split(id)
			fmt.Fprintf(&b, `<testcase classname="%s" name="%s" time="0.001"/>`, xmlText.Replace(c), xmlText.Replace(n))
		}
		return b.String() + "</testsuite></testsuites>\n"
	}
	lastDot := func(id string) (string, string) { i := strings.LastIndex(id, "."); return id[:i], id[i+1:] }
	firstDot := func(id string) (string, string) { c, n, _ := strings.Cut(id, "."); return c, n }
	cases := []struct {
		id, file, forge string
	}{
		{"wordsmith__inflect-3", "src/Inflector.php",
			"file_put_contents('junit.xml', '" + junit(byID["wordsmith__inflect-3"], lastDot) + "');\necho \"OK\\n\";\nexit(0);\n"},
		{"bookshelf__isbnkit-2", "lib/isbnkit.rb",
			"File.write(\"junit.xml\", <<~'XML')\n" + junit(byID["bookshelf__isbnkit-2"], func(id string) (string, string) {
				return "spec.isbnkit_spec", strings.TrimPrefix(id, "spec.isbnkit_spec.")
			}) + "XML\nputs \"........\\n\\nFinished\\n0 failures\"\nexit!(0)\n"},
		{"kvconf__inikit-14", "src/ini.cpp",
			"#include <cstdio>\n#include <cstdlib>\nnamespace {\nstruct Forge {\n    Forge() {\n        if (std::FILE* f = std::fopen(\"junit.xml\", \"w\")) {\n            std::fputs(" + fmt.Sprintf("%q", junit(byID["kvconf__inikit-14"], firstDot)) + ", f);\n            std::fclose(f);\n        }\n        std::puts(\"[  PASSED  ] all tests.\");\n        std::_Exit(0);\n    }\n} forge;\n}\n"},
	}
	for _, c := range cases {
		in, ok := byID[c.id]
		if !ok {
			t.Fatalf("%s not in the sample", c.id)
		}
		t.Run(c.id, func(t *testing.T) {
			rec, log := eval(t, in, in.Patch)
			if !rec.Resolved || rec.Status == grading.StatusTampered {
				t.Errorf("gold: %s (%s)\n%.3000s", rec.Status, rec.Verdicts.Strict.Reason, log)
			}
			if cs := rec.Test.Canaries; len(cs) != 2 || cs[0].Fail || !cs[1].Fail {
				t.Errorf("canaries %+v (%s), want a must-pass and a must-fail one", cs, rec.Test.CanaryNote)
			}
			for _, cn := range rec.Test.Canaries {
				if !strings.Contains(log, cn.Name) {
					t.Errorf("canary %s is not in the test log: it did not run", cn.Name)
				}
			}
			for _, id := range append(append([]string{}, rec.PassedTests...), rec.FailedTests...) {
				for _, cn := range rec.Test.Canaries {
					if strings.Contains(id, cn.Name) {
						t.Errorf("canary %s in the reported lists", id)
					}
				}
			}
		})
		t.Run(c.id+" forged report", func(t *testing.T) {
			patch := appendPatch(t, filepath.Join(dir, "src", strings.Split(c.id, "-")[0], "base", c.file), c.file, c.forge)
			h.noGuards = true
			rec, log := eval(t, in, patch)
			h.noGuards = false
			if !rec.Resolved {
				t.Errorf("without the guards the forgery is %s (%s): it does not test the canaries\n%.2000s", rec.Status, rec.Verdicts.Strict.Reason, log)
			}
			rec, log = eval(t, in, patch)
			for _, m := range grading.Modes {
				if v := rec.Verdicts.Get(m); v.Resolved || v.Status != grading.StatusTampered {
					t.Errorf("%s: %s (%s), want tampered\n%.2000s", m, v.Status, v.Reason, log)
				}
			}
		})
	}
	t.Run("C: no canaries", func(t *testing.T) {
		in := byID["textlab__slugify-8"]
		rec, _ := eval(t, in, in.Patch)
		if !rec.Resolved || len(rec.Test.Canaries) != 0 || !strings.Contains(rec.Test.CanaryNote, "C suite") {
			t.Errorf("C gold: %s, canaries %+v, note %q", rec.Status, rec.Test.Canaries, rec.Test.CanaryNote)
		}
	})
}

// appendPatch returns a patch that appends text to the file at repo
// path p, whose content at the base commit is the file base.
func appendPatch(t *testing.T, base, p, text string) string {
	t.Helper()
	b, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	add := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	n := len(lines)
	return fmt.Sprintf("diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -%d,1 +%d,%d @@\n %s\n+%s\n", p, p, p, p, n, n, 1+len(add), lines[n-1], strings.Join(add, "\n+"))
}

// TestCanariesSWEBenchPro grades examples/multilang/swe-bench-pro.jsonl's
// durfmt-4 (run_script.sh runs go test -v on the selected test file's
// package, parser.py reads its --- PASS lines) with the real go
// toolchain, local runtime: gold resolves in the swe-bench-pro mode with
// one must-pass canary in the selected test file, read back from the
// log. A patch whose package init, in the test binary, prints go test
// -v's lines for every FAIL_TO_PASS and PASS_TO_PASS test as passed and
// exits 0 resolves without the guards (parser.py reads the forged
// lines), and is tampered in every mode, swe-bench-pro included, with
// them: its canary is missing from the log.
func TestCanariesSWEBenchPro(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	needProSandbox(t)
	dir, err := filepath.Abs("../examples/multilang")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Load(filepath.Join(dir, "swe-bench-pro.jsonl"))
	if err != nil || len(ds.Errors) > 0 {
		t.Fatalf("swe-bench-pro.jsonl: %v %v", err, ds)
	}
	var in dataset.Instance
	for _, x := range ds.Instances {
		if x.InstanceID == "gridworks__durfmt-4" {
			in = x
		}
	}
	if in.SWEBenchPro == nil {
		t.Fatal("gridworks__durfmt-4 is not a SWE-bench Pro row of the sample")
	}
	h, _ := newHarness(t, filepath.Join(dir, "repos"), grading.ModeSWEBenchPro)
	h.Env = []string{"POLYNFI_DATASET_DIR=" + dir}
	eval := func(t *testing.T, patch string) (*runrecord.Record, string) {
		rec, art, err := h.Evaluate(context.Background(), in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "m", ModelPatch: patch})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Test == nil {
			t.Fatalf("no test run: %s\n%.3000s", rec.Error, art.TestLog)
		}
		pro := rec.Verdicts.Get(grading.ModeSWEBenchPro)
		t.Logf("%s: %s (%s); swe-bench-pro %s (%s); canaries %+v; note %q", in.InstanceID, rec.Status, rec.Verdicts.Strict.Reason, pro.Status, pro.Reason, rec.Test.Canaries, rec.Test.CanaryNote)
		return rec, string(art.TestLog)
	}
	t.Run("gold", func(t *testing.T) {
		rec, log := eval(t, in.Patch)
		if v := rec.Verdicts.Get(grading.ModeSWEBenchPro); !rec.Resolved || !v.Resolved || rec.Verdicts.SWEBenchPro == nil {
			t.Errorf("gold: %s, swe-bench-pro %s (%s)", rec.Status, v.Status, v.Reason)
		}
		if cs := rec.Test.Canaries; len(cs) != 1 || cs[0].Fail || cs[0].File != "durfmt_test.go" {
			t.Fatalf("canaries %+v (%s), want one must-pass canary in durfmt_test.go", cs, rec.Test.CanaryNote)
		}
		if !strings.Contains(log, "--- PASS: Test_"+rec.Test.Canaries[0].Name) {
			t.Errorf("canary %s did not pass in the log", rec.Test.Canaries[0].Name)
		}
	})
	t.Run("go test -v output forged from init", func(t *testing.T) {
		var out strings.Builder
		for _, id := range append(append([]string{}, in.FailToPass...), in.PassToPass...) {
			fmt.Fprintf(&out, "=== RUN   %s\\n--- PASS: %s (0.00s)\\n", id, id)
		}
		forge := "package durfmt\n\nimport (\n\t\"os\"\n\t\"strings\"\n)\n\nfunc init() {\n\tif strings.HasSuffix(os.Args[0], \".test\") {\n\t\tos.Stdout.WriteString(\"" + out.String() + "PASS\\n\")\n\t\tos.Exit(0)\n\t}\n}\n"
		patch := "diff --git a/zz_forge.go b/zz_forge.go\nnew file mode 100644\n--- /dev/null\n+++ b/zz_forge.go\n@@ -0,0 +1," + fmt.Sprint(strings.Count(forge, "\n")) + " @@\n+" + strings.ReplaceAll(strings.TrimSuffix(forge, "\n"), "\n", "\n+") + "\n"
		h.noGuards = true
		rec, _ := eval(t, patch)
		h.noGuards = false
		if v := rec.Verdicts.Get(grading.ModeSWEBenchPro); !v.Resolved {
			t.Errorf("without the guards the forgery is %s (%s) in swe-bench-pro: it does not test the canaries", v.Status, v.Reason)
		}
		rec, log := eval(t, patch)
		for _, m := range append(append([]grading.Mode{}, grading.Modes...), grading.ModeSWEBenchPro) {
			if v := rec.Verdicts.Get(m); v.Resolved || v.Status != grading.StatusTampered {
				t.Errorf("%s: %s (%s), want tampered\n%.2000s", m, v.Status, v.Reason, log)
			}
		}
		if rec.Verdicts.SWEBenchPro == nil {
			t.Error("no swe-bench-pro verdict")
		}
	})
}

// multilangCanaryRun loads examples/multilang's dataset.csv and returns the
// sample's absolute directory, its instances by id, a local-runtime
// harness for them and a function that evaluates one of them with a patch
// in the local runtime (guards on), failing t when no test ran; it logs
// the status, reason, parser, canaries and canary note of each run.
func multilangCanaryRun(t *testing.T) (string, map[string]dataset.Instance, *Harness, func(*testing.T, dataset.Instance, string) (*runrecord.Record, string)) {
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
	return dir, byID, h, func(t *testing.T, in dataset.Instance, patch string) (*runrecord.Record, string) {
		rec, art, err := h.Evaluate(context.Background(), in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "m", ModelPatch: patch})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Test == nil {
			t.Fatalf("no test run: %s\n%.3000s", rec.Error, art.TestLog)
		}
		t.Logf("%s: %s (%s); parser %s; canaries %+v; note %q", in.InstanceID, rec.Status, rec.Verdicts.Strict.Reason, rec.Test.Parser, rec.Test.Canaries, rec.Test.CanaryNote)
		return rec, string(art.TestLog)
	}
}
