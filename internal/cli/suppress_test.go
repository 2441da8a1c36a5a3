package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scoreJSON is the part of score's JSON the tests read.
type scoreJSON struct {
	Run struct {
		Suppressions string `json:"suppressions"`
		Version      string `json:"polynfi_version"`
	} `json:"run"`
	Files []struct {
		Path   string
		Valid  bool
		Scores map[string]float64
		Rules  []struct {
			ID          string
			Passed      bool
			Diagnostics []struct {
				Rule       string
				Line       int
				Suppressed string
			}
		}
		Suppressed         int
		UnusedSuppressions []struct {
			Line int
			Code string
			File bool `json:"file_level"`
		} `json:"unused_suppressions"`
	}
	Summary struct {
		Files, Valid, Invalid, Suppressed int
		Suppressions                      string
		MeanScores                        map[string]float64 `json:"mean_scores"`
	}
}

func scoreOf(t *testing.T, args ...string) (scoreJSON, int, string) {
	t.Helper()
	out, errOut, code := run(t, append([]string{"score", "--format", "json"}, args...)...)
	var s scoreJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("json: %v\n%s\n%s", err, out, errOut)
	}
	return s, code, errOut
}

// rule returns the verdict and diagnostics' suppression kinds of rule id in file path.
func (s scoreJSON) rule(path, id string) (passed bool, kinds []string) {
	for _, f := range s.Files {
		if filepath.Base(f.Path) != path {
			continue
		}
		for _, r := range f.Rules {
			if r.ID == id {
				for _, d := range r.Diagnostics {
					kinds = append(kinds, d.Suppressed)
				}
				return r.Passed, kinds
			}
		}
	}
	return false, nil
}

const excepts = `"""Module."""


def a(x):
    """A."""
    try:
        return int(x)
    except:  # noqa: E722
        return 0


def b(x):
    """B."""
    try:
        return int(x)
    except:  # noqa: ERR-P01, LOG-P01
        return 0
`

// TestSuppressions: # noqa with a polynfi ID or the exactly equivalent Ruff
// code silences a finding, which no longer fails its rule but stays in the
// JSON marked; --ignore-noqa scores as SWE-NFI; an unused polynfi code is
// reported; the file-level form and per-file-ignores silence whole rules.
func TestSuppressions(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"m.py":           excepts,
		"partial.py":     strings.Replace(excepts, "  # noqa: E722", "", 1),
		"whole.py":       "# polynfi: noqa: ERR-P01\n" + strings.ReplaceAll(strings.ReplaceAll(excepts, "  # noqa: E722", ""), "  # noqa: ERR-P01, LOG-P01", ""),
		"bare.py":        strings.ReplaceAll(strings.ReplaceAll(excepts, "# noqa: E722", "# noqa"), "# noqa: ERR-P01, LOG-P01", "# type: ignore  # NOQA"),
		"tests/t_x.py":   strings.ReplaceAll(strings.ReplaceAll(excepts, "  # noqa: E722", ""), "  # noqa: ERR-P01, LOG-P01", ""),
		"string_noqa.py": "\"\"\"M.\"\"\"\n\nS = '# noqa'\n\n\ndef f(x):\n    \"\"\"F.\"\"\"\n    try:\n        return int(x)\n    except:\n        return '# noqa'\n",
	})
	t.Chdir(dir)
	honoured, code, _ := scoreOf(t, "--isolated", "--per-file-ignores", "tests/*:ERR", ".")
	if code != ExitOK || honoured.Run.Suppressions != "honoured" || honoured.Summary.Suppressions != "honoured" {
		t.Fatalf("exit %d, run %+v summary %+v", code, honoured.Run, honoured.Summary)
	}
	for _, c := range []struct {
		file  string
		pass  bool
		kinds string
	}{
		{"m.py", true, "noqa,noqa"},               // E722 (Ruff, exact) and ERR-P01
		{"partial.py", false, ",noqa"},            // one of two silenced: still fails
		{"whole.py", true, "file-noqa,file-noqa"}, // file-level
		{"bare.py", true, "noqa,noqa"},            // bare # noqa, also after another comment
		{"t_x.py", true, "per-file-ignores,per-file-ignores"},
		{"string_noqa.py", false, ""}, // "# noqa" in a string is not a comment
	} {
		passed, kinds := honoured.rule(c.file, "ERR-P01")
		if passed != c.pass || strings.Join(kinds, ",") != c.kinds {
			t.Errorf("%s: ERR-P01 passed %v, suppressions %q; want %v, %q", c.file, passed, strings.Join(kinds, ","), c.pass, c.kinds)
		}
	}
	// The unused LOG-P01 code on m.py's line 16 is reported.
	var unused []string
	for _, f := range honoured.Files {
		for _, u := range f.UnusedSuppressions {
			unused = append(unused, filepath.Base(f.Path)+":"+u.Code)
		}
	}
	if strings.Join(unused, ",") != "m.py:LOG-P01,partial.py:LOG-P01" {
		t.Errorf("unused suppressions %v, want [m.py:LOG-P01 partial.py:LOG-P01]", unused)
	}
	text, _, _ := run(t, "score", "--isolated", "m.py")
	if !strings.Contains(text, "unused suppression: m.py:16: # noqa: LOG-P01") || strings.Contains(text, "ERR-P01") ||
		!strings.Contains(text, "suppressions honoured: 2 findings silenced") {
		t.Errorf("text:\n%s", text)
	}

	// --ignore-noqa: every finding counts (SWE-NFI), and the JSON says so.
	ignored, _, _ := scoreOf(t, "--isolated", "--ignore-noqa", "--per-file-ignores", "tests/*:ERR", ".")
	if ignored.Run.Suppressions != "ignored" {
		t.Errorf("--ignore-noqa: run says %q", ignored.Run.Suppressions)
	}
	for _, f := range []string{"m.py", "whole.py", "bare.py", "t_x.py"} {
		if passed, kinds := ignored.rule(f, "ERR-P01"); passed || strings.Join(kinds, "") != "" {
			t.Errorf("--ignore-noqa, %s: ERR-P01 passed %v, suppressions %v", f, passed, kinds)
		}
	}
	if h, i := honoured.Summary.MeanScores["ERR"], ignored.Summary.MeanScores["ERR"]; h <= i {
		t.Errorf("mean ERR honoured %v, ignored %v: want honoured > ignored", h, i)
	}

	// SARIF keeps the suppressed results, marked.
	out, _, _ := run(t, "score", "--isolated", "--format", "sarif", "m.py")
	if strings.Count(out, `"kind": "inSource"`) != 2 {
		t.Errorf("sarif: want 2 inSource suppressions\n%s", out)
	}
}

