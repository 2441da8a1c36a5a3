package harness

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runtime"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/syntax"
)

// TestEvaluatePytest runs real pytest on the fixture repository with a set
// of predictions, one per outcome.
func TestEvaluatePytest(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModePolyBench)
	wrong := diffOf(t, fx.repo, map[string]string{"calc.py": strings.Replace(calcBase, "a * b", "a * b  # touched", 1)})
	breaksMul := diffOf(t, fx.repo, map[string]string{"calc.py": strings.Replace(calcGold, "a * b", "a + b", 1)})
	tests := []struct {
		name       string
		pred       dataset.Prediction
		want       grading.Status // native (polybench)
		wantStrict grading.Status
		applied    string
	}{
		{"gold", dataset.Prediction{ModelPatch: fx.inst.Patch}, grading.StatusResolved, grading.StatusResolved, "git apply --verbose"},
		{"empty", dataset.Prediction{ModelPatch: "  \n"}, grading.StatusEmptyPatch, grading.StatusEmptyPatch, ""},
		{"wrong fix", dataset.Prediction{ModelPatch: wrong}, grading.StatusUnresolved, grading.StatusUnresolved, "git apply --verbose"},
		{"fix that breaks P2P", dataset.Prediction{ModelPatch: breaksMul}, grading.StatusUnresolved, grading.StatusUnresolved, "git apply --verbose"},
		{"files", dataset.Prediction{Files: map[string]string{"calc.py": calcGold}}, grading.StatusResolved, grading.StatusResolved, "files"},
		{"garbage", dataset.Prediction{ModelPatch: "diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n-nothing like this\n+x\n"}, grading.StatusPatchFailed, grading.StatusPatchFailed, ""},
		{"dot-dot", dataset.Prediction{ModelPatch: "--- a/../evil.py\n+++ b/../evil.py\n@@ -0,0 +1 @@\n+x\n"}, grading.StatusPatchRejected, grading.StatusPatchRejected, ""},
		{"absolute", dataset.Prediction{ModelPatch: "--- /dev/null\n+++ /tmp/evil.py\n@@ -0,0 +1 @@\n+x\n"}, grading.StatusPatchRejected, grading.StatusPatchRejected, ""},
		{"through symlink", dataset.Prediction{ModelPatch: "diff --git a/escape/evil.py b/escape/evil.py\nnew file mode 100644\n--- /dev/null\n+++ b/escape/evil.py\n@@ -0,0 +1 @@\n+x\n"}, grading.StatusPatchRejected, grading.StatusPatchRejected, ""},
		{"files through symlink", dataset.Prediction{Files: map[string]string{"escape/evil.py": "x\n"}}, grading.StatusPatchRejected, grading.StatusPatchRejected, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.pred.InstanceID, tt.pred.ModelNameOrPath = fx.inst.InstanceID, "m"
			rec, art, err := h.Evaluate(context.Background(), fx.inst, tt.pred)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Status != tt.want || rec.Verdicts.Strict.Status != tt.wantStrict {
				t.Fatalf("status %s strict %s, want %s %s; error %q; log:\n%s", rec.Status, rec.Verdicts.Strict.Status, tt.want, tt.wantStrict, rec.Error, art.TestLog)
			}
			if got := rec.ModelPatchApply; tt.applied != "" && (got == nil || got.Method != tt.applied) {
				t.Errorf("applied by %+v, want %s", got, tt.applied)
			}
			if rec.Resolved != (tt.want == grading.StatusResolved) {
				t.Errorf("resolved %v with status %s", rec.Resolved, rec.Status)
			}
			if rec.Status == grading.StatusResolved {
				// The must-fail canary (canary.go) makes pytest exit 1.
				if rec.Test.Parser != "pytest" || !rec.WithLogs || rec.Test.ExitCode != 1 {
					t.Errorf("test run %+v with_logs %v", rec.Test, rec.WithLogs)
				}
				if len(rec.Test.Canaries) != 2 || !rec.Test.Canaries[1].Fail || rec.Test.Canaries[0].File != "tests/test_calc.py" {
					t.Errorf("canaries %+v, want a must-pass and a must-fail one in tests/test_calc.py", rec.Test.Canaries)
				}
				for _, id := range append(append([]string{}, rec.PassedTests...), rec.FailedTests...) {
					if strings.Contains(id, rec.Test.Canaries[0].Name) || strings.Contains(id, rec.Test.Canaries[1].Name) {
						t.Errorf("canary %s in the reported test lists", id)
					}
				}
				if !strings.HasSuffix(string(art.TestLog), "\nContainer exited with status code: 1 [polynfi-mark "+rec.Test.LogSecret+" exit 1]\n") || len(rec.Test.LogSecret) != 32 {
					t.Errorf("log does not end with the marked exit line: %q", art.TestLog[max(0, len(art.TestLog)-120):])
				}
			}
			if tt.name == "files" && !strings.Contains(art.ModelPatch, "+    return a + b") {
				t.Errorf("files prediction recorded patch %q, want the diff it makes", art.ModelPatch)
			}
		})
	}
	// Nothing reached the clone, and nothing escaped.
	if out := run(t, fx.repo, "git", "status", "--porcelain"); out != "" {
		t.Errorf("clone changed: %s", out)
	}
	if _, err := os.Stat("/tmp/evil.py"); err == nil {
		t.Error("/tmp/evil.py was written")
	}
	if entries, _ := os.ReadDir(h.ScratchDir); len(entries) != 0 {
		t.Errorf("scratch space left behind: %v", entries)
	}
}

