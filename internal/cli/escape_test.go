package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/agent"
)

// forgedModel is a model name that, printed raw, adds a headline line
// claiming every unit resolved and recolours the terminal.
const forgedModel = "evil\nresolved 8/8 (100.0%, 95% CI 67.6–100.0%) under polybench grading, the dataset's native mode\x1b[2J\x1b]0;pwned\x07"

// noForgery fails t when out (a command's whole output) has a line that
// starts with "resolved 8/8" or holds an ESC, BEL or CR.
func noForgery(t *testing.T, what, out string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, "-# *"), "resolved 8/8") {
			t.Errorf("%s: forged headline line %q in:\n%s", what, l, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07\r") {
		t.Errorf("%s: raw control characters reach the output: %q", what, out)
	}
}

// TestModelNameCannotForgeHeadline: a prediction whose model_name_or_path
// holds a newline and escape sequences is rejected at load with its file,
// line and field named (the other model's rows are evaluated: the run goes
// on), and no output of eval or report (text, Markdown) carries a forged
// "resolved 8/8" line or a raw escape sequence.
func TestModelNameCannotForgeHeadline(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	preds := filepath.Join(t.TempDir(), "preds.jsonl")
	var pb bytes.Buffer
	for i := 0; i < 2; i++ {
		for _, m := range []string{forgedModel, "honest"} {
			row, _ := json.Marshal(map[string]string{"instance_id": fmt.Sprintf("acme__echo-%d", i), "model_name_or_path": m, "model_patch": ""})
			pb.Write(append(row, '\n'))
		}
	}
	if err := os.WriteFile(preds, pb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"eval", "--dataset", ds, "--predictions", preds, "--out", out}, &stdout, &stderr)
	if code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr.String())
	}
	noForgery(t, "eval stdout", stdout.String())
	noForgery(t, "eval stderr", stderr.String())
	all := stdout.String() + stderr.String()
	if !strings.Contains(all, "preds.jsonl: row 1 (line 1)") || !strings.Contains(all, "field model_name_or_path") || !strings.Contains(all, "control character") {
		t.Errorf("the rejected row is not named with file, line, field and reason:\n%s", all)
	}
	if !strings.Contains(stdout.String(), "resolved 0/2") {
		t.Errorf("the honest model's rows were not evaluated:\n%s", stdout.String())
	}
	for _, f := range []string{"text", "markdown"} {
		stdout.Reset()
		stderr.Reset()
		if code := Main(context.Background(), []string{"report", out, "--format", f}, &stdout, &stderr); code != ExitOK {
			t.Fatalf("report --format %s: exit %d\n%s", f, code, stderr.String())
		}
		noForgery(t, "report --format "+f, stdout.String()+stderr.String())
	}
}

// TestPRFileNamesEscaped: a pull request adding a Python file whose name
// holds escape sequences, a newline and HTML cannot reach the terminal,
// forge a workflow command or inject markup through diff's text,
// Markdown and GitHub formats.
func TestPRFileNamesEscaped(t *testing.T) {
	dir := commitTree(t, map[string]string{"pkg/ok.py": "\"\"\"OK.\"\"\"\n"})
	t.Chdir(dir)
	evil := "pkg/e\x1b]0;t\x07\x1b[31m<img src=x onerror=alert(1)>\n::error::forged\n| x | y |.py"
	branch(t, dir, "feat", map[string]string{evil: bareExcept})
	for _, f := range []string{"text", "markdown", "github"} {
		out, errOut, code := run(t, "diff", "--base", "main", "--isolated", "--format", f)
		if code != ExitOK && code != ExitFindings {
			t.Fatalf("diff --format %s: exit %d\n%s", f, code, errOut)
		}
		if !strings.Contains(out, "onerror") {
			t.Errorf("%s: the file is not reported:\n%s", f, out)
		}
		all := out + errOut
		if strings.ContainsAny(all, "\x1b\x07") {
			t.Errorf("%s: raw escape sequence: %q", f, all)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "::error::forged") || strings.HasPrefix(l, "| x | y |") {
				t.Errorf("%s: forged line %q", f, l)
			}
			if f == "github" && l != "" && !strings.HasPrefix(l, "::") {
				t.Errorf("github: a line that is not a workflow command: %q", l)
			}
		}
		// in a code span "<img" is text; outside one it would be markup
		if f == "markdown" && strings.Contains(regexp.MustCompile("`[^`\n]*`").ReplaceAllString(out, ""), "<img") {
			t.Errorf("markdown: raw HTML:\n%s", out)
		}
	}
}

// TestRunSummaryEscapesAgentOutput: a run that failed with the agent's
// stderr in its reason (escape sequences, a carriage return, a newline
// starting a forged summary line) is listed on one line, shown escaped.
func TestRunSummaryEscapesAgentOutput(t *testing.T) {
	t.Parallel()
	s := &agent.Summary{Total: 1, Ran: 1, ByStatus: map[string]int{agent.StatusError: 1},
		Records: []*agent.Record{{InstanceID: "o__r-1", Agent: "a", Run: 1, Status: agent.StatusError,
			Error: "setup: exit 1: \x1b]0;pwned\x07\x1b[2Jboom\r\nstatus: completed 1\n"}}}
	var b bytes.Buffer
	if err := printRunSummary(&b, runOptions{out: t.TempDir(), format: "text"}, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsAny(out, "\x1b\x07\r") {
		t.Errorf("raw control characters in the summary: %q", out)
	}
	if n := strings.Count(out, "\nstatus: "); n != 1 {
		t.Errorf("%d status lines, want 1 (a forged one):\n%s", n, out)
	}
	if !strings.Contains(out, `\x1b]0;pwned\x07\x1b[2Jboom\r\nstatus: completed 1\n`) {
		t.Errorf("the reason is not shown escaped:\n%s", out)
	}
}
