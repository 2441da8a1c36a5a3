package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/runrecord"
	"github.com/spf13/cobra"
)

// commandsByName returns every command of the tree under its path
// without the program name ("eval", "rules explain").
func commandsByName() map[string]*cobra.Command {
	root := newRoot(&env{ctx: context.Background(), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}})
	out := map[string]*cobra.Command{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			if s.Name() == "help" || s.Name() == "completion" {
				continue
			}
			out[strings.TrimPrefix(s.CommandPath(), "polynfi ")] = s
			walk(s)
		}
	}
	walk(root)
	return out
}

// TestOneVocabularyOfFlags: every command that writes takes --out with
// -o; every command that reads a dataset takes --dataset; --workers has
// one default (0: one per core) and -j everywhere.
func TestOneVocabularyOfFlags(t *testing.T) {
	cmds := commandsByName()
	writers := []string{"eval", "run", "validate", "images build", "review export", "mine", "sample", "tasks build", "score", "diff",
		"report", "compare", "rules", "metrics", "audit", "regrade"}
	for _, name := range writers {
		c := cmds[name]
		if c == nil {
			t.Errorf("no command %q", name)
			continue
		}
		f := c.Flags().Lookup("out")
		if f == nil {
			t.Errorf("%s: no --out", name)
			continue
		}
		if f.Shorthand != "o" {
			t.Errorf("%s: --out has shorthand %q, want -o", name, f.Shorthand)
		}
	}
	for _, name := range []string{"eval", "run", "validate", "images build", "regrade", "sample"} {
		if cmds[name].Flags().Lookup("dataset") == nil {
			t.Errorf("%s: no --dataset", name)
		}
	}
	n := 0
	for name, c := range cmds {
		f := c.Flags().Lookup("workers")
		if f == nil {
			continue
		}
		n++
		if f.DefValue != "0" || f.Shorthand != "j" {
			t.Errorf("%s: --workers default %s shorthand %q, want 0 and -j", name, f.DefValue, f.Shorthand)
		}
	}
	if n < 5 {
		t.Errorf("only %d commands have --workers", n)
	}
	if workerCount(0) != runtime.NumCPU() || workerCount(3) != 3 {
		t.Errorf("workerCount(0) = %d, workerCount(3) = %d", workerCount(0), workerCount(3))
	}
}

// TestOldFlagSpellings: --output (score, diff) and sample's --input keep
// working as aliases of --out and --dataset.
func TestOldFlagSpellings(t *testing.T) {
	dir := t.TempDir()
	py := filepath.Join(dir, "m.py")
	os.WriteFile(py, []byte("x = 1\n"), 0o644)
	dst := filepath.Join(dir, "scores.json")
	if _, stderr, code := runCLI(t, "score", "--format", "json", "--output", dst, py); code != ExitOK {
		t.Fatalf("score --output: exit %d\n%s", code, stderr)
	}
	if b, err := os.ReadFile(dst); err != nil || !json.Valid(b) {
		t.Fatalf("score --output wrote %q (%v)", b, err)
	}
	in := filepath.Join(dir, "rows.jsonl")
	os.WriteFile(in, []byte(`{"instance_id": "a"}`+"\n"+`{"instance_id": "b"}`+"\n"), 0o644)
	for _, flag := range []string{"--input", "--dataset"} {
		out := filepath.Join(dir, "sub"+flag[2:]+".jsonl")
		if _, stderr, code := runCLI(t, "sample", flag, in, "--size", "1", "--no-repo-coverage", "-o", out); code != ExitOK {
			t.Fatalf("sample %s: exit %d\n%s", flag, code, stderr)
		}
		if b, _ := os.ReadFile(out); bytes.Count(b, []byte("\n")) != 1 {
			t.Errorf("sample %s wrote %q", flag, b)
		}
	}
}