// TestApplyCascadeResetsBetweenAttempts: a two-file patch where one file's
// context drifted. With the patch's index lines (blobs the repository
// holds) SWE-bench 5.0.2's second command, git apply --3way, merges it.
// Without them the three-way merge cannot run: git apply fails; git apply
// --reject applies the clean file and fails; patch must then start from a
// clean tree, or --forward would see the clean file as already applied and
// fail.
func TestApplyCascadeResetsBetweenAttempts(t *testing.T) {
	t.Parallel()
	reIndex := regexp.MustCompile(`(?m)^index [0-9a-f]+\.\.[0-9a-f]+.*\n`)
	for _, c := range []struct {
		name     string
		noIndex  bool
		method   string
		attempts int
	}{
		{"index lines", false, "git apply --verbose --3way", 2},
		{"no index lines", true, "patch --batch --fuzz=5 -p1 --forward", 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			applyCascadeDrift(t, c.noIndex, c.method, c.attempts, reIndex)
		})
	}
}

func applyCascadeDrift(t *testing.T, noIndex bool, method string, attempts int, reIndex *regexp.Regexp) {
	dir := filepath.Join(t.TempDir(), "o__r")
	lines := func(prefix string) string {
		var b strings.Builder
		for i := 1; i <= 12; i++ {
			b.WriteString(prefix)
			b.WriteString(strings.Repeat("x", i))
			b.WriteString("\n")
		}
		return b.String()
	}
	base := makeRepo(t, dir, map[string]string{"a.txt": lines("a"), "b.txt": lines("b")})
	patch := diffOf(t, dir, map[string]string{
		"a.txt": strings.Replace(lines("a"), "axxxxxx\n", "CHANGED\n", 1),
		"b.txt": strings.Replace(lines("b"), "bxxxxxx\n", "CHANGED\n", 1),
	})
	if noIndex {
		patch = reIndex.ReplaceAllString(patch, "")
	}
	// Make b.txt's hunk need fuzz: change a context line in the repo.
	run(t, dir, "sed", "-i", "s/^bxxxx$/bYYYY/", "b.txt")
	run(t, dir, "git", "commit", "--quiet", "-am", "drift")
	drifted := run(t, dir, "git", "rev-parse", "HEAD")
	_ = base
	ws, remove, err := clones.New(filepath.Dir(dir), t.TempDir()).Workspace(context.Background(), "o/r", drifted, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	local := runtime.NewLocal(context.Background(), runtime.LocalOptions{})
	t.Cleanup(func() { local.Close() })
	sb, err := local.Start(context.Background(), runtime.Spec{Workdir: ws})
	if err != nil {
		t.Fatal(err)
	}
	wt := &tree{sb: sb, tmp: t.TempDir()}
	lstat, err := wt.lstat(context.Background(), diff.PatchPaths(patch))
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := checkPatchPaths(lstat, patch)
	if err != nil || parsed == nil {
		t.Fatalf("check: %v (parsed %v)", err, parsed != nil)
	}
	copies := map[string]string{}
	files := patchFiles("p.diff", patch, parsed, copies)
	at, err := wt.copyPatches(context.Background(), copies)
	if err != nil {
		t.Fatal(err)
	}
	res, err := applyCascade(context.Background(), wt, files.at(at), parsed, drifted)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Applied || res.Method != method || len(res.Attempts) != attempts {
		t.Fatalf("cascade %+v, want applied by %s at attempt %d", res, method, attempts)
	}
	a, _ := os.ReadFile(filepath.Join(ws, "a.txt"))
	b, _ := os.ReadFile(filepath.Join(ws, "b.txt"))
	if !strings.Contains(string(a), "CHANGED") || !strings.Contains(string(b), "CHANGED") {
		t.Errorf("a.txt / b.txt not patched:\n%s\n%s", a, b)
	}
	if _, err := os.Stat(filepath.Join(ws, "b.txt.rej")); err == nil {
		t.Error("b.txt.rej of the --reject attempt survived the reset")
	}
}

func TestEvaluateTimeoutKillsAndContinues(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModeStrict)
	h.Timeout = time.Second
	inst := fx.inst
	inst.TestCommand = "sleep 60 & sleep 60"
	start := time.Now()
	rec, art, err := h.Evaluate(context.Background(), inst, dataset.Prediction{InstanceID: inst.InstanceID, ModelPatch: inst.Patch})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("evaluation took %s with a 1 s timeout", d)
	}
	if rec.Status != grading.StatusTimedOut || !rec.Test.TimedOut || rec.Resolved {
		t.Errorf("status %s timed out %v", rec.Status, rec.Test.TimedOut)
	}
	if !strings.HasSuffix(string(art.TestLog), "Container operation timed out [polynfi-mark "+rec.Test.LogSecret+" timeout -1]\n") {
		t.Errorf("log %q", art.TestLog)
	}
}

