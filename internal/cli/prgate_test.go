package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The PR gate cannot be gamed: each test below builds a real git
// repository, makes a branch that hides a regression one way or another,
// and checks that `polynfi diff --base main --fail-on regression` (or
// new-findings) exits 1 and names the file and why. Each of them exited
// 0 before the gate judged files one by one (nfi/driver/gatefiles.go).

// documentedN is a module of n documented functions (DOC 1.0 on the
// rules that concern it); undocumentedAt is the same with function k's
// docstring removed.
func documentedN(n int) string {
	var b strings.Builder
	b.WriteString("\"\"\"Conversions.\"\"\"\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\n\ndef convert_%d(value_text):\n    \"\"\"Convert value_text, variant %d.\n\n    Args:\n        value_text: the digits.\n    \"\"\"\n", i, i)
		fmt.Fprintf(&b, "    stripped_value = value_text.strip()\n    parsed_number = int(stripped_value) + %d\n    doubled_number = parsed_number * 2\n    return str(doubled_number)\n", i)
	}
	return b.String()
}

func undocumentedAt(n, k int) string {
	doc := fmt.Sprintf("    \"\"\"Convert value_text, variant %d.\n\n    Args:\n        value_text: the digits.\n    \"\"\"\n", k)
	return strings.Replace(documentedN(n), doc, "", 1)
}

// filler is a small, fully documented module: what a gamer adds to raise
// the mean.
func filler(i int) string {
	return fmt.Sprintf("\"\"\"Constant %d.\"\"\"\n\nVALUE = %d\n", i, i)
}

// gateRun runs diff --base main with args in dir and returns its JSON,
// exit code and stderr.
func gateRun(t *testing.T, args ...string) (diffJSON, int, string) {
	t.Helper()
	out, errOut, code := run(t, append([]string{"diff", "--base", "main", "--format", "json", "--isolated"}, args...)...)
	return decodeDiff(t, out), code, errOut
}

// wantGate checks exit 1 and a tripped gate that contains every part.
func wantGate(t *testing.T, what string, d diffJSON, code int, parts ...string) {
	t.Helper()
	if code != ExitFindings {
		t.Fatalf("%s: exit %d, want %d; gates %q, I_p %v", what, code, ExitFindings, d.Gates, d.ImprovementPP)
	}
	for _, g := range d.Gates {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(g, p)
		}
		if ok {
			return
		}
	}
	t.Fatalf("%s: no tripped gate names %q: %q", what, parts, d.Gates)
}

// TestGateDilutionByAddedFiles: stripping one file's docstrings and adding
// six documented one-line modules raises the mean DOC, but the file's
// own DOC fell: regression trips and names it; the text, Markdown, SARIF
// and GitHub outputs name it too.
func TestGateDilutionByAddedFiles(t *testing.T) {
	dir := commitTree(t, map[string]string{"pkg/num.py": documented, "pkg/other.py": otherModule})
	t.Chdir(dir)
	files := map[string]string{"pkg/num.py": undocumented}
	for i := 1; i <= 6; i++ {
		files[fmt.Sprintf("pkg/c%d.py", i)] = filler(i)
	}
	branch(t, dir, "game", files)
	d, code, _ := gateRun(t, "--fail-on", "regression")
	if d.ImprovementPP["DOC"] <= 0 {
		t.Fatalf("the fixture no longer raises the mean: DOC %+v pp", d.ImprovementPP["DOC"])
	}
	wantGate(t, "dilution", d, code, "regression: pkg/num.py DOC", "newly fails DOC-R01")
	if len(d.FileRegressions) == 0 || d.FileRegressions[0].Path != "pkg/num.py" || d.FileRegressions[0].Kind != "changed" {
		t.Fatalf("file_regressions %+v", d.FileRegressions)
	}
	// regression:ERR does not look at DOC.
	if _, code, _ := gateRun(t, "--fail-on", "regression:ERR"); code != ExitOK {
		t.Fatalf("regression:ERR: exit %d, want 0", code)
	}
	for _, f := range []struct{ format, want string }{
		{"text", "gate failed: regression: pkg/num.py DOC S_p"},
		{"markdown", "pkg/num.py DOC S_p"}, // an underscore inside a word starts no emphasis: not escaped
		{"github", "::error file=pkg/num.py,line=1,title=polynfi regression DOC::pkg/num.py DOC S_p"},
		{"sarif", `"newly_failing_rules"`},
	} {
		out, _, code := run(t, "diff", "--base", "main", "--isolated", "--fail-on", "regression", "--format", f.format)
		if code != ExitFindings || !strings.Contains(out, f.want) {
			t.Errorf("%s: exit %d, want 1 and %q in\n%s", f.format, code, f.want, out)
		}
	}
	// score --diff-base applies the same gate.
	if out, _, code := run(t, "score", "--diff-base", "main", "--isolated", "--fail-on", "regression", "--quiet"); code != ExitFindings ||
		!strings.Contains(out, "regression: pkg/num.py DOC") {
		t.Fatalf("score --diff-base: exit %d\n%s", code, out)
	}
}

