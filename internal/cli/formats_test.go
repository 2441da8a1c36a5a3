package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi/driver"
)

// TestFormats: every CI format of score and diff parses as its consumer
// reads it and carries the findings and the version.
func TestFormats(t *testing.T) {
	dir := commitTree(t, map[string]string{"pkg/num.py": bareExcept, "pkg/ok.py": "\"\"\"OK.\"\"\"\n"})
	t.Chdir(dir)
	branch(t, dir, "feat", map[string]string{"pkg/num.py": bareExcept + "\n\ndef more(y):\n    try:\n        return y()\n    except:\n        return None\n"})

	// GitHub: one ::warning per new finding with file and line, a notice.
	out, _, _ := run(t, "diff", "--base", "main", "--isolated", "--format", "github")
	warn := regexp.MustCompile(`(?m)^::warning file=pkg/num\.py,line=(\d+),col=\d+(,endLine=\d+)?,title=polynfi ([A-Z]+-[A-Z]\d+)::.+$`)
	if m := warn.FindAllStringSubmatch(out, -1); len(m) == 0 || !strings.Contains(out, "::notice title=polynfi ") {
		t.Errorf("github:\n%s", out)
	}
	if strings.Contains(out, "line=4,") { // the kept bare except is not new
		t.Errorf("github annotates an unchanged finding:\n%s", out)
	}

	// GitLab Code Quality: a JSON array with the required fields, unique fingerprints.
	out, _, _ = run(t, "diff", "--base", "main", "--isolated", "--format", "gitlab")
	var issues []driver.GitLabIssue
	if err := json.Unmarshal([]byte(out), &issues); err != nil || len(issues) == 0 {
		t.Fatalf("gitlab: %v\n%s", err, out)
	}
	seen := map[string]bool{}
	for _, is := range issues {
		if is.Description == "" || is.CheckName == "" || is.Severity == "" || is.Location.Path != "pkg/num.py" || is.Location.Lines.Begin < 1 || seen[is.Fingerprint] {
			t.Errorf("gitlab issue %+v", is)
		}
		seen[is.Fingerprint] = true
	}

	// JUnit: parses; ERR-P01 fails (a new finding), version property.
	out, _, _ = run(t, "diff", "--base", "main", "--isolated", "--format", "junit")
	var doc driver.JUnitSuites
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("junit: %v\n%s", err, out)
	}
	failed := map[string]bool{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Failure != nil {
				failed[s.Name+" "+strings.Fields(c.Name)[0]] = true
			}
		}
	}
	if !failed["pkg/num.py ERR-P01"] || doc.Failures == 0 || len(doc.Props) == 0 || doc.Props[0].Name != "polynfi_version" {
		t.Errorf("junit: failures %v, props %v\n%s", failed, doc.Props, out)
	}

	// Markdown: the aspect table, I_p and the new findings.
	out, _, _ = run(t, "diff", "--base", "main", "--isolated", "--format", "markdown")
	for _, want := range []string{"| Aspect | S_p before | S_p after | I_p (pp) |", "| ERR (Error Handling) |", "New findings (", "ERR-P01 bare-except", "polynfi "} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}

	// --statistics: counts per rule.
	out, _, _ = run(t, "diff", "--base", "main", "--isolated", "--statistics")
	if !regexp.MustCompile(`(?m)^1\s+2\s+ERR-P01\s+bare-except$`).MatchString(out) {
		t.Errorf("diff --statistics:\n%s", out)
	}
	out, _, _ = run(t, "score", "--isolated", "--statistics", "pkg")
	if !regexp.MustCompile(`(?m)^2\s+ERR-P01\s+bare-except$`).MatchString(out) {
		t.Errorf("score --statistics:\n%s", out)
	}
	for _, f := range scoreFormats {
		out, errOut, code := run(t, "score", "--isolated", "--format", f, "pkg")
		if code != ExitOK || out == "" {
			t.Errorf("score --format %s: exit %d\n%s\n%s", f, code, out, errOut)
		}
	}

	// --output FILE: the file holds what stdout would; stdout is empty.
	want, _, _ := run(t, "score", "--isolated", "--format", "json", "pkg")
	out, _, code := run(t, "score", "--isolated", "--format", "json", "--output", "report.json", "pkg")
	got, err := os.ReadFile("report.json")
	stable := regexp.MustCompile(`"(seconds|mb_per_second)":\s*[0-9.e+-]+`)
	if code != ExitOK || out != "" || err != nil || stable.ReplaceAllString(string(got), "") != stable.ReplaceAllString(want, "") {
		t.Errorf("--output: exit %d, stdout %q, err %v", code, out, err)
	}
	// An unwritable --output is an error (3), and nothing half-written stays.
	if _, _, code := run(t, "score", "--isolated", "--output", "no/such/dir/r.txt", "pkg"); code != ExitError {
		t.Errorf("--output into a missing directory: exit %d, want 3", code)
	}

	// stdin with --stdin-filename: scored under that name.
	var o, e bytes.Buffer
	root := newRoot(&env{ctx: context.Background(), stdout: &o, stderr: &e})
	root.SetIn(strings.NewReader(bareExcept))
	root.SetArgs([]string{"score", "--isolated", "-", "--stdin-filename", "pkg/from_stdin.py"})
	root.SetOut(&o)
	if err := root.Execute(); err != nil || !strings.Contains(o.String(), "pkg/from_stdin.py:4:5: ERR-P01") {
		t.Errorf("stdin: %v\n%s%s", err, o.String(), e.String())
	}
	if _, _, code := run(t, "score", "-"); code != ExitUsage {
		t.Errorf("score - without --stdin-filename: exit %d, want 2", code)
	}

	// --version, and the version in the reports.
	out, _, code = run(t, "--version")
	if code != ExitOK || !strings.HasPrefix(out, "polynfi ") || strings.TrimSpace(out) != "polynfi "+polynfiVersion() {
		t.Errorf("--version: exit %d %q", code, out)
	}
	out, _, _ = run(t, "score", "--isolated", "--format", "sarif", "pkg")
	if !strings.Contains(out, `"version": "`+polynfiVersion()+`"`) {
		t.Errorf("sarif lacks the tool version")
	}
}