func TestEvaluateErrors(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModeSWEBench)
	for name, mod := range map[string]func(*dataset.Instance){
		"no repo":        func(in *dataset.Instance) { in.Repo = "acme/missing" },
		"bad commit":     func(in *dataset.Instance) { in.BaseCommit = "0000000000000000000000000000000000000000" },
		"no command":     func(in *dataset.Instance) { in.TestCommand = "" },
		"bad test patch": func(in *dataset.Instance) { in.TestPatch = "--- a/nope.py\n+++ b/nope.py\n@@ -1 +1 @@\n-a\n+b\n" },
	} {
		t.Run(name, func(t *testing.T) {
			in := fx.inst
			mod(&in)
			rec, _, err := h.Evaluate(context.Background(), in, dataset.Prediction{InstanceID: in.InstanceID, ModelPatch: in.Patch})
			if err != nil {
				t.Fatal(err)
			}
			if rec.Status != grading.StatusError || rec.Error == "" || rec.Resolved {
				t.Errorf("status %s error %q, want error", rec.Status, rec.Error)
			}
		})
	}
}

// SWE-bench's pytest node ids in the dataset match polynfi's pytest ids,
// and the record lists them as the dataset spells them.
func TestEvaluateNormalizesSWEBenchPytestIDs(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModeSWEBench)
	rec, _, err := h.Evaluate(context.Background(), fx.inst, dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelPatch: fx.inst.Patch})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Verdicts.SWEBench.Resolved || rec.Verdicts.SWEBench.FailToPass.Success[0] != "tests/test_calc.py::TestAdd::test_add" ||
		rec.Verdicts.PolyBench.PassToPass.Success[0] != "tests/test_calc.py::test_mul" {
		t.Errorf("swebench verdict %+v", rec.Verdicts.SWEBench)
	}
}