// TestResultFilesAtomic: report, compare, rules and metrics write their
// result to --out FILE, the same bytes as on standard output, and a
// failed command leaves an existing FILE as it was.
func TestResultFilesAtomic(t *testing.T) {
	dir := t.TempDir()
	stdout, _, code := runCLI(t, "rules", "--format", "json")
	if code != ExitOK {
		t.Fatal(code)
	}
	dst := filepath.Join(dir, "rules.json")
	so, stderr, code := runCLI(t, "rules", "--format", "json", "-o", dst)
	if code != ExitOK || so != "" {
		t.Fatalf("rules -o: exit %d, stdout %q\n%s", code, so, stderr)
	}
	if b, _ := os.ReadFile(dst); string(b) != stdout {
		t.Errorf("rules -o wrote %d bytes, stdout has %d", len(b), len(stdout))
	}
	py := filepath.Join(dir, "m.py")
	os.WriteFile(py, []byte("def f(x):\n    if x:\n        return 1\n    return 2\n"), 0o644)
	mo := filepath.Join(dir, "metrics.json")
	if _, stderr, code := runCLI(t, "metrics", "--format", "json", "--out", mo, py); code != ExitOK {
		t.Fatalf("metrics --out: exit %d\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(mo); !json.Valid(b) || !bytes.Contains(b, []byte(`"lineno"`)) {
		t.Errorf("metrics --out wrote %q", b)
	}
	// A failing report (no run directory there) keeps the old file.
	rep := filepath.Join(dir, "report.txt")
	os.WriteFile(rep, []byte("old\n"), 0o644)
	if _, _, code := runCLI(t, "report", "-o", rep, filepath.Join(dir, "nosuch")); code == ExitOK {
		t.Fatal("report of a missing run: exit 0")
	}
	if b, _ := os.ReadFile(rep); string(b) != "old\n" {
		t.Errorf("failed report replaced its --out: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 4 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("temporary files left: %v", names)
	}
}

// TestUnknownFlagDidYouMean: a misspelt flag is a usage error naming the
// closest flags.
func TestUnknownFlagDidYouMean(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--datset", "x.csv"}, "did you mean --dataset?"},
		{[]string{"eval", "--prediction", "gold"}, "did you mean --predictions?"},
		{[]string{"score", "--fromat", "json", "x.py"}, "did you mean --format?"},
		{[]string{"diff", "--bsae", "main"}, "did you mean --base?"},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
	_, stderr, code := runCLI(t, "eval", "--zzzzzzzz")
	if code != ExitUsage || strings.Contains(stderr, "did you mean") || !strings.Contains(stderr, "unknown flag: --zzzzzzzz") {
		t.Errorf("no close flag: exit %d, %q", code, stderr)
	}
}

// TestUnknownCommandDidYouMean: a misspelt command is a usage error
// naming the closest commands, with or without flags after it; a name
// close to none gets no suggestion.
func TestUnknownCommandDidYouMean(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"evl"}, "did you mean eval?"},
		{[]string{"evl", "--dataset", "x.csv"}, "did you mean eval?"},
		{[]string{"scroe", "x.py"}, "did you mean score?"},
		{[]string{"regrad"}, "regrade"},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code != ExitUsage || !strings.Contains(stderr, `unknown command "`+c.args[0]+`"`) || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2, the unknown command and %q", c.args, code, stderr, c.want)
		}
	}
	_, stderr, code := runCLI(t, "zzzzzzzzzz")
	if code != ExitUsage || strings.Contains(stderr, "did you mean") || !strings.Contains(stderr, `unknown command "zzzzzzzzzz"`) {
		t.Errorf("no close command: exit %d, %q", code, stderr)
	}
}

// TestGoldCombinesWithPredictionFiles: --predictions gold and a file in
// one eval are two models, each graded.
func TestGoldCombinesWithPredictionFiles(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	preds := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(preds, []byte(`{"instance_id": "acme__echo-0", "model_name_or_path": "nobody", "model_patch": ""}`+"\n"), 0o644)
	out := t.TempDir()
	stdout, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--predictions", preds, "--out", out, "--format", "json")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, m := range []string{"gold", "nobody"} {
		if _, err := os.Stat(filepath.Join(out, m)); err != nil {
			t.Errorf("no records of model %s: %v", m, err)
		}
	}
	if !strings.Contains(stdout, `"gold"`) || !strings.Contains(stdout, `"nobody"`) {
		t.Errorf("report lacks a model:\n%s", stdout)
	}
	// The run is named after both sources, not one of them.
	man, ok, err := runrecord.ReadManifest(out)
	if err != nil || !ok {
		t.Fatalf("manifest: ok %v, %v", ok, err)
	}
	if man.RunID != "gold+empty" {
		t.Errorf("run id %q, want gold+empty (both prediction sources)", man.RunID)
	}
}