// TestExitCodesByType: exit codes come from error types, not message text.
func TestExitCodesByType(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.py": "x = 1\n"})
	t.Chdir(dir)
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"nosuchcommand"}, ExitUsage},
		{[]string{"score", "--no-such-flag", "."}, ExitUsage},
		{[]string{"score", "--workers", "x", "."}, ExitUsage}, // cobra: invalid argument "x"
		{[]string{"diff", "a.py"}, ExitUsage},                 // wrong number of arguments
		{[]string{"score", "--fail-on", "nonsense", "."}, ExitUsage},
		{[]string{"score", "--fail-under", "DOC=2", "."}, ExitUsage},
		// An I/O error whose text says "invalid argument" (a NUL in the
		// path) is an error, not a usage error.
		{[]string{"score", "--isolated", "--output", "bad\x00name", "."}, ExitError},
		{[]string{"diff", "--base", "main", "--isolated"}, ExitError}, // not a git repository
	} {
		_, errOut, code := run(t, c.args...)
		if code != c.want {
			t.Errorf("%q: exit %d, want %d (%s)", c.args, code, c.want, errOut)
		}
	}
}

// TestMineDroppedWriteError: a --dropped file that cannot be written
// (here /dev/full: every write fails with ENOSPC) fails the run instead of
// leaving a truncated file behind an exit 0.
func TestMineDroppedWriteError(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	dir := commitTree(t, map[string]string{"m.py": "x = 1\n"})
	for i := 1; i <= 40; i++ {
		os.WriteFile(filepath.Join(dir, "m.py"), []byte(strings.Repeat("# c\n", i)+"x = 1\n"), 0o644)
		git(t, dir, "commit", "-q", "-am", fmt.Sprintf("Revert \"comment %d\" (#%d)", i, i))
	}
	out := filepath.Join(t.TempDir(), "c.jsonl")
	_, errOut, code := run(t, "mine", "--repo", "o/r="+dir, "--out", out, "--dropped", "/dev/full")
	if code != ExitError || !strings.Contains(errOut, "/dev/full") {
		t.Errorf("exit %d (want 3), stderr %q", code, errOut)
	}
	// The same run with a writable file succeeds and writes the drops.
	dropped := filepath.Join(t.TempDir(), "d.jsonl")
	if _, errOut, code := run(t, "mine", "--repo", "o/r="+dir, "--out", out, "--dropped", dropped); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(dropped); len(b) == 0 {
		t.Errorf("no dropped changes written")
	}
}