func TestEvaluateMetricsHooks(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModePolyBench)
	h.Retrieval = &retrieval.Options{Mode: retrieval.Compatible, Nodes: true}
	eng, err := nfi.NewEngine(catalog.Polynfi92(), nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	h.NFI = eng
	rec, _, err := h.Evaluate(context.Background(), fx.inst, dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelPatch: fx.inst.Patch})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Retrieval == nil || rec.Retrieval.File.Recall != 1 || rec.Retrieval.NodeStatus != retrieval.NodeOK {
		t.Errorf("retrieval %+v", rec.Retrieval)
	}
	if rec.NFI == nil || len(rec.NFI.Files) != 1 || rec.NFI.Files[0] != "calc.py" || !rec.NFI.Delta.Valid {
		t.Errorf("nfi %+v", rec.NFI)
	}
}

// TestEvaluateRetrievalFollowsApply: the metrics are those of the patch as
// applied. A files prediction is scored by the diff it makes; a patch that
// does not apply or is rejected scores 0, as SWE-PolyBench records zero
// metrics for it.
func TestEvaluateRetrievalFollowsApply(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModePolyBench)
	h.Retrieval = &retrieval.Options{Mode: retrieval.Compatible, Nodes: true}
	garbage := "diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n-nothing like this\n+x\n"
	for _, tc := range []struct {
		name       string
		pred       dataset.Prediction
		wantRecall float64
		wantNode   retrieval.NodeStatus
	}{
		{"gold", dataset.Prediction{ModelPatch: fx.inst.Patch}, 1, retrieval.NodeOK},
		{"files", dataset.Prediction{Files: map[string]string{"calc.py": calcGold}}, 1, retrieval.NodeOK},
		{"does not apply", dataset.Prediction{ModelPatch: garbage}, 0, retrieval.NodeFailedPrediction},
		{"rejected", dataset.Prediction{ModelPatch: "--- a/../calc.py\n+++ b/../calc.py\n@@ -0,0 +1 @@\n+x\n"}, 0, retrieval.NodeFailedPrediction},
		{"empty", dataset.Prediction{}, 0, retrieval.NodeFailedPrediction},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.pred.InstanceID = fx.inst.InstanceID
			rec, _, err := h.Evaluate(context.Background(), fx.inst, tc.pred)
			if err != nil {
				t.Fatal(err)
			}
			m := rec.Retrieval
			if m == nil {
				t.Fatalf("no retrieval metrics (status %s)", rec.Status)
			}
			if m.File.Recall != tc.wantRecall || m.NodeStatus != tc.wantNode {
				t.Errorf("status %s: file %+v node %s %+v, want recall %v node %s", rec.Status, m.File, m.NodeStatus, m.Node, tc.wantRecall, tc.wantNode)
			}
		})
	}
}

// TestEvaluatePrefersTheReadingThatNamesTheTests: a pytest run that also
// writes junit.xml. The JUnit ids ("tests.test_calc.TestAdd.test_add")
// name none of the dataset's tests, so the log's reading is graded.
func TestEvaluatePrefersTheReadingThatNamesTheTests(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	fx.inst.TestCommand = "python3 -m pytest -rA -p no:cacheprovider --junitxml=junit.xml tests/test_calc.py"
	h, _ := newHarness(t, fx.reposDir, grading.ModePolyBench)
	rec, art, err := h.Evaluate(context.Background(), fx.inst, dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelPatch: fx.inst.Patch})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != grading.StatusResolved || rec.Test.Parser != "pytest" || len(rec.Test.JUnitReports) != 1 {
		t.Errorf("status %s parser %q reports %v, want resolved from the pytest log with junit.xml found; log:\n%s",
			rec.Status, rec.Test.Parser, rec.Test.JUnitReports, art.TestLog)
	}
}

