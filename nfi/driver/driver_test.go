package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
)

// compare scores a change of one file (a function losing its docstring
// and gaining a bare except) through the driver, without the command line.
func compare(t *testing.T, dir string) (*nfi.Engine, *Comparison) {
	t.Helper()
	before := filepath.Join(dir, "before.py")
	after := filepath.Join(dir, "after.py")
	if err := os.WriteFile(before, []byte("def f(x):\n    \"\"\"Return x.\"\"\"\n    return x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(after, []byte("def f(x):\n    try:\n        return x\n    except:\n        pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := EngineOptions{Catalog: catalog.Default, Isolated: true, Suppressible: true}
	eng, err := opts.Engine(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := PathComparison(eng, before, after)
	if err != nil {
		t.Fatal(err)
	}
	c.Finish(false)
	c.CountNewSuppressions()
	return eng, c
}

// One comparison written by several formatters in turn gives each format
// what a run of that format alone gives: no formatter changes it.
func TestFormattersShareOneComparison(t *testing.T) {
	dir := t.TempDir()
	eng, c := compare(t, dir)
	var firsts []string
	for _, format := range DiffFormats {
		f, err := NewFormatter(format, eng, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := f.Write(&buf, c); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if buf.Len() == 0 {
			t.Errorf("%s: empty output", format)
		}
		firsts = append(firsts, buf.String())
	}
	if !strings.Contains(firsts[2], `"baselineState": "new"`) {
		t.Errorf("sarif has no new finding:\n%s", firsts[2])
	}
	if !strings.Contains(firsts[3], "::warning ") {
		t.Errorf("github has no annotation:\n%s", firsts[3])
	}
	for i, format := range DiffFormats {
		_, alone := compare(t, dir) // the same files, scored again
		var buf bytes.Buffer
		if err := WriteDiff(&buf, format, false, eng, alone, 0); err != nil {
			t.Fatal(err)
		}
		if got, want := firsts[i], buf.String(); got != want {
			t.Errorf("%s after %d other formats differs from a run of it alone:\n%s\n---\n%s", format, i, got, want)
		}
	}
}

// Errors in the command line itself report IsUsage true (exit code 2 in
// the command layer); an error in the input does not.
func TestUsageErrors(t *testing.T) {
	isUsage := func(err error) bool {
		var u interface{ IsUsage() bool }
		return errors.As(err, &u) && u.IsUsage()
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "a.py")
	if err := os.WriteFile(file, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errVersion := ParsePythonVersion("3.7")
	_, errGate := (&GateOptions{FailOn: []string{"bogus"}}).Gates(nfi.Settings{}, true)
	_, errUnder := (&GateOptions{FailUnder: []string{"DOC=2"}}).Gates(nfi.Settings{}, false)
	_, errPerFile := (&EngineOptions{Catalog: catalog.Default, Isolated: true, PerFileIgnores: []string{"nocolon"}}).Engine(dir)
	_, errCatalog := (&EngineOptions{Catalog: "nosuch", Isolated: true}).Engine(dir)
	_, errFormat := NewFormatter("xml", nil, 0, false)
	opts := EngineOptions{Catalog: catalog.Default, Isolated: true}
	eng, err := opts.Engine(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, errPair := PathComparison(eng, file, dir)
	for name, err := range map[string]error{"python version": errVersion, "fail-on": errGate, "fail-under": errUnder,
		"per-file-ignores": errPerFile, "catalog": errCatalog, "format": errFormat, "file and directory": errPair} {
		if err == nil || !isUsage(err) {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
	}
	bad := filepath.Join(dir, "polynfi.toml")
	if err := os.WriteFile(bad, []byte("select = [\"NOSUCH\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := (&EngineOptions{Catalog: catalog.Default, Config: bad}).Engine(dir); err == nil || isUsage(err) {
		t.Errorf("bad rule in a settings file: %v, want an error that is not a usage error", err)
	}
}

// TestDiffNoScoredFile: a change with no scored file (two versions with
// only a README) says so in one line, in text and markdown, and prints
// no table of headers alone.
func TestDiffNoScoredFile(t *testing.T) {
	dir := t.TempDir()
	before, after := filepath.Join(dir, "before"), filepath.Join(dir, "after")
	for _, d := range []string{before, after} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "README"), []byte(d+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := EngineOptions{Catalog: catalog.Default, Isolated: true, Suppressible: true}
	eng, err := opts.Engine(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := PathComparison(eng, before, after)
	if err != nil {
		t.Fatal(err)
	}
	c.Finish(false)
	for _, format := range []string{"text", "markdown"} {
		var buf bytes.Buffer
		if err := WriteDiff(&buf, format, false, eng, c, 0); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if strings.Count(out, "no scored file changed") != 1 {
			t.Errorf("%s: want one line saying no scored file changed:\n%s", format, out)
		}
		if strings.Contains(out, "ASPECT") || strings.Contains(out, "| Aspect |") {
			t.Errorf("%s: a table of headers alone:\n%s", format, out)
		}
	}
}

// TestGitComparisonConcurrent: GitComparison scores the changed files on
// all cores (one parser per worker) and AnalyzeMetrics measures files the
// same way; each gives every file its own result, in order, and the same
// result on a second run. make test runs it under the race detector.
func TestGitComparisonConcurrent(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=F", "GIT_AUTHOR_EMAIL=f@example.com", "GIT_COMMITTER_NAME=F",
			"GIT_COMMITTER_EMAIL=f@example.com", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	const n = 12
	var files []string
	write := func(body func(i int) string) {
		files = files[:0]
		for i := 0; i < n; i++ {
			p := filepath.Join(dir, fmt.Sprintf("m%02d.py", i))
			if err := os.WriteFile(p, []byte(body(i)), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
		}
	}
	git("init", "--quiet", "--initial-branch=main")
	write(func(i int) string { return fmt.Sprintf("def f%d(x):\n    \"\"\"Return x.\"\"\"\n    return x\n", i) })
	git("add", "--all")
	git("commit", "--quiet", "-m", "base")
	base := git("rev-parse", "HEAD")
	// Every other file loses its docstring and gains a bare except.
	write(func(i int) string {
		if i%2 == 0 {
			return fmt.Sprintf("def f%d(x):\n    try:\n        return x\n    except:\n        pass\n", i)
		}
		return fmt.Sprintf("def f%d(x):\n    \"\"\"Return x, again.\"\"\"\n    return x\n", i)
	})
	git("commit", "--quiet", "-am", "change")
	t.Chdir(dir)
	opts := EngineOptions{Catalog: catalog.Default, Isolated: true, Suppressible: true}
	eng, err := opts.Engine(dir)
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for run := 0; run < 2; run++ {
		c, err := GitComparison(context.Background(), eng, &opts, base, "HEAD", false)
		if err != nil {
			t.Fatal(err)
		}
		c.Finish(false)
		if len(c.Out.Before) != n || len(c.Out.After) != n {
			t.Fatalf("scored %d before, %d after, want %d each", len(c.Out.Before), len(c.Out.After), n)
		}
		var b strings.Builder
		for i, f := range c.Out.After {
			if want := fmt.Sprintf("m%02d.py", i); f.Path != want {
				t.Errorf("after[%d] is %s, want %s", i, f.Path, want)
			}
			fmt.Fprintf(&b, "%s %v %v %d;", f.Path, f.Valid, f.Scores, f.Bytes)
		}
		if run == 0 {
			first = b.String()
		} else if b.String() != first {
			t.Errorf("a second comparison differs:\n%s\n%s", first, b.String())
		}
	}
	ms := AnalyzeMetrics(context.Background(), files, 12)
	if len(ms) != n {
		t.Fatalf("%d metrics results, want %d", len(ms), n)
	}
	for i, m := range ms {
		if m.Path != files[i] {
			t.Errorf("metrics[%d] is %s, want %s", i, m.Path, files[i])
		}
	}
}