// TestActionEntry runs action/entry.sh as a GitHub runner would on a pull
// request: event file with pull_request.base.sha, GITHUB_BASE_REF,
// GITHUB_STEP_SUMMARY and GITHUB_OUTPUT, polynfi built from this tree.
func TestActionEntry(t *testing.T) {
	for _, tool := range []string{"bash", "python3", "git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is required: %v", tool, err)
		}
	}
	repoRoot, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := buildStamped(t)
	dir := commitTree(t, map[string]string{"pkg/num.py": undocumented, "pkg/other.py": otherModule})
	baseSHA := strings.TrimSpace(git(t, dir, "rev-parse", "main"))
	// The Action runs polynfi once for both the annotations and the
	// summary (one formatter each over one scored comparison): a wrapper
	// counts the runs.
	calls := filepath.Join(t.TempDir(), "calls")
	wrapper := filepath.Join(t.TempDir(), "polynfi")
	os.WriteFile(wrapper, []byte("#!/bin/sh\necho \"$*\" >> '"+calls+"'\nexec '"+bin+"' \"$@\"\n"), 0o755)

	runEntry := func(t *testing.T, extraEnv ...string) (stdout string, summary, outputs string, code int) {
		t.Helper()
		tmp := t.TempDir()
		event := filepath.Join(tmp, "event.json")
		os.WriteFile(event, []byte(`{"action":"synchronize","number":7,"pull_request":{"number":7,"base":{"ref":"main","sha":"`+baseSHA+`"},"head":{"ref":"feat"}}}`), 0o644)
		sum, outf := filepath.Join(tmp, "summary.md"), filepath.Join(tmp, "output")
		os.WriteFile(sum, []byte("earlier step\n"), 0o644)
		cmd := exec.Command("bash", filepath.Join(repoRoot, "action", "entry.sh"))
		cmd.Dir = dir
		os.Remove(calls)
		cmd.Env = append(os.Environ(), "POLYNFI="+wrapper, "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request",
			"GITHUB_EVENT_PATH="+event, "GITHUB_BASE_REF=main", "GITHUB_HEAD_REF=feat", "GITHUB_WORKSPACE="+dir,
			"GITHUB_STEP_SUMMARY="+sum, "GITHUB_OUTPUT="+outf, "POLYNFI_FAIL_ON=regression,invalid")
		cmd.Env = append(cmd.Env, extraEnv...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		code = 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		s, _ := os.ReadFile(sum)
		out, _ := os.ReadFile(outf)
		if runs, _ := os.ReadFile(calls); strings.Count(string(runs), "\n") != 1 || !strings.Contains(string(runs), "diff ") {
			t.Errorf("polynfi ran %d times, want one diff run:\n%s", strings.Count(string(runs), "\n"), runs)
		}
		return o.String(), string(s), string(out), code
	}

	t.Run("docstrings pass", func(t *testing.T) {
		branch(t, dir, "feat", map[string]string{"pkg/num.py": documented})
		stdout, summary, outputs, code := runEntry(t)
		if code != 0 || !strings.Contains(outputs, "exit-code=0\n") || !strings.Contains(outputs, "result=pass\n") {
			t.Errorf("exit %d, outputs %q\n%s", code, outputs, stdout)
		}
		if !strings.HasPrefix(summary, "earlier step\n## polynfi") || !strings.Contains(summary, "✅") ||
			!regexp.MustCompile(`\| DOC \(Documentation\) \| 0\.\d+ \| 0\.\d+ \| \+\d+\.\d \|`).MatchString(summary) {
			t.Errorf("summary (appended, with the improvement):\n%s", summary)
		}
		if !strings.Contains(stdout, "::notice title=polynfi") || strings.Contains(stdout, "::error") {
			t.Errorf("annotations:\n%s", stdout)
		}
	})
	t.Run("bare except fails", func(t *testing.T) {
		branch(t, dir, "feat", map[string]string{"pkg/num.py": bareExcept})
		stdout, summary, outputs, code := runEntry(t)
		if code != 1 || !strings.Contains(outputs, "result=fail") {
			t.Errorf("exit %d, outputs %q", code, outputs)
		}
		if !regexp.MustCompile(`(?m)^::warning file=pkg/num\.py,line=4,col=5,endLine=5,title=polynfi ERR-P01::bare except`).MatchString(stdout) ||
			!strings.Contains(stdout, "::error title=polynfi gate::regression: ERR I_p -") {
			t.Errorf("annotations:\n%s", stdout)
		}
		if !strings.Contains(summary, "❌ quality gate failed") || !strings.Contains(summary, "`pkg/num.py:4` | ERR-P01") {
			t.Errorf("summary:\n%s", summary)
		}
	})
	t.Run("broken file fails", func(t *testing.T) {
		branch(t, dir, "feat", map[string]string{"pkg/num.py": documented, "pkg/other.py": "def other(x:\n"})
		stdout, summary, _, code := runEntry(t)
		if code != 1 || !strings.Contains(stdout, "::error file=pkg/other.py,line=1") || !strings.Contains(summary, "comparison undefined") ||
			regexp.MustCompile(`\+\d+\.\d`).MatchString(summary) {
			t.Errorf("exit %d\n%s\n%s", code, stdout, summary)
		}
	})
	t.Run("base from GITHUB_BASE_REF", func(t *testing.T) {
		branch(t, dir, "feat", map[string]string{"pkg/num.py": documented})
		git(t, dir, "update-ref", "refs/remotes/origin/main", "main")
		stdout, _, outputs, code := runEntry(t, "GITHUB_EVENT_PATH=/nonexistent")
		if code != 0 || !strings.Contains(outputs, "result=pass") {
			t.Errorf("exit %d %q\n%s", code, outputs, stdout)
		}
	})
}
