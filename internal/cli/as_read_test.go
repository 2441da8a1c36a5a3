package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi/driver"
)

// Reports and the gate as a user reads them (issue #25, item 6). Each test
// failed on the code before it.

// TestDiffOneSpPerFile: a change that adds `# noqa` to a bare except is
// judged with the silenced findings counted (the gate's S_p); the S_p
// table, the JSON after_files and the gate give that one value. The table
// said ERR 1.000 while the gate said 1.000 -> 0.833.
func TestDiffOneSpPerFile(t *testing.T) {
	dir := commitTree(t, map[string]string{"pkg/num.py": undocumented})
	t.Chdir(dir)
	noqa := strings.Replace(bareExcept, "except:", "except:  # noqa", 1)
	branch(t, dir, "hide", map[string]string{"pkg/num.py": noqa})
	out, stderr, code := run(t, "diff", "--base", "main", "--isolated", "--fail-on", "regression")
	if code != ExitFindings {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	row := regexp.MustCompile(`(?m)^ERR\s+(\S+)\s+(\S+)\s+(\S+)$`).FindStringSubmatch(out)
	gate := regexp.MustCompile(`pkg/num.py ERR S_p (\S+) -> (\S+) `).FindStringSubmatch(out)
	if row == nil || gate == nil {
		t.Fatalf("no ERR row or file gate:\n%s", out)
	}
	if row[2] != gate[2] {
		t.Errorf("two S_p for one file: table ERR after %s, gate %s\n%s", row[2], gate[2], out)
	}
	if !strings.Contains(out, "count as failures in S_p AFTER") {
		t.Errorf("the text does not say the new suppressions count:\n%s", out)
	}
	js, _, _ := run(t, "diff", "--base", "main", "--isolated", "--format", "json")
	var d struct {
		After []struct {
			Path   string
			Scores map[string]float64
		} `json:"after_files"`
		FileRegressions []struct {
			Aspect string  `json:"aspect"`
			After  float64 `json:"s_p_after"`
		} `json:"file_regressions"`
		IP map[string]float64 `json:"improvement_pp"`
	}
	if err := json.Unmarshal([]byte(js), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.After) != 1 || len(d.FileRegressions) == 0 {
		t.Fatalf("json: %s", js)
	}
	for _, r := range d.FileRegressions {
		if r.Aspect == "ERR" && r.After != d.After[0].Scores["ERR"] {
			t.Errorf("json: after_files ERR %v, file_regressions ERR %v", d.After[0].Scores["ERR"], r.After)
		}
	}
	if d.IP["ERR"] >= 0 {
		t.Errorf("I_p ERR %v: the newly silenced findings do not count", d.IP["ERR"])
	}
	// --allow-new-suppressions honours them everywhere: one value again.
	out, _, _ = run(t, "diff", "--base", "main", "--isolated", "--allow-new-suppressions")
	if row := regexp.MustCompile(`(?m)^ERR\s+(\S+)\s+(\S+)`).FindStringSubmatch(out); row == nil || row[1] != row[2] {
		t.Errorf("--allow-new-suppressions: %v\n%s", row, out)
	}
}

// TestGitHubAnnotationsOnceAndCapped: each annotation once (a file's
// regression is not repeated by its gate's error), at most 10 warnings
// and 10 errors (GitHub's per-step limit), and a notice counting the rest.
func TestGitHubAnnotationsOnceAndCapped(t *testing.T) {
	dir := commitTree(t, map[string]string{"pkg/num.py": documented})
	t.Chdir(dir)
	var b strings.Builder
	b.WriteString(undocumented)
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "\n\ndef extra_%d(a, b):\n    return a + b\n", i)
	}
	branch(t, dir, "many", map[string]string{"pkg/num.py": b.String()})
	out, _, code := run(t, "diff", "--base", "main", "--isolated", "--format", "github", "--fail-on", "regression")
	if code != ExitFindings {
		t.Fatalf("exit %d\n%s", code, out)
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if seen[l] {
			t.Errorf("annotation twice: %s", l)
		}
		seen[l] = true
	}
	if n := strings.Count(out, "::warning "); n != driver.GitHubMaxPerLevel {
		t.Errorf("%d warnings, want %d (capped)", n, driver.GitHubMaxPerLevel)
	}
	if n := strings.Count(out, "::error "); n > driver.GitHubMaxPerLevel || n == 0 {
		t.Errorf("%d errors", n)
	}
	if !regexp.MustCompile(`::notice title=polynfi%3A more annotations::\d+ warnings? .*more not annotated`).MatchString(out) {
		t.Errorf("no notice for the annotations left out:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "::error title=polynfi gate::regression: pkg/num.py") {
			t.Errorf("the file's regression is annotated twice (on the file and as a gate): %s", l)
		}
	}
}

