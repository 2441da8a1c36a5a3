package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