// TestEvaluateNFIJavaScriptTypeScript: the NFI delta covers the changed
// TypeScript and JavaScript files too, each judged by its language's rules
// (the default catalog), besides the Python ones.
func TestEvaluateNFIJavaScriptTypeScript(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModePolyBench)
	cat, err := catalog.Get(catalog.Default)
	if err != nil {
		t.Fatal(err)
	}
	if h.NFI, err = nfi.NewEngine(cat, nfi.Settings{}); err != nil {
		t.Fatal(err)
	}
	patch := diffOf(t, fx.repo, map[string]string{"calc.py": calcGold,
		"ui/format.ts": "export function format(x: any): string {\n  var s = String(x);\n  return s;\n}\n",
		"ui/main.js":   "console.log(1);\n"})
	rec, _, err := h.Evaluate(context.Background(), fx.inst, dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelPatch: patch})
	if err != nil {
		t.Fatal(err)
	}
	if rec.NFI == nil || !slices.Equal(rec.NFI.Files, []string{"calc.py", "ui/format.ts", "ui/main.js"}) || !rec.NFI.Delta.Valid {
		t.Fatalf("nfi %+v", rec.NFI)
	}
	// calc.py passes every LIB rule before and after; the after side's LIB
	// mean includes ui/main.js's (no-console fails), so it drops below 1
	if lib, ok := rec.NFI.Delta.Before.Get(nfi.LibraryConstraints); !ok || lib != 1 {
		t.Errorf("before LIB %v (%v), want 1", lib, ok)
	}
	if lib, ok := rec.NFI.Delta.After.Get(nfi.LibraryConstraints); !ok || lib >= 1 {
		t.Errorf("after LIB %v (%v), want < 1 from ui/main.js", lib, ok)
	}
}

// TestEvaluateNFIJava: a changed .java file is in the NFI delta. With a
// catalog that has no Java rule (the default one less its Java rules, if
// any) the file is parsed for validity only: NoRules names java, no aspect gets an S_p from it (the Python file
// alone scores), and a Java file that tree-sitter-java rejects after the
// patch makes the delta invalid, naming the file and its side.
func TestEvaluateNFIJava(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	cat, err := catalog.Get(catalog.Default)
	if err != nil {
		t.Fatal(err)
	}
	noJava := &nfi.Catalog{Version: cat.Version + "-no-java"}
	for _, r := range cat.Rules {
		if !r.Judges(syntax.Java) {
			noJava.Rules = append(noJava.Rules, r)
		}
	}
	eng, err := nfi.NewEngine(noJava, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if eng.HasRules(syntax.Java) || !eng.HasRules(syntax.Python) {
		t.Fatal("the catalog without Java rules still judges Java, or no longer Python")
	}
	for _, tc := range []struct {
		name, java string
		valid      bool
	}{
		{"valid", "package calc;\n\npublic class Calc {\n    public int add(int a, int b) {\n        return a + b;\n    }\n}\n", true},
		{"broken", "package calc;\n\npublic class Calc {\n    public int add(int a, int b) {\n        return a + ;\n    }\n}\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := newHarness(t, fx.reposDir, grading.ModePolyBench)
			h.NFI = eng
			patch := diffOf(t, fx.repo, map[string]string{"calc.py": calcGold, "src/main/java/calc/Calc.java": tc.java})
			rec, _, err := h.Evaluate(context.Background(), fx.inst, dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelPatch: patch})
			if err != nil {
				t.Fatal(err)
			}
			if rec.NFI == nil || !slices.Equal(rec.NFI.Files, []string{"calc.py", "src/main/java/calc/Calc.java"}) {
				t.Fatalf("nfi %+v, want calc.py and the Java file", rec.NFI)
			}
			if !slices.Equal(rec.NFI.NoRules, []string{"java"}) {
				t.Errorf("no_rules %v, want [java]", rec.NFI.NoRules)
			}
			if rec.NFI.Delta.Valid != tc.valid {
				t.Fatalf("valid %v, want %v (invalid files %+v)", rec.NFI.Delta.Valid, tc.valid, rec.NFI.Delta.Invalid)
			}
			if !tc.valid {
				inv := rec.NFI.Delta.Invalid
				if len(inv) != 1 || inv[0].Path != "src/main/java/calc/Calc.java" || inv[0].Version != nfi.VersionAfter || inv[0].Error == nil || inv[0].Error.Line != 5 {
					t.Errorf("invalid files %+v, want the Java file after the patch, line 5", inv)
				}
				return
			}
			// the Python file alone gives every aspect's S_p: its DOC
			// score is the same as with the Python file only
			pyOnly, _, err := h.Evaluate(context.Background(), fx.inst, dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelPatch: diffOf(t, fx.repo, map[string]string{"calc.py": calcGold})})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range nfi.Aspects {
				got, ok1 := rec.NFI.Delta.After.Get(a)
				want, ok2 := pyOnly.NFI.Delta.After.Get(a)
				if got != want || ok1 != ok2 {
					t.Errorf("%s after: %v (%v) with the Java file, %v (%v) without: the Java file must not count", a.Code(), got, ok1, want, ok2)
				}
			}
		})
	}
}

