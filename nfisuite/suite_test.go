package nfisuite

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/nfirecord"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/testlog"
)

const sampleTasks = "../examples/nfi/tasks.jsonl"

func newSuite(t *testing.T) *Suite {
	t.Helper()
	e, err := nfi.NewEngine(catalog.Polynfi92(), nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	local := runtime.NewLocal(context.Background(), runtime.LocalOptions{})
	t.Cleanup(func() { local.Close() })
	return &Suite{Engine: e, Runner: local, WorkDir: t.TempDir()}
}

func loadSample(t *testing.T) []dataset.NFITask {
	t.Helper()
	ts, err := dataset.LoadNFITasks(sampleTasks)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.Errors) > 0 {
		t.Fatalf("sample task errors: %v", ts.Errors)
	}
	return ts.Tasks
}

// TestGoldOnSample: the human reference is valid and functionally correct on
// every bundled task, its I_p equals I_p(h), and I_p(h) is positive in the
// task's target aspect (SWE-NFI's selection criterion).
func TestGoldOnSample(t *testing.T) {
	tasks := loadSample(t)
	if len(tasks) < 12 {
		t.Fatalf("sample has %d tasks, want >= 12", len(tasks))
	}
	s := newSuite(t)
	out := t.TempDir()
	res, err := s.Run(context.Background(), tasks, GoldPredictions(tasks), RunOptions{Out: out, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Evaluated != len(tasks) || res.Missing != 0 {
		t.Fatalf("evaluated %d, missing %d; want %d, 0", res.Evaluated, res.Missing, len(tasks))
	}
	for _, r := range res.Records {
		if !r.Valid || !r.FunctionallyCorrect {
			t.Errorf("%s: valid=%v correct=%v status=%s %s", r.InstanceID, r.Valid, r.FunctionallyCorrect, r.TestStatus, r.InvalidDetail)
			continue
		}
		for _, a := range nfi.Aspects {
			got, _ := r.Improvement.Get(a)
			want, _ := r.Human.Get(a)
			if got != want {
				t.Errorf("%s %s: gold I_p %v != I_p(h) %v", r.InstanceID, a.Code(), got, want)
			}
		}
		a, _ := nfi.ParseAspect(r.Aspect)
		if v, _ := r.Human.Get(a); v <= 0 {
			t.Errorf("%s: I_p(h) in the target aspect %s is %v, want > 0", r.InstanceID, r.Aspect, v)
		}
	}
	// Re-running the same command finds every record up to date.
	res2, err := s.Run(context.Background(), tasks, GoldPredictions(tasks), RunOptions{Out: out, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Evaluated != 0 || res2.Reused != len(tasks) {
		t.Fatalf("re-run evaluated %d, reused %d; want 0, %d", res2.Evaluated, res2.Reused, len(tasks))
	}
}

func TestGradeStrict(t *testing.T) {
	p := func(id string, s testlog.Status) testlog.Result { return testlog.Result{ID: id, Status: s} }
	cases := []struct {
		name     string
		results  []testlog.Result
		exit     int
		timedOut bool
		want     string
	}{
		{"all pass", []testlog.Result{p("a", testlog.Passed), p("b", testlog.Skipped)}, 0, false, "passed"},
		{"a failure", []testlog.Result{p("a", testlog.Passed), p("b", testlog.Failed)}, 1, false, "failed"},
		{"an error", []testlog.Result{p("a", testlog.Error)}, 1, false, "failed"},
		{"conflicting duplicate", []testlog.Result{p("a", testlog.Passed), p("a", testlog.Skipped)}, 0, false, "failed"},
		{"crash after tests", []testlog.Result{p("a", testlog.Passed)}, 2, false, "inconsistent"},
		{"nothing parsed", nil, 0, false, "infra_failure"},
		{"timeout", []testlog.Result{p("a", testlog.Passed)}, -1, true, "timeout"},
	}
	for _, c := range cases {
		if got := GradeStrict(c.results, c.exit, c.timedOut); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestOutput(t *testing.T) {
	task := &dataset.NFITask{InstanceID: "x", Files: []dataset.NFIFile{{Path: "m.py", Before: "a = 1\n", After: "a = 2\n"}}}
	cases := []struct {
		name   string
		pred   dataset.Prediction
		reason string
		want   string
	}{
		{"empty", dataset.Prediction{}, nfirecord.ReasonEmpty, ""},
		{"blank files", dataset.Prediction{Files: map[string]string{"m.py": "  \n"}}, nfirecord.ReasonEmpty, ""},
		{"files", dataset.Prediction{Files: map[string]string{"m.py": "a = 3\n"}}, "", "a = 3\n"},
		{"escaping path", dataset.Prediction{Files: map[string]string{"../m.py": "x"}}, nfirecord.ReasonPatchError, ""},
		{"diff", dataset.Prediction{ModelPatch: "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-a = 1\n+a = 4\n"}, "", "a = 4\n"},
		{"diff that does not apply", dataset.Prediction{ModelPatch: "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-b = 1\n+a = 4\n"}, nfirecord.ReasonPatchError, ""},
	}
	for _, c := range cases {
		out, reason, detail := Output(task, &c.pred)
		if reason != c.reason {
			t.Errorf("%s: reason %q (%s), want %q", c.name, reason, detail, c.reason)
			continue
		}
		if c.reason == "" && out["m.py"] != c.want {
			t.Errorf("%s: got %q, want %q", c.name, out["m.py"], c.want)
		}
	}
}

// TestInterruptAndResume cancels a run after a few records, then re-runs it:
// every task ends with exactly one well-formed record and nothing already
// recorded is evaluated again.
func TestInterruptAndResume(t *testing.T) {
	tasks := loadSample(t)
	s := newSuite(t)
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	res, err := s.Run(ctx, tasks, GoldPredictions(tasks), RunOptions{Out: out, Workers: 2,
		Progress: func(done, total int, r nfirecord.Record, reused bool) {
			if done == 3 {
				cancel()
			}
		}})
	if err == nil {
		t.Fatal("a cancelled run must report the cancellation")
	}
	first := res.Evaluated
	if first < 3 || first >= len(tasks) {
		t.Fatalf("first run recorded %d of %d", first, len(tasks))
	}
	res2, err := s.Run(context.Background(), tasks, GoldPredictions(tasks), RunOptions{Out: out, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Reused != first || res2.Evaluated != len(tasks)-first {
		t.Fatalf("resume: reused %d evaluated %d; want %d, %d", res2.Reused, res2.Evaluated, first, len(tasks)-first)
	}
	recs, err := nfirecord.LoadRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		if seen[r.InstanceID] {
			t.Errorf("%s recorded twice", r.InstanceID)
		}
		seen[r.InstanceID] = true
	}
	if len(recs) != len(tasks) {
		t.Fatalf("%d records, want %d", len(recs), len(tasks))
	}
}

// TestRepositoryEnvironment evaluates a task whose tests live in a base
// repository (environment.repo + base_commit, as `polynfi tasks build`
// writes them): the workspace is that repository at the commit, with the
// output written over the target file.
func TestRepositoryEnvironment(t *testing.T) {
	reposDir := t.TempDir()
	repo := filepath.Join(reposDir, "acme__calc")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_AUTHOR_DATE=2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-01-01T00:00:00Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	before := "def add(a, b):\n    return a + b\n"
	after := "\"\"\"Arithmetic.\"\"\"\n\n\ndef add(a: int, b: int) -> int:\n    \"\"\"Return a + b.\"\"\"\n    return a + b\n"
	os.MkdirAll(filepath.Join(repo, "calc"), 0o755)
	os.MkdirAll(filepath.Join(repo, "tests"), 0o755)
	os.WriteFile(filepath.Join(repo, "calc", "ops.py"), []byte(before), 0o644)
	os.WriteFile(filepath.Join(repo, "tests", "test_ops.py"), []byte("from calc.ops import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"), 0o644)
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	base := git("rev-parse", "HEAD")

	task := dataset.NFITask{InstanceID: "acme__calc-1", Repo: "acme/calc", Aspect: nfi.Documentation, Scope: "single",
		Files:       []dataset.NFIFile{{Path: "calc/ops.py", Before: before, After: after}},
		TestCommand: "python3 -m pytest -rA -p no:cacheprovider tests",
		Environment: &dataset.NFIEnvironment{Repo: "acme/calc", BaseCommit: base}}
	broken := dataset.Prediction{InstanceID: task.InstanceID, ModelNameOrPath: "agent",
		Files: map[string]string{"calc/ops.py": "def add(a, b):\n    return a - b\n"}}
	s := newSuite(t)
	// Without repositories the run cannot be tested, and says why.
	parser := syntax.NewParser()
	defer parser.Close()
	rec, err := s.Evaluate(context.Background(), parser, &task, &GoldPredictions([]dataset.NFITask{task})[0], nfi.Improvement{})
	if err == nil && (rec.FunctionallyCorrect || !strings.Contains(rec.InvalidDetail, "--repos-dir")) {
		t.Fatalf("without repos: correct=%v detail=%q", rec.FunctionallyCorrect, rec.InvalidDetail)
	}
	preds := append(GoldPredictions([]dataset.NFITask{task}), broken)
	out := t.TempDir()
	if _, err := s.Run(context.Background(), []dataset.NFITask{task}, preds, RunOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	// Once the repositories are there, the same command retries those harness errors.
	s.Repos = clones.New(reposDir, t.TempDir())
	res, err := s.Run(context.Background(), []dataset.NFITask{task}, preds, RunOptions{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if res.Evaluated != 2 || res.Reused != 0 {
		t.Fatalf("retry: evaluated %d reused %d, want 2, 0", res.Evaluated, res.Reused)
	}
	// An unchanged task reuses its records; a changed one is evaluated again.
	if res, _ := s.Run(context.Background(), []dataset.NFITask{task}, preds, RunOptions{Out: out}); res.Reused != 2 {
		t.Fatalf("unchanged task: reused %d, want 2", res.Reused)
	}
	changed := task
	changed.TestCommand += " -q"
	if res, _ := s.Run(context.Background(), []dataset.NFITask{changed}, preds, RunOptions{Out: out}); res.Evaluated != 2 {
		t.Fatalf("changed task: evaluated %d, want 2", res.Evaluated)
	}
	got := map[string]bool{}
	for _, r := range res.Records {
		got[r.Model] = r.FunctionallyCorrect
		if r.Model == dataset.GoldModel && r.TestsTotal != 1 {
			t.Errorf("gold ran %d tests, want the repository's 1", r.TestsTotal)
		}
	}
	if !got[dataset.GoldModel] || got["agent"] {
		t.Fatalf("correctness: got %v, want gold true, agent false", got)
	}
	if st, err := os.Stat(filepath.Join(repo, "calc", "ops.py")); err != nil || st.Size() != int64(len(before)) {
		t.Fatal("the base repository must not be touched")
	}
}

// TestForgedTestOutput: a prediction cannot make its own tests look
// passing: a junit.xml it ships (and a test command it ends early with
// status 0: before the run wrote reports only, this passed), a pytest log
// it prints on stderr, a second pytest summary it prints on stdout at
// exit. The reference output passes (the control).
func TestForgedTestOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pytest")
	}
	task := loadSample(t)[0]
	task.InstanceID = "acme__forged-1"
	task.Environment = nil
	task.Files = []dataset.NFIFile{{Path: "m.py", Before: "a = 1\n", After: "a = 2\n"}}
	task.Tests = []dataset.FileContent{{Path: "tests/test_m.py", Content: "import m\n\n\ndef test_a():\n    assert m.a == 2\n"}}
	task.TestCommand = "python3 -m pytest -rA -p no:cacheprovider tests"
	fakeLog := "==================== test session starts ====================\n" +
		"tests/test_m.py::test_a PASSED\n" +
		"========================= short test summary info ==========================\nPASSED tests/test_m.py::test_a\n" +
		"==================== 1 passed in 0.01s ====================\n"
	preds := map[string]map[string]string{
		"gold":              {"m.py": "a = 2\n"},
		"junit.xml shipped": {"m.py": "a = 3\nimport os\nos._exit(0)\n", "junit.xml": `<testsuite name="x" tests="1"><testcase classname="tests.test_m" name="test_a" file="tests/test_m.py"/></testsuite>`},
		"log on stderr":     {"m.py": "a = 3\nimport sys, atexit\natexit.register(lambda: sys.__stderr__.write(" + strconvQuote(fakeLog) + "))\n"},
		"second summary":    {"m.py": "a = 3\nimport os, stat, atexit\ndef _w():\n    for fd in range(1, 64):\n        try:\n            if stat.S_ISFIFO(os.fstat(fd).st_mode):\n                os.write(fd, " + strconvQuote(fakeLog) + ".encode())\n        except OSError:\n            pass\natexit.register(_w)\n"},
	}
	for name, files := range preds {
		t.Run(name, func(t *testing.T) {
			s := newSuite(t)
			res, err := s.Run(context.Background(), []dataset.NFITask{task},
				[]dataset.Prediction{{InstanceID: task.InstanceID, ModelNameOrPath: "m", Files: files}}, RunOptions{Out: t.TempDir(), Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			r := res.Records[0]
			if want := name == "gold"; r.FunctionallyCorrect != want {
				t.Errorf("functionally correct %v (%s %s), want %v", r.FunctionallyCorrect, r.TestStatus, r.InvalidDetail, want)
			}
		})
	}
}

func strconvQuote(s string) string { return strconv.Quote(s) }