// TestGateDeletedFileIsNoImprovement: deleting a poor module raises the
// mean so much that a regression of another file disappears in it.
func TestGateDeletedFileIsNoImprovement(t *testing.T) {
	poor := "class thing:\n  def A(self,x):\n    try:\n      import os\n      print(x)\n    except:\n      pass\n"
	dir := commitTree(t, map[string]string{"pkg/num.py": documentedN(8), "pkg/old.py": poor})
	t.Chdir(dir)
	branch(t, dir, "game", map[string]string{"pkg/num.py": undocumentedAt(8, 1), "pkg/old.py": ""})
	d, code, _ := gateRun(t, "--fail-on", "regression")
	if d.ImprovementPP["DOC"] <= 0 {
		t.Fatalf("the fixture no longer raises the mean: DOC %+v pp", d.ImprovementPP["DOC"])
	}
	wantGate(t, "deleted", d, code, "regression: pkg/num.py DOC", "DOC-R04")
}

// TestGateRenamedFile: a renamed file (git's rename detection) is compared
// with its origin, under a .py name, a name without .py, or in an
// excluded directory.
func TestGateRenamedFile(t *testing.T) {
	for _, c := range []struct{ name, to string }{
		{"py", "pkg/convert.py"},
		{"no-extension", "pkg/convert"},
		{"txt", "pkg/convert.txt"},
		{"excluded-dir", "build/convert.py"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := commitTree(t, map[string]string{"pkg/num.py": documentedN(4), "pkg/other.py": otherModule})
			t.Chdir(dir)
			files := map[string]string{"pkg/num.py": "", c.to: undocumentedAt(4, 2)}
			for i := 1; i <= 6; i++ {
				files[fmt.Sprintf("pkg/c%d.py", i)] = filler(i)
			}
			branch(t, dir, "game", files)
			d, code, _ := gateRun(t, "--fail-on", "regression")
			wantGate(t, c.name, d, code, "regression: "+c.to+" (renamed from pkg/num.py) DOC", "DOC-R04")
			if d.Renamed[c.to] != "pkg/num.py" {
				t.Fatalf("renamed_files %v", d.Renamed)
			}
		})
	}
}

// TestGateSplitFile: a function moved out of a module into a new one
// loses its docstring on the way; the new module (also in an excluded
// directory) is compared with the module it was split from.
func TestGateSplitFile(t *testing.T) {
	for _, c := range []struct{ name, to string }{
		{"new-module", "pkg/split.py"},
		{"excluded-dir", "build/split.py"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := commitTree(t, map[string]string{"pkg/num.py": documentedN(4)})
			t.Chdir(dir)
			whole := undocumentedAt(4, 3)
			at := strings.Index(whole, "\n\ndef convert_3")
			files := map[string]string{
				"pkg/num.py": whole[:at+1],
				c.to:         "\"\"\"Conversions, split.\"\"\"\n" + whole[at:],
			}
			for i := 1; i <= 6; i++ {
				files[fmt.Sprintf("pkg/c%d.py", i)] = filler(i)
			}
			branch(t, dir, "game", files)
			d, code, _ := gateRun(t, "--fail-on", "regression")
			wantGate(t, c.name, d, code, "regression: "+c.to+" (split from pkg/num.py) DOC", "DOC-R04")
			if d.SplitFrom[c.to] != "pkg/num.py" {
				t.Fatalf("split_from %v", d.SplitFrom)
			}
		})
	}
}