// TestPreCommitNamesFileLine: the hook's command names path:line for a
// file that does not parse and for each newly failing rule.
func TestPreCommitNamesFileLine(t *testing.T) {
	dir := commitTree(t, map[string]string{"pkg/num.py": undocumented})
	t.Chdir(dir)
	os.WriteFile(filepath.Join(dir, "pkg/num.py"), []byte(bareExcept), 0o644)
	os.WriteFile(filepath.Join(dir, "pkg/bad.py"), []byte("def h(:\n"), 0o644)
	git(t, dir, "add", "-A")
	_, stderr, code := run(t, "score", "--diff-base", "HEAD", "--staged", "--fail-on", "regression,invalid", "--quiet", "--isolated")
	if code != ExitFindings {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"pkg/bad.py:1:7: invalid syntax", "newly fails ERR-P01 (pkg/num.py:4)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestGateReadsRuffSettings: where [tool.polynfi] says nothing, the
// project's [tool.ruff] line-length and per-file-ignores apply; where it
// does, it wins.
func TestGateReadsRuffSettings(t *testing.T) {
	long := "\"\"\"Long lines.\"\"\"\n\nVALUE = \"" + strings.Repeat("x", 100) + "\"\n" // 112 characters
	undocTest := "def test_a():\n    assert 1\n"
	ruff := "[tool.ruff]\nline-length = 120\n\n[tool.ruff.lint.per-file-ignores]\n\"tests/*\" = [\"D1\"]\n"
	dir := writeTree(t, map[string]string{"pyproject.toml": ruff, "m.py": long, "tests/test_x.py": undocTest})
	t.Chdir(dir)
	verdict := func(file, rule string) bool {
		t.Helper()
		out, stderr, _ := run(t, "score", "--format", "json", file)
		var got struct {
			Files []struct {
				Rules []struct {
					ID     string
					Passed bool
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Files) != 1 {
			t.Fatalf("%v\n%s\n%s", err, out, stderr)
		}
		for _, r := range got.Files[0].Rules {
			if r.ID == rule {
				return r.Passed
			}
		}
		t.Fatalf("no %s", rule)
		return false
	}
	if !verdict("m.py", "STY-T01") {
		t.Error("a 112-character line fails STY-T01 under [tool.ruff] line-length = 120")
	}
	if !verdict("tests/test_x.py", "DOC-R04") {
		t.Error("[tool.ruff.lint.per-file-ignores] tests/* = [D1] does not silence DOC-R04 (D103)")
	}
	// [tool.polynfi] thresholds win over [tool.ruff].
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte(ruff+"\n[tool.polynfi.thresholds]\nSTY-T01 = 100\n"), 0o644)
	if verdict("m.py", "STY-T01") {
		t.Error("[tool.polynfi] thresholds STY-T01 = 100 did not win over [tool.ruff] line-length")
	}
}

// TestLineSuppressionRuffDoesNotWarnAbout: `# polynfi: ignore[IDS]`
// silences those rules on its line, and the real Ruff reads it without a
// warning (it warns "Invalid `# noqa` directive" on `# noqa: ERR-P01`).
// A Ruff code in `# noqa` silences its exact rule.
func TestLineSuppressionRuffDoesNotWarnAbout(t *testing.T) {
	ruff, err := exec.LookPath("ruff")
	if err != nil {
		t.Fatalf("ruff is required (make deps): %v", err)
	}
	dir := t.TempDir()
	src := "def parse(text):\n    try:\n        return int(text)\n    except:  # polynfi: ignore[ERR-P01, ERR-P03]\n        return 0\n"
	p := filepath.Join(dir, "m.py")
	os.WriteFile(p, []byte(src), 0o644)
	out, stderr, code := run(t, "score", "--select", "ERR-P01,ERR-P03", "--format", "json", p)
	if code != ExitOK || strings.Count(out, `"passed":false`) != 0 || !strings.Contains(out, `"suppressed":"noqa"`) {
		t.Errorf("polynfi: ignore[...] not honoured: exit %d\n%s\n%s", code, out, stderr)
	}
	cmd := exec.Command(ruff, "check", "--isolated", "--no-cache", "--select", "E722,RUF100", p)
	b, _ := cmd.CombinedOutput()
	if strings.Contains(string(b), "Invalid `# noqa`") || strings.Contains(string(b), "RUF100") {
		t.Errorf("ruff warns about the polynfi form:\n%s", b)
	}
	// The noqa form with a polynfi ID is what Ruff warns about (the
	// reason for the form above).
	os.WriteFile(p, []byte(strings.Replace(src, "# polynfi: ignore[ERR-P01, ERR-P03]", "# noqa: ERR-P01", 1)), 0o644)
	if b, _ := exec.Command(ruff, "check", "--isolated", "--no-cache", "--select", "E722", p).CombinedOutput(); !strings.Contains(string(b), "Invalid `# noqa`") {
		t.Logf("ruff no longer warns on `# noqa: ERR-P01`:\n%s", b)
	}
	// A Ruff code in # noqa silences the rule that is exactly that check.
	os.WriteFile(p, []byte(strings.Replace(src, "# polynfi: ignore[ERR-P01, ERR-P03]", "# noqa: E722", 1)), 0o644)
	out, _, _ = run(t, "score", "--select", "ERR-P01", "--format", "json", p)
	if strings.Count(out, `"passed":false`) != 0 {
		t.Errorf("# noqa: E722 does not silence ERR-P01:\n%s", out)
	}
}

// TestHarnessReportAgentCost: the repository-level report has a cost,
// tokens and time table per model, from the figures the predictions
// carried; a unit that reported nothing is counted apart, never as 0.
func TestHarnessReportAgentCost(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 3, "0")
	preds := filepath.Join(t.TempDir(), "p.jsonl")
	patch := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"
	var b strings.Builder
	for i, extra := range []string{`"duration_s": 10, "tokens_in": 1000, "tokens_out": 500, "cost_usd": 0.5`,
		`"duration_s": 30, "tokens_in": 3000, "tokens_out": 0, "cost_usd": 1.5`, ``} {
		row := map[string]any{"instance_id": fmt.Sprintf("acme__echo-%d", i), "model_name_or_path": "m1", "model_patch": patch}
		line, _ := json.Marshal(row)
		if extra != "" {
			line = []byte(strings.TrimSuffix(string(line), "}") + ", " + extra + "}")
		}
		b.Write(append(line, '\n'))
	}
	os.WriteFile(preds, []byte(b.String()), 0o644)
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", out); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	text, stderr, code := runCLI(t, "report", out)
	if code != ExitOK {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	// model units resolved mean-s median-s total-s mean-tok median-tok total-tok mean-usd total-usd usd/resolved not-reported
	want := regexp.MustCompile(`(?m)^m1\s+3\s+3\s+20\.0\s+20\.0\s+40\.0\s+2250\s+2250\s+4500\s+1\.0000\s+2\.0000\s+0\.6667\s+1\s*$`)
	if !strings.Contains(text, "Agent cost per model") || !want.MatchString(text) {
		t.Errorf("cost table:\n%s", text)
	}
	js, _, _ := runCLI(t, "report", "--format", "json", out)
	if !strings.Contains(js, `"agent_cost"`) || !strings.Contains(js, `"total_cost_usd"`) {
		t.Errorf("json lacks agent_cost")
	}
}