// TestEvalRedo: a re-run skips finished records; --redo evaluates them
// again.
func TestEvalRedo(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	out := t.TempDir()
	args := []string{"eval", "--dataset", ds, "--predictions", "gold", "--out", out}
	if _, stderr, code := runCLI(t, args...); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	_, stderr, code := runCLI(t, args...)
	if code != ExitOK || !strings.Contains(stderr, "0 evaluated, 2 already recorded") {
		t.Fatalf("re-run: exit %d\n%s", code, stderr)
	}
	_, stderr, code = runCLI(t, append(args, "--redo")...)
	if code != ExitOK || !strings.Contains(stderr, "2 evaluated, 0 already recorded") {
		t.Fatalf("--redo: exit %d\n%s", code, stderr)
	}
}

// TestManifestPathsFromAnyDirectory: the manifest records the dataset by
// an absolute path, so regrade from another working directory finds the
// same dataset (it said the dataset differs).
func TestManifestPathsFromAnyDirectory(t *testing.T) {
	ds := evalFixture(t, 1, "0")
	out := t.TempDir()
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	if err := os.Chdir(filepath.Dir(ds)); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "eval", "--dataset", filepath.Base(ds), "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	man, ok, err := runrecord.ReadManifest(out)
	if err != nil || !ok {
		t.Fatalf("manifest: %v %v", ok, err)
	}
	if man.Dataset != ds {
		t.Errorf("manifest dataset %q, want %q", man.Dataset, ds)
	}
	if err := os.Chdir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "regrade", out); code != ExitOK {
		t.Errorf("regrade from another directory: exit %d\n%s", code, stderr)
	}
}