// TestGateUnrelatedExcludedFileNotScored: an excluded file the change adds
// that comes from nowhere is named, not scored, and trips nothing.
func TestGateUnrelatedExcludedFileNotScored(t *testing.T) {
	dir := commitTree(t, map[string]string{"pkg/num.py": documentedN(2)})
	t.Chdir(dir)
	gen := "TABLE_ALPHA = [1, 2, 3]\nTABLE_BETA = [4, 5, 6]\nTABLE_GAMMA = [7, 8, 9]\n\n\ndef lookup(index):\n    try:\n        return TABLE_ALPHA[index]\n    except:\n        return TABLE_BETA[index] + TABLE_GAMMA[index]\n"
	branch(t, dir, "vendor", map[string]string{"build/gen.py": gen, "pkg/num.py": documentedN(3)})
	d, code, _ := gateRun(t, "--fail-on", "regression")
	if code != ExitOK || len(d.Unscored) != 1 || d.Unscored[0] != "build/gen.py" || len(d.After) != 1 {
		t.Fatalf("exit %d, excluded_files %v, after %v, gates %q", code, d.Unscored, d.After, d.Gates)
	}
}

// TestGateNewSuppressions: a `# noqa` (or a file-level `# polynfi: noqa`)
// that the change adds does not hide a finding from the gates; one the
// base already had is honoured; --allow-new-suppressions honours all.
func TestGateNewSuppressions(t *testing.T) {
	noqa := strings.Replace(bareExcept, "    except:\n", "    except:  # noqa\n", 1)
	t.Run("line", func(t *testing.T) {
		dir := commitTree(t, map[string]string{"pkg/num.py": undocumented})
		t.Chdir(dir)
		branch(t, dir, "game", map[string]string{"pkg/num.py": noqa})
		d, code, _ := gateRun(t, "--fail-on", "regression")
		wantGate(t, "noqa regression", d, code, "regression: pkg/num.py ERR")
		d, code, _ = gateRun(t, "--fail-on", "new-findings")
		wantGate(t, "noqa new-findings", d, code, "silenced by suppressions this change adds", "pkg/num.py:4")
		if len(d.NewSuppressions) != 1 || d.NewSuppressions[0].Line != 4 || d.Findings["newly_suppressed"] != 1 {
			t.Fatalf("new_suppressions %+v, findings %v", d.NewSuppressions, d.Findings)
		}
		if d, code, _ := gateRun(t, "--fail-on", "regression,new-findings", "--allow-new-suppressions"); code != ExitOK {
			t.Fatalf("--allow-new-suppressions: exit %d, gates %q", code, d.Gates)
		}
	})
	t.Run("file-level", func(t *testing.T) {
		dir := commitTree(t, map[string]string{"pkg/num.py": undocumented})
		t.Chdir(dir)
		branch(t, dir, "game", map[string]string{"pkg/num.py": "# polynfi: noqa\n" + bareExcept})
		d, code, _ := gateRun(t, "--fail-on", "regression")
		wantGate(t, "file noqa", d, code, "regression: pkg/num.py ERR")
	})
	t.Run("base-already-had-it", func(t *testing.T) {
		dir := commitTree(t, map[string]string{"pkg/num.py": noqa})
		t.Chdir(dir)
		branch(t, dir, "edit", map[string]string{"pkg/num.py": noqa + "\n\nLIMIT = 3\n"})
		if d, code, _ := gateRun(t, "--fail-on", "regression,new-findings"); code != ExitOK || len(d.NewSuppressions) != 0 {
			t.Fatalf("exit %d, gates %q, new_suppressions %+v", code, d.Gates, d.NewSuppressions)
		}
	})
}

// TestGateBrokenFileStillTrips: a file that stops parsing cannot be
// diluted either (the comparison is undefined; unchanged behaviour).
func TestGateBrokenFileStillTrips(t *testing.T) {
	dir := commitTree(t, map[string]string{"pkg/num.py": documented, "pkg/other.py": otherModule})
	t.Chdir(dir)
	files := map[string]string{"pkg/other.py": "def other(x:\n    return x\n"}
	for i := 1; i <= 6; i++ {
		files[fmt.Sprintf("pkg/c%d.py", i)] = filler(i)
	}
	branch(t, dir, "game", files)
	d, code, _ := gateRun(t, "--fail-on", "regression")
	wantGate(t, "broken", d, code, "regression: the comparison is undefined")
}