// TestEvaluateNFIJavaRules: the NFI delta covers a changed Java file, judged by
// the Java rules: a patch that adds an empty catch lowers the ERR mean.
func TestEvaluateNFIJavaRules(t *testing.T) {
	t.Parallel()
	fx := newPyFixture(t)
	h, _ := newHarness(t, fx.reposDir, grading.ModePolyBench)
	cat, err := catalog.Get(catalog.Default)
	if err != nil {
		t.Fatal(err)
	}
	if h.NFI, err = nfi.NewEngine(cat, nfi.Settings{}); err != nil {
		t.Fatal(err)
	}
	patch := diffOf(t, fx.repo, map[string]string{"calc.py": calcGold,
		"src/A.java": "class A {\n  void f() {\n    try { g(); } catch (IllegalStateException e) { }\n  }\n  void g() { f(); }\n}\n"})
	rec, _, err := h.Evaluate(context.Background(), fx.inst, dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelPatch: patch})
	if err != nil {
		t.Fatal(err)
	}
	if rec.NFI == nil || !slices.Equal(rec.NFI.Files, []string{"calc.py", "src/A.java"}) || !rec.NFI.Delta.Valid {
		t.Fatalf("nfi %+v", rec.NFI)
	}
	// A.java is new: only the after side has it. Its empty catch fails
	// JAVA-ERR-P01: the after ERR mean is lower than with the exception
	// handled in the same file.
	handled := diffOf(t, fx.repo, map[string]string{"calc.py": calcGold,
		"src/A.java": "class A {\n  void f() {\n    try { g(); } catch (IllegalStateException e) { throw e; }\n  }\n  void g() { f(); }\n}\n"})
	rec2, _, err := h.Evaluate(context.Background(), fx.inst, dataset.Prediction{InstanceID: fx.inst.InstanceID, ModelPatch: handled})
	if err != nil || rec2.NFI == nil {
		t.Fatalf("%v %+v", err, rec2.NFI)
	}
	empty, ok1 := rec.NFI.Delta.After.Get(nfi.ErrorHandling)
	kept, ok2 := rec2.NFI.Delta.After.Get(nfi.ErrorHandling)
	if !ok1 || !ok2 || empty >= kept {
		t.Errorf("after ERR %v with an empty catch, %v with it handled: want lower", empty, kept)
	}
}