// TestRunStartAheadRefused: run starts nothing ahead; the flag is refused.
func TestRunStartAheadRefused(t *testing.T) {
	_, stderr, code := runCLI(t, "run", "--dataset", "x.jsonl", "--agent", "gold", "--out", t.TempDir(), "--start-ahead", "2")
	if code != ExitUsage || !strings.Contains(stderr, "--start-ahead") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// TestRunAllFailedExitsNonZero: when no agent run completes, run exits 1
// and names the likely cause (a program the sandbox cannot find).
func TestRunAllFailedExitsNonZero(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	out := t.TempDir()
	_, stderr, code := runCLI(t, "run", "--dataset", ds, "--agent", "cmd", "--agent-cmd", "/nonexistent/agent-program {prompt_file}",
		"--out", out, "--no-isolation")
	if code != ExitFindings {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	for _, want := range []string{"no agent run completed", "all 2 runs failed", "--agent-visible"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestHubDatasetNameHint: a Hugging Face dataset name given as --dataset
// gets a hint to download it.
func TestHubDatasetNameHint(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	os.Chdir(dir)
	_, stderr, code := runCLI(t, "eval", "--dataset", "princeton-nlp/SWE-bench_Verified", "--predictions", "gold", "--out", "o")
	if code != ExitError || !strings.Contains(stderr, "Hugging Face dataset name") || !strings.Contains(stderr, "huggingface-cli download princeton-nlp/SWE-bench_Verified") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// TestScoreMissingPathIsAnError: `score nosuch/` is an error (exit 3),
// not a file in the results.
func TestScoreMissingPathIsAnError(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nosuch") + "/"
	stdout, stderr, code := runCLI(t, "score", "--format", "json", missing)
	if code != ExitError || !strings.Contains(stderr, "no such file or directory: "+missing) {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "nosuch") {
		t.Errorf("the missing path is in the results:\n%s", stdout)
	}
	// With an existing file beside it: that file is scored, the missing
	// one is still an error and not a result.
	py := filepath.Join(dir, "m.py")
	os.WriteFile(py, []byte("x = 1\n"), 0o644)
	stdout, stderr, code = runCLI(t, "score", "--format", "json", py, missing)
	if code != ExitError || strings.Contains(stdout, "nosuch") || !strings.Contains(stdout, "m.py") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestOneRunSingular: an eval of one instance says "1 run" wherever it
// counts runs (the isolation line), never "1 runs".
func TestOneRunSingular(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 1, "0")
	stdout, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", t.TempDir())
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	all := stdout + stderr
	if !strings.Contains(all, "(1 run)") {
		t.Errorf("no \"(1 run)\" in the output:\n%s", all)
	}
	if regexp.MustCompile(`\b1 (runs|units|instances|files)\b`).MatchString(all) {
		t.Errorf("a count of 1 with a plural noun:\n%s", all)
	}
}

// TestAuditRegradeOut: audit and regrade write their document to --out
// (-o) instead of RUN/audit.json and RUN/regrade.json, and nothing to
// the run directory's default file; without --out the default stays.
func TestAuditRegradeOut(t *testing.T) {
	ds := evalFixture(t, 1, "0")
	ev := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", ev); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	dst := filepath.Join(t.TempDir(), "rg.json")
	stdout, stderr, code := runCLI(t, "regrade", ev, "-o", dst)
	if code != ExitOK || !strings.Contains(stdout, "(see "+dst+")") {
		t.Fatalf("regrade -o: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var doc struct {
		Units []json.RawMessage `json:"units"`
	}
	if b, err := os.ReadFile(dst); err != nil || json.Unmarshal(b, &doc) != nil || len(doc.Units) != 1 {
		t.Errorf("regrade --out file (%v): %d units", err, len(doc.Units))
	}
	if _, err := os.Stat(filepath.Join(ev, "regrade.json")); !os.IsNotExist(err) {
		t.Errorf("regrade --out also wrote RUN/regrade.json (%v)", err)
	}
	if _, stderr, code := runCLI(t, "regrade", ev, "--out", t.TempDir()); code != ExitUsage || !strings.Contains(stderr, "is a directory") {
		t.Errorf("regrade --out DIR: exit %d %s", code, stderr)
	}

	run := t.TempDir()
	if _, stderr, code := runCLI(t, "run", "--dataset", ds, "--agent", "cmd", "--agent-cmd", "true", "--out", run, "--no-isolation"); code != ExitOK {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	adst := filepath.Join(t.TempDir(), "a.json")
	stdout, stderr, code = runCLI(t, "audit", run, "--dataset", ds, "-o", adst)
	if code != ExitOK || !strings.Contains(stdout, "report: "+adst) {
		t.Fatalf("audit -o: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var rep struct {
		Runs []json.RawMessage `json:"runs"`
	}
	if b, err := os.ReadFile(adst); err != nil || json.Unmarshal(b, &rep) != nil || len(rep.Runs) != 1 {
		t.Errorf("audit --out file (%v): %d runs", err, len(rep.Runs))
	}
	if _, err := os.Stat(filepath.Join(run, "audit.json")); !os.IsNotExist(err) {
		t.Errorf("audit --out also wrote RUN/audit.json (%v)", err)
	}
	if _, _, code := runCLI(t, "audit", run, "--dataset", ds); code != ExitOK {
		t.Errorf("audit: exit %d", code)
	} else if _, err := os.Stat(filepath.Join(run, "audit.json")); err != nil {
		t.Errorf("audit without --out: %v", err)
	}
}

// TestCompareMissingRunNamedFirst: compare of a missing run directory
// with --out names that input first and says no "write" (nothing was
// written); the --out file is not created.
func TestCompareMissingRunNamedFirst(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "c.txt")
	missing := filepath.Join(dir, "nonexist")
	_, stderr, code := runCLI(t, "compare", "-o", dst, missing, dir)
	if code != ExitUsage || !strings.HasPrefix(stderr, "polynfi: "+missing+" (RUN_A): no such file or directory") || strings.Contains(stderr, "write") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(dst); !os.IsNotExist(err) {
		t.Errorf("--out file: %v", err)
	}
}

// TestRunAllFailedHintOnce: every sandboxed run fails because its program
// lives under a hidden path; the all-failed message gives the
// --agent-visible hint once, not once from the record and once more.
func TestRunAllFailedHintOnce(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		requireBwrapInCI(t)
		t.Skip("needs bubblewrap")
	}
	ds := evalFixture(t, 1, "0")
	prog := filepath.Join(t.TempDir(), "agent.sh")
	os.WriteFile(prog, []byte("#!/bin/sh\nexit 0\n"), 0o755)
	_, stderr, code := runCLI(t, "run", "--dataset", ds, "--agent", "cmd", "--agent-cmd", prog+" {prompt_file}", "--out", t.TempDir())
	if code != ExitFindings {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	var line string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "no agent run completed") {
			line = l
		}
	}
	if n := strings.Count(line, "--agent-visible DIR"); n != 1 {
		t.Errorf("the hint appears %d times, want 1:\n%s", n, line)
	}
}