// TestGateSettingsEditedByTheChange: a change that edits the settings
// (ignores DOC, adds a per-file-ignore, excludes its file, or drops the
// [gate] table) is scored with the settings of the before version.
func TestGateSettingsEditedByTheChange(t *testing.T) {
	for _, c := range []struct{ name, file, settings string }{
		{"ignore", "polynfi.toml", "ignore = [\"DOC\"]\n"},
		{"per-file-ignores", "polynfi.toml", "[per-file-ignores]\n\"pkg/*\" = [\"DOC\"]\n"},
		{"exclude", "polynfi.toml", "extend-exclude = [\"pkg\"]\n"},
		{"new-pyproject", "pyproject.toml", "[tool.polynfi]\nignore = [\"DOC-R01\", \"DOC-R04\", \"DOC-T01\"]\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := commitTree(t, map[string]string{"pkg/num.py": documented, "polynfi.toml": "[gate]\nfail-on = [\"regression\"]\n"})
			t.Chdir(dir)
			settings := c.settings
			if c.file == "polynfi.toml" {
				settings += "\n[gate]\nfail-on = []\n"
			}
			files := map[string]string{"pkg/num.py": undocumented, c.file: settings}
			if c.file != "polynfi.toml" {
				files["polynfi.toml"] = ""
			}
			branch(t, dir, "game", files)
			out, errOut, code := run(t, "diff", "--base", "main", "--format", "json")
			if out == "" {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			d := decodeDiff(t, out)
			if code != ExitFindings || !strings.Contains(strings.Join(d.Gates, "\n"), "regression: pkg/num.py DOC") {
				t.Fatalf("exit %d, gates %q, I_p %v\n%s", code, d.Gates, d.ImprovementPP, errOut)
			}
			if !strings.Contains(out, `"settings_from_base": "polynfi.toml"`) {
				t.Fatalf("settings_from_base missing:\n%s", out)
			}
			// score --diff-base from the work tree: the same.
			if out, _, code := run(t, "score", "--diff-base", "main", "--quiet"); code != ExitFindings ||
				!strings.Contains(out, "settings: this change edits them") {
				t.Fatalf("score --diff-base: exit %d\n%s", code, out)
			}
		})
	}
	// Settings the change does not touch apply as they are.
	dir := commitTree(t, map[string]string{"pkg/num.py": documented, "polynfi.toml": "ignore = [\"DOC\"]\n"})
	t.Chdir(dir)
	branch(t, dir, "plain", map[string]string{"pkg/num.py": undocumented})
	out, _, code := run(t, "diff", "--base", "main", "--format", "json", "--fail-on", "regression")
	if d := decodeDiff(t, out); code != ExitOK || strings.Contains(out, "settings_from_base") {
		t.Fatalf("untouched settings: exit %d, gates %q", code, d.Gates)
	}
}

// TestGateAddedFileDiluted: an added module that would lower the mean on
// its own (a bare except, no docstrings) still trips regression when six
// documented modules added with it raise the mean.
func TestGateAddedFileDiluted(t *testing.T) {
	bad := "def load(path_name):\n    try:\n        return open(path_name).read()\n    except:\n        return ''\n"
	dir := commitTree(t, map[string]string{"pkg/num.py": documented, "pkg/old.py": bareExcept})
	t.Chdir(dir)
	files := map[string]string{"pkg/num.py": documented + "\n\nLIMIT = 3\n", "pkg/old.py": bareExcept + "\n\nLIMIT = 3\n", "pkg/bad.py": bad}
	for i := 1; i <= 6; i++ {
		files[fmt.Sprintf("pkg/c%d.py", i)] = filler(i)
	}
	branch(t, dir, "game", files)
	d, code, _ := gateRun(t, "--fail-on", "regression")
	if d.ImprovementPP["ERR"] <= 0 {
		t.Fatalf("the fixture no longer hides the added file in the mean: ERR %+v pp", d.ImprovementPP["ERR"])
	}
	wantGate(t, "added", d, code, "regression: pkg/bad.py (added) ERR", "ERR-P01")
	// Alone, the same file trips the mean gate as before.
	branch(t, dir, "alone", map[string]string{"pkg/bad.py": bad, "pkg/num.py": documented + "\n\nLIMIT = 3\n"})
	d, code, _ = gateRun(t, "--fail-on", "regression")
	wantGate(t, "alone", d, code, "regression: ERR I_p")
}