// TestFileSelection: default excludes (virtualenv, build, site-packages),
// .gitignore, and exclude / extend-exclude / per-file-ignores / gates from
// polynfi.toml and [tool.polynfi].
func TestFileSelection(t *testing.T) {
	dir := commitTree(t, map[string]string{
		"src/app.py":                    "def run(x):\n    return x\n",
		"venv/lib/site-packages/dep.py": "x = 1\n",
		"build/lib/app.py":              "x = 1\n",
		"node_modules/x/y.py":           "x = 1\n",
		".gitignore":                    "generated/\n*_pb2.py\n",
		"src/thing_pb2.py":              "x = 1\n",
		"generated/g.py":                "x = 1\n",
		"src/legacy/old.py":             "x = 1\n",
		"src/tests/test_app.py":         "def test_x():\n    assert True\n",
	})
	t.Chdir(dir)
	files := func(args ...string) string {
		t.Helper()
		s, _, errOut := scoreOf(t, args...)
		var got []string
		for _, f := range s.Files {
			got = append(got, filepath.ToSlash(f.Path))
		}
		_ = errOut
		return strings.Join(got, ",")
	}
	if got := files("--isolated", "."); got != "src/app.py,src/legacy/old.py,src/tests/test_app.py" {
		t.Errorf("default selection: %s", got)
	}
	// --exclude replaces the default list; --exclude= leaves none (the
	// selection before default excludes existed, .gitignore still applies).
	if got := files("--isolated", "--exclude=", "."); got != "build/lib/app.py,node_modules/x/y.py,src/app.py,src/legacy/old.py,src/tests/test_app.py,venv/lib/site-packages/dep.py" {
		t.Errorf("--exclude=: %s", got)
	}
	if got := files("--isolated", "--exclude", "src,venv", "."); got != "build/lib/app.py,node_modules/x/y.py" {
		t.Errorf("--exclude src,venv: %s", got)
	}
	// A file named on the command line is scored even when excluded.
	if got := files("--isolated", "build/lib/app.py"); got != "build/lib/app.py" {
		t.Errorf("explicit file: %s", got)
	}
	os.WriteFile("polynfi.toml", []byte(`extend-exclude = ["src/legacy"]
[per-file-ignores]
"src/tests/*" = ["DOC"]
[gate]
fail-on = ["invalid"]
fail-under = { DOC = 0.99 }
`), 0o644)
	s, code, errOut := scoreOf(t, ".")
	var got []string
	for _, f := range s.Files {
		got = append(got, f.Path)
	}
	if strings.Join(got, ",") != "src/app.py,src/tests/test_app.py" {
		t.Errorf("polynfi.toml extend-exclude: %v", got)
	}
	if passed, kinds := s.rule("test_app.py", "DOC-R04"); !passed || strings.Join(kinds, ",") != "per-file-ignores" {
		t.Errorf("per-file-ignores from polynfi.toml: DOC-R04 passed %v, %v", passed, kinds)
	}
	if code != ExitFindings || !strings.Contains(errOut, "fail-under: DOC") {
		t.Errorf("[gate] fail-under from polynfi.toml: exit %d, %q", code, errOut)
	}
	// pyproject.toml's [tool.polynfi] with exclude replacing the defaults.
	os.Remove("polynfi.toml")
	os.WriteFile("pyproject.toml", []byte("[tool.polynfi]\nexclude = [\"src\"]\n"), 0o644)
	if got := files("."); got != "build/lib/app.py,node_modules/x/y.py,venv/lib/site-packages/dep.py" {
		t.Errorf("[tool.polynfi] exclude = [src]: %s", got)
	}
	// respect-gitignore = false brings the ignored files back.
	os.WriteFile("pyproject.toml", []byte("[tool.polynfi]\nrespect-gitignore = false\n"), 0o644)
	if got := files("."); !strings.Contains(got, "generated/g.py") || !strings.Contains(got, "src/thing_pb2.py") {
		t.Errorf("respect-gitignore = false: %s", got)
	}
	// A bad gate in the settings is named.
	os.WriteFile("pyproject.toml", []byte("[tool.polynfi.gate]\nfail-under = { XYZ = 0.5 }\n"), 0o644)
	if _, errOut, code := run(t, "score", "."); code != ExitError || !strings.Contains(errOut, "XYZ") {
		t.Errorf("bad gate: exit %d, %q", code, errOut)
	}
}
