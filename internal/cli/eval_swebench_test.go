package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Rows that cannot run (no test_command, no eval_script; an eval_script
// without image or Dockerfile) are reported once when the dataset is
// loaded, with a count and what they lack: a dataset of nothing else is an
// error (exit 3), not N error records with exit 0 and 0% resolved.
func TestEvalReportsUnrunnableRows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var b bytes.Buffer
	for i, extra := range []map[string]any{
		{},
		{},
		{"eval_script": "#!/bin/bash\necho hi\n", "log_parser": "parse_log_pytest"},
	} {
		row := map[string]any{"instance_id": "acme__echo-" + string(rune('1'+i)), "repo": "acme/echo", "base_commit": "abc",
			"patch": "p", "FAIL_TO_PASS": `["t.py::test_a"]`, "PASS_TO_PASS": "[]", "version": "1.0"}
		for k, v := range extra {
			row[k] = v
		}
		line, _ := json.Marshal(row)
		b.Write(append(line, '\n'))
	}
	ds := filepath.Join(dir, "swebench.jsonl")
	os.WriteFile(ds, b.Bytes(), 0o644)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"eval", "--dataset", ds, "--predictions", "gold", "--out", out}, &stdout, &stderr)
	want := "3 of 3 instances cannot run: 2 have no test_command and no eval_script (acme__echo-1, acme__echo-2); 1 has an eval_script but no image and no Dockerfile to run it in (acme__echo-3)"
	if code != ExitError || !strings.Contains(stderr.String(), want) {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit 3 and %q", code, stderr.String(), want)
	}
	if strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("want one line of diagnosis, got:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "report.json")); err == nil {
		t.Error("a run that cannot evaluate anything wrote a report")
	}
}

// One runnable instance among unrunnable ones: the others are named once
// on stderr and in the report's input errors, the runnable one is
// evaluated.
func TestEvalSkipsUnrunnableRowsWithOneLine(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 1, "0")
	data, _ := os.ReadFile(ds)
	data = append(data, []byte(`{"instance_id": "acme__echo-9", "repo": "acme/echo", "base_commit": "abc", "patch": "p", "F2P": "['x']", "P2P": "[]"}`+"\n")...)
	os.WriteFile(ds, data, 0o644)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"eval", "--dataset", ds, "--predictions", "gold", "--out", out, "--nfi=false", "--retrieval", "off"}, &stdout, &stderr)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	want := "1 of 2 instances cannot run: 1 has no test_command and no eval_script (acme__echo-9)"
	if strings.Count(stderr.String(), want) != 1 {
		t.Errorf("stderr:\n%s\nwant once: %s", stderr.String(), want)
	}
	rep, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rep), want) {
		t.Errorf("report.json does not carry the input error %q", want)
	}
	if _, err := os.Stat(filepath.Join(out, "gold", "acme__echo-9")); err == nil {
		t.Error("an unrunnable instance got a record")
	}
}

// The bundled SWE-bench 5.x rows need a container: with the local runtime
// they are reported once at load, not evaluated one by one as errors.
func TestEvalSWEBench5RowsNeedContainers(t *testing.T) {
	t.Parallel()
	for _, ds := range []string{"../../examples/swebench/dataset.jsonl", "../../examples/swebench"} {
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), []string{"eval", "--dataset", ds, "--predictions", "gold", "--out", t.TempDir()}, &stdout, &stderr)
		want := "2 of 2 instances cannot run: 2 have an eval_script and no test_command: it runs in a container (--runtime docker), and this run's runtime is local (tidyledger__ledgerkit-12, tidyledger__ledgerkit-15)"
		if code != ExitError || !strings.Contains(stderr.String(), want) {
			t.Errorf("%s: exit %d\n%s", ds, code, stderr.String())
		}
	}
}