// symlinkBranch makes branch name from main in which each path of links is
// replaced by a symbolic link (git mode 120000) with the given text, and
// files are written, all committed; it checks the branch out.
func symlinkBranch(t *testing.T, dir, name string, links, files map[string]string) {
	t.Helper()
	git(t, dir, "checkout", "-q", "-B", name, "main")
	for p, c := range files {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for p, target := range links {
		full := filepath.Join(dir, p)
		os.Remove(full)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.Symlink(target, full); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", name)
}

// TestGateSymlinkedModule: a module replaced by a symbolic link is scored
// as the file the link reaches inside the repository at that revision
// (commit, index or work tree), never as the link's text; a link that
// leaves the repository or dangles makes the file unreadable, which trips
// the invalid gate. Before, the link text "impl.txt" (valid Python: an
// attribute) was scored and the bare except the link leads to passed
// --fail-on regression,invalid,new-findings.
func TestGateSymlinkedModule(t *testing.T) {
	gates := []string{"--fail-on", "regression,invalid,new-findings"}
	t.Run("inside", func(t *testing.T) {
		dir := commitTree(t, map[string]string{"pkg/num.py": undocumented, "pkg/other.py": otherModule})
		t.Chdir(dir)
		// The link's text "impl.txt" parses as Python; its target is a
		// .txt file (not scored by itself) and a link again, whose chain
		// goes through a symbolic link to a directory.
		symlinkBranch(t, dir, "link", map[string]string{"pkg/num.py": "impl.txt", "pkg/impl.txt": "../lib/impl.txt", "lib": "src"},
			map[string]string{"src/impl.txt": bareExcept})
		d, code, errOut := gateRun(t, gates...)
		wantGate(t, "symlink to bad code", d, code, "regression: pkg/num.py ERR")
		if !d.Valid || d.Findings["new"] == 0 {
			t.Fatalf("valid %v, findings %v (want the bare except as a new finding)\n%s", d.Valid, d.Findings, errOut)
		}
		// score --diff-base from the work tree and from the index (the
		// pre-commit hook) see the same file.
		git(t, dir, "checkout", "-q", "main")
		os.Remove("pkg/num.py")
		os.MkdirAll("src", 0o755)
		os.WriteFile("src/impl.txt", []byte(bareExcept), 0o644)
		os.Symlink("../src/impl.txt", "pkg/num.py")
		out, errOut, code := run(t, append([]string{"score", "--isolated", "--diff-base", "main", "--format", "json"}, gates...)...)
		if code != ExitFindings || !strings.Contains(out, "regression: pkg/num.py ERR") {
			t.Errorf("work tree: exit %d, want 1 with an ERR regression of pkg/num.py\n%s\n%s", code, out, errOut)
		}
		git(t, dir, "add", "-A")
		out, errOut, code = run(t, append([]string{"score", "--isolated", "--diff-base", "main", "--staged", "--format", "json"}, gates...)...)
		if code != ExitFindings || !strings.Contains(out, "regression: pkg/num.py ERR") {
			t.Errorf("staged: exit %d, want 1 with an ERR regression of pkg/num.py\n%s\n%s", code, out, errOut)
		}
	})
	// A link the change leaves as it is, whose target it edits: the
	// module changed all the same (commit, work tree, index).
	t.Run("target-changed", func(t *testing.T) {
		dir := commitTree(t, map[string]string{"pkg/other.py": otherModule, "src/impl.txt": documented})
		os.Symlink("../src/impl.txt", filepath.Join(dir, "pkg/num.py"))
		git(t, dir, "add", "-A")
		git(t, dir, "commit", "-q", "-m", "link")
		t.Chdir(dir)
		branch(t, dir, "edit", map[string]string{"src/impl.txt": bareExcept})
		d, code, _ := gateRun(t, gates...)
		wantGate(t, "target edited", d, code, "regression: pkg/num.py ERR")
		git(t, dir, "checkout", "-q", "main")
		os.WriteFile("src/impl.txt", []byte(bareExcept), 0o644)
		out, errOut, code := run(t, append([]string{"score", "--isolated", "--diff-base", "main", "--format", "json"}, gates...)...)
		if code != ExitFindings || !strings.Contains(out, "regression: pkg/num.py ERR") {
			t.Errorf("work tree: exit %d, want 1 with an ERR regression of pkg/num.py\n%s\n%s", code, out, errOut)
		}
		git(t, dir, "add", "-A")
		out, errOut, code = run(t, append([]string{"score", "--isolated", "--diff-base", "main", "--staged", "--format", "json"}, gates...)...)
		if code != ExitFindings || !strings.Contains(out, "regression: pkg/num.py ERR") {
			t.Errorf("staged: exit %d, want 1 with an ERR regression of pkg/num.py\n%s\n%s", code, out, errOut)
		}
	})
	for _, c := range []struct{ name, target, why string }{
		{"outside", "../../outside.py", "outside the repository"},
		{"absolute", "/etc/hostname", "outside the repository"},
		{"dangling", "missing.txt", "dangles"},
		{"loop", "num.py", "a loop"},
		{"directory", "..", "a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := commitTree(t, map[string]string{"pkg/num.py": undocumented})
			t.Chdir(dir)
			symlinkBranch(t, dir, "link", map[string]string{"pkg/num.py": c.target}, nil)
			d, code, _ := gateRun(t, gates...)
			wantGate(t, c.name, d, code, "invalid: pkg/num.py (read_error)")
			if len(d.Invalid) != 1 || d.Invalid[0].Status != "read_error" {
				t.Fatalf("invalid files %+v, want pkg/num.py read_error", d.Invalid)
			}
			out, _, _ := run(t, "diff", "--base", "main", "--isolated")
			if !strings.Contains(out, c.why) {
				t.Errorf("text output does not say %q:\n%s", c.why, out)
			}
		})
	}
	// The work tree: a link to a file outside the repository is not read
	// (before, the host file was scored as the module).
	t.Run("worktree-outside", func(t *testing.T) {
		dir := commitTree(t, map[string]string{"pkg/num.py": undocumented})
		t.Chdir(dir)
		outside := filepath.Join(t.TempDir(), "elsewhere.py")
		os.WriteFile(outside, []byte(documented), 0o644)
		os.Remove("pkg/num.py")
		os.Symlink(outside, "pkg/num.py")
		// score exits 3 for a file it cannot read, whatever the gates say.
		out, errOut, code := run(t, append([]string{"score", "--isolated", "--diff-base", "main", "--format", "json"}, gates...)...)
		if code != ExitError || !strings.Contains(out, "invalid: pkg/num.py (read_error)") || !strings.Contains(out, "symbolic link pkg/num.py leads outside the repository") {
			t.Errorf("exit %d, want 3 with pkg/num.py unreadable (outside the repository)\n%s\n%s", code, out, errOut)
		}
	})
}

// TestGateSubmoduleAtPyPath: a submodule (gitlink, mode 160000) at a .py
// path is another repository, not a module: diff --base skips it with a
// note and scores the rest (before, it exited 3 reading the commit as a
// blob); a file replaced by one counts as removed.
func TestGateSubmoduleAtPyPath(t *testing.T) {
	dir := commitTree(t, map[string]string{"pkg/num.py": undocumented, "pkg/old.py": otherModule})
	t.Chdir(dir)
	head := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	git(t, dir, "checkout", "-q", "-b", "sub")
	git(t, dir, "rm", "-q", "--cached", "pkg/old.py")
	os.Remove(filepath.Join(dir, "pkg/old.py"))
	git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+head+",pkg/vendored.py")
	git(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+head+",pkg/old.py")
	os.WriteFile(filepath.Join(dir, "pkg/num.py"), []byte(documented), 0o644)
	git(t, dir, "add", "pkg/num.py")
	git(t, dir, "commit", "-q", "-m", "submodules")
	out, errOut, code := run(t, "diff", "--base", "main", "--format", "json", "--isolated", "--fail-on", "regression,invalid")
	if code != ExitOK {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errOut)
	}
	var d struct {
		Skipped []struct{ Path, Version, Reason string } `json:"skipped_files"`
		Removed []string                                 `json:"removed_files"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(d.Skipped)
	if len(d.Skipped) != 2 || !strings.Contains(got, "pkg/vendored.py after") || !strings.Contains(got, "pkg/old.py after") ||
		!strings.Contains(got, "submodule") {
		t.Errorf("skipped_files %s, want pkg/old.py and pkg/vendored.py (after, a submodule)", got)
	}
	if fmt.Sprint(d.Removed) != "[pkg/old.py]" {
		t.Errorf("removed_files %v, want [pkg/old.py]", d.Removed)
	}
	text, _, _ := run(t, "diff", "--base", "main", "--isolated")
	if !strings.Contains(text, "skipped after: pkg/vendored.py: a submodule") {
		t.Errorf("text output does not name the skipped submodule:\n%s", text)
	}
	// Work tree (the submodules' directories there, not checked out) and
	// index: the same, never an error.
	os.Mkdir(filepath.Join(dir, "pkg/vendored.py"), 0o755)
	os.Mkdir(filepath.Join(dir, "pkg/old.py"), 0o755)
	for _, args := range [][]string{{"score", "--diff-base", "main"}, {"score", "--diff-base", "main", "--staged"}} {
		if _, errOut, code := run(t, append(args, "--isolated", "--quiet")...); code == ExitError || !strings.Contains(errOut, "skipped pkg/vendored.py") {
			t.Errorf("%v: exit %d\n%s", args, code, errOut)
		}
	}
}
