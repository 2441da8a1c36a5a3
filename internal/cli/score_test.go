package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
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
	// A missing path is an error, not a scored file; the rest is still
	// scored; exit 3.
	out, errOut, code := run(t, "score", "--isolated", "missing.py", "pkg/good.py")
	if code != ExitError || strings.Contains(out, "missing.py") || !strings.Contains(out, "pkg/good.py:") ||
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
	// A missing version is named as score names a missing path; exit 3.
	if _, errOut, code := run(t, "diff", "--isolated", filepath.Join(a, "nope"), b); code != ExitError || !strings.Contains(errOut, "no such file or directory: "+filepath.Join(a, "nope")) {
		t.Errorf("missing before: exit %d, stderr %q", code, errOut)
	}
	// No valid version: the improvement is undefined, exit 1.
	bad := writeTree(t, map[string]string{"m.py": "def (:\n"})
	if _, _, code := run(t, "diff", "--isolated", filepath.Join(a, "m.py"), filepath.Join(bad, "m.py")); code != ExitFindings {
		t.Errorf("invalid after: exit %d, want %d", code, ExitFindings)
	}
}

// TestDiffSARIF: the after version's results carry their baseline state
// against the before version, matched by rule and message whatever the line.
func TestDiffSARIF(t *testing.T) {
	a := writeTree(t, map[string]string{
		"m.py":    "def f(x):\n    return x\n",
		"gone.py": "l = 1\n",
	})
	b := writeTree(t, map[string]string{
		"m.py":   "import os\n\n\ndef f(x):\n    return x\n\n\ndef g(y):\n    return os.sep + y\n",
		"new.py": "l = 1\n",
	})
	out, _, code := run(t, "diff", "--isolated", "--format", "sarif", a, b)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var got struct {
		Runs []struct {
			Results []struct {
				RuleID        string `json:"ruleId"`
				BaselineState string `json:"baselineState"`
				Message       struct{ Text string }
				Locations     []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
			}
			Properties struct {
				Absent        map[string]int     `json:"absent"`
				Added         []string           `json:"added_files"`
				ImprovementPP map[string]float64 `json:"improvement_pp"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Runs) != 1 {
		t.Fatalf("sarif: %v\n%s", err, out)
	}
	r := got.Runs[0]
	state := map[string]string{} // file:rule:message -> state
	for _, res := range r.Results {
		loc := res.Locations[0].PhysicalLocation
		file := filepath.Base(loc.ArtifactLocation.URI)
		state[file+":"+res.RuleID+":"+res.Message.Text] = res.BaselineState
		if file == "m.py" && strings.Contains(res.Message.Text, "function f ") && loc.Region.StartLine != 4 {
			t.Errorf("%s: line %d, want 4 (the after file's line)", res.Message.Text, loc.Region.StartLine)
		}
	}
	for k, want := range map[string]string{
		"m.py:DOC-R01:public module m has no docstring":     "unchanged",
		"m.py:DOC-R04:public function f has no docstring":   "unchanged", // moved from line 1 to 4
		"m.py:DOC-R04:public function g has no docstring":   "new",
		"new.py:DOC-R01:public module new has no docstring": "new",
	} {
		if got := state[k]; got != want {
			t.Errorf("%s: baselineState %q, want %q (all: %v)", k, got, want, state)
		}
	}
	// gone.py's results are not listed but counted as absent.
	if r.Properties.Absent["DOC-R01"] != 1 || strings.Join(r.Properties.Added, ",") != "new.py" {
		t.Errorf("properties %+v", r.Properties)
	}
	// Of two identical findings, the one in the code the change kept stays
	// unchanged (at its new line) and the one in added code is new.
	fn := func(name string) string {
		return "def " + name + "(x):\n    \"\"\"Doc.\"\"\"\n    try:\n        return int(x)\n    except:\n        return 0\n"
	}
	two := writeTree(t, map[string]string{"c.py": "\"\"\"M.\"\"\"\n\n\n" + fn("f"), "d.py": "\"\"\"M.\"\"\"\n\n\n" + fn("g") + "\n\n" + fn("f")})
	out, _, _ = run(t, "diff", "--isolated", "--format", "sarif", filepath.Join(two, "c.py"), filepath.Join(two, "d.py"))
	got.Runs = nil
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Runs) != 1 {
		t.Fatalf("sarif: %v\n%s", err, out)
	}
	bare := map[int]string{}
	for _, res := range got.Runs[0].Results {
		if res.RuleID == "ERR-P01" {
			bare[res.Locations[0].PhysicalLocation.Region.StartLine] = res.BaselineState
		}
	}
	if len(bare) != 2 || bare[8] != "new" || bare[16] != "unchanged" {
		t.Errorf("bare excepts by line: %v, want 8 new (g, added) and 16 unchanged (f, kept)", bare)
	}
	// The text output counts the findings the change added even when no
	// rule flipped (ERR-P01 failed before and after).
	out, _, _ = run(t, "diff", "--isolated", filepath.Join(two, "c.py"), filepath.Join(two, "d.py"))
	if !strings.Contains(out, "no rule flipped") || !regexp.MustCompile(`findings: [1-9][0-9]* new, [0-9]+ updated, [1-9][0-9]* unchanged, 0 fixed`).MatchString(out) {
		t.Errorf("text, no flip:\n%s", out)
	}
	// The text listing names the rules an added or removed file fails.
	out, _, _ = run(t, "diff", "--isolated", a, b)
	if !strings.Contains(out, "added:   new.py (fails DOC-R01") || !strings.Contains(out, "removed: gone.py (fails DOC-R01") {
		t.Errorf("text:\n%s", out)
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
	for _, want := range []string{`invalid (syntax_error at 1:7: invalid syntax)`, "mean S_p: none (no valid file)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}
