package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestScoreCommand(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"pkg/good.py":          "\"\"\"Good.\"\"\"\n\nX = 1\n",
		"pkg/bad.py":           "def f(:\n    pass\n",
		"pkg/__pycache__/c.py": "x = 1\n",
		"notes.txt":            "not python\n",
	})
	t.Chdir(dir)
	out, _, code := run(t, "score", "--isolated", "--format", "json", ".")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Files []struct {
			Path   string
			Valid  bool
			Status string
			Scores map[string]float64
			Rules  []struct{ ID string }
		}
		Summary struct{ Files, Valid, Invalid int }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if got.Summary.Files != 2 || got.Summary.Valid != 1 || got.Summary.Invalid != 1 {
		t.Fatalf("summary %+v (files %+v)", got.Summary, got.Files)
	}
	for _, f := range got.Files {
		if strings.Contains(f.Path, "__pycache__") {
			t.Errorf("%s: __pycache__ must be skipped", f.Path)
		}
		if f.Valid && (len(f.Scores) != 5 || len(f.Rules) != 92) {
			t.Errorf("%s: %d aspect scores, %d rules", f.Path, len(f.Scores), len(f.Rules))
		}
		if !f.Valid && f.Status != "syntax_error" {
			t.Errorf("%s: status %q", f.Path, f.Status)
		}
	}
	// A missing path is reported for that path; the rest is still scored; exit 3.
	out, errOut, code := run(t, "score", "--isolated", "missing.py", "pkg/good.py")
	if code != ExitError || !strings.Contains(out, "missing.py: invalid (read_error") || !strings.Contains(out, "pkg/good.py:") ||
		!strings.Contains(errOut, "no such file or directory: missing.py") {
		t.Fatalf("missing path: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, _, code := run(t, "score", "-j", "-3", "."); code != ExitUsage {
		t.Errorf("-j -3: exit %d, want %d", code, ExitUsage)
	}
	// SARIF names files relative to the working directory.
	out, _, code = run(t, "score", "--isolated", "--format", "sarif", "pkg")
	if code != ExitOK || !strings.Contains(out, `"uri": "pkg/bad.py"`) || !strings.Contains(out, `"version": "2.1.0"`) {
		t.Fatalf("sarif: exit %d\n%s", code, out)
	}
}

func TestDiffCommand(t *testing.T) {
	a := writeTree(t, map[string]string{"m.py": "x = 1\n", "gone.py": "y = 2\n"})
	b := writeTree(t, map[string]string{"m.py": "\"\"\"M.\"\"\"\n\nX = 1\n", "new.py": "\"\"\"N.\"\"\"\n"})
	out, _, code := run(t, "diff", "--isolated", "--format", "json", a, b)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var got struct {
		ImprovementPP map[string]float64 `json:"improvement_pp"`
		Added         []string           `json:"added_files"`
		Removed       []string           `json:"removed_files"`
		Flipped       []struct{ ID, Path string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Added, ",") != "new.py" || strings.Join(got.Removed, ",") != "gone.py" {
		t.Errorf("added %v removed %v", got.Added, got.Removed)
	}
	if got.ImprovementPP["DOC"] <= 0 {
		t.Errorf("a module docstring added: DOC I_p %v, want > 0", got.ImprovementPP["DOC"])
	}
	// Two files are matched whatever their names, under the after file's name.
	out, _, code = run(t, "diff", "--isolated", "--format", "json", filepath.Join(a, "m.py"), filepath.Join(b, "m.py"))
	if code != ExitOK || !strings.Contains(out, `"path": "m.py"`) {
		t.Fatalf("two files: exit %d\n%s", code, out)
	}
	// No valid version: the improvement is undefined, exit 1.
	bad := writeTree(t, map[string]string{"m.py": "def (:\n"})
	if _, _, code := run(t, "diff", "--isolated", filepath.Join(a, "m.py"), filepath.Join(bad, "m.py")); code != ExitFindings {
		t.Errorf("invalid after: exit %d, want %d", code, ExitFindings)
	}
}

// TestScoreOnlyInvalid: a run whose files are all invalid reports them,
// says that there is no mean, and exits 0 (invalid files are results).
func TestScoreOnlyInvalid(t *testing.T) {
	dir := writeTree(t, map[string]string{"bad.py": "def f(:\n    pass\n"})
	stdout, _, code := runCLI(t, "score", dir)
	if code != ExitOK {
		t.Errorf("exit %d, want %d", code, ExitOK)
	}
	for _, want := range []string{`invalid (syntax_error at 1:7: syntax error: missing ")")`, "mean S_p: none (no valid file)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}
