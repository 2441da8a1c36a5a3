package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = Main(context.Background(), args, &o, &e)
	return o.String(), e.String(), code
}

// gitRepo makes a repository with one docstring-adding squash commit.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	run := func(date string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_AUTHOR_DATE="+date,
			"GIT_COMMITTER_NAME=Alice", "GIT_COMMITTER_EMAIL=a@example.com", "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(content string) {
		if err := os.WriteFile(filepath.Join(dir, "m.py"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("2024-01-01T00:00:00Z", "init", "-q", "-b", "main")
	write("def f(x: int) -> int:\n    return x\n")
	run("2024-01-01T00:00:00Z", "add", "-A")
	run("2024-01-01T00:00:00Z", "commit", "-q", "-m", "Initial")
	write("\"\"\"Module m.\"\"\"\n\n\ndef f(x: int) -> int:\n    \"\"\"Return x.\"\"\"\n    return x\n")
	run("2024-01-02T00:00:00Z", "commit", "-q", "-am", "Add docstrings (#1)")
	return dir
}

// TestDatasetCommands runs mine → review export → kappa → tasks build →
// sample through Main.
func TestDatasetCommands(t *testing.T) {
	repo := gitRepo(t)
	dir := t.TempDir()
	cands := filepath.Join(dir, "c.jsonl")
	out, errOut, code := runCLI(t, "mine", "--repo", "demo/m="+repo, "--out", cands, "--format", "json", "--isolated", "--classes", "all")
	if code != ExitOK {
		t.Fatalf("mine: exit %d: %s", code, errOut)
	}
	var sum struct {
		Pairs   int            `json:"pairs"`
		Classes map[string]int `json:"classes"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Pairs != 1 || len(sum.Classes) != 4 {
		t.Fatalf("mine summary: %v %s", err, out)
	}
	if _, errOut, code := runCLI(t, "mine", "--repo", repo, "--out", cands, "--since", "yesterday"); code != ExitUsage || !strings.Contains(errOut, "--since") {
		t.Errorf("bad --since: exit %d, %s", code, errOut)
	}

	sheets := filepath.Join(dir, "review")
	if _, errOut, code := runCLI(t, "review", "export", "--candidates", cands, "--out", sheets); code != ExitOK {
		t.Fatalf("review export: exit %d: %s", code, errOut)
	}
	for _, name := range []string{"A", "B"} {
		data, err := os.ReadFile(filepath.Join(sheets, "review_"+name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		filled := strings.Replace(string(data), `"label":""`, `"label":"accept"`, 1)
		if err := os.WriteFile(filepath.Join(dir, name+".jsonl"), []byte(filled), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code = runCLI(t, "review", "kappa", filepath.Join(dir, "A.jsonl"), filepath.Join(dir, "B.jsonl"), "--format", "json")
	if code != ExitOK || !strings.Contains(out, `"n": 1`) {
		t.Fatalf("kappa: exit %d: %s %s", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, "review", "kappa", filepath.Join(sheets, "review_A.csv"), filepath.Join(dir, "B.jsonl")); code != ExitError ||
		!strings.Contains(errOut, `review_A.csv:2: field "label"`) {
		t.Errorf("unlabelled sheet: exit %d: %s", code, errOut)
	}

	tasks := filepath.Join(dir, "tasks.jsonl")
	out, errOut, code = runCLI(t, "tasks", "build", "--candidates", cands, "--labels", filepath.Join(dir, "A.jsonl"), "--labels", filepath.Join(dir, "B.jsonl"), "--out", tasks)
	if code != ExitOK || !strings.Contains(out, "tasks               1") {
		t.Fatalf("tasks build: exit %d: %s %s", code, out, errOut)
	}
	data, _ := os.ReadFile(tasks)
	if !strings.Contains(string(data), `"description_status":"draft"`) || !strings.Contains(string(data), `"instance_id":"demo__m-1-doc"`) {
		t.Errorf("tasks: %s", data)
	}

	sub := filepath.Join(dir, "sub.jsonl")
	out, errOut, code = runCLI(t, "sample", "--input", tasks, "--size", "1", "--strata", "aspect,scope", "--out", sub, "--format", "json")
	if code != ExitOK || !strings.Contains(out, `"achieved": 1`) {
		t.Fatalf("sample: exit %d: %s %s", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, "sample", "--input", tasks, "--size", "1", "--strata", "language", "--out", sub); code != ExitError ||
		!strings.Contains(errOut, `tasks.jsonl:1: field "language": missing`) {
		t.Errorf("missing strata field: exit %d: %s", code, errOut)
	}
}
