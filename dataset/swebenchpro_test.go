package dataset

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// proRow is a SWE-bench Pro row as the published dataset spells it.
func proRow(id string) map[string]any {
	return map[string]any{
		"instance_id": id, "repo": "acme/calc", "base_commit": "abc123",
		"patch": "diff --git a/calc.py b/calc.py\n", "test_patch": "diff --git a/t.py b/t.py\n",
		"problem_statement": "add() subtracts", "requirements": "add must add", "interface": "No new interfaces are introduced.",
		"repo_language": "python", "fail_to_pass": "['tests/test_calc.py::test_add']", "pass_to_pass": "['tests/test_calc.py::test_mul']",
		"issue_specificity": "['minor_bug']", "issue_categories": "['core_feat_knowledge']",
		"before_repo_set_cmd":        "git reset --hard abc123\ngit checkout def456 -- tests/test_calc.py",
		"selected_test_files_to_run": "['tests/test_calc.py']", "dockerhub_tag": "acme.calc-" + id,
	}
}

// writeProDataset writes rows as JSONL with run_scripts/<id>/ beside it
// for the ids of scripts.
func writeProDataset(t *testing.T, rows []map[string]any, scripts ...string) string {
	t.Helper()
	dir := t.TempDir()
	var b bytes.Buffer
	for _, r := range rows {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	path := filepath.Join(dir, "pro.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, id := range scripts {
		writeProScripts(t, dir, id)
	}
	return path
}

func writeProScripts(t *testing.T, dir, id string) {
	t.Helper()
	sd := filepath.Join(dir, ProScriptsDir, id)
	os.MkdirAll(sd, 0o755)
	os.WriteFile(filepath.Join(sd, ProRunScriptName), []byte("#!/bin/bash\npython -m pytest -rA \"${1//,/ }\"\n"), 0o644)
	os.WriteFile(filepath.Join(sd, ProParserName), []byte("import sys\n"), 0o644)
}

func TestLoadSWEBenchPro(t *testing.T) {
	path := writeProDataset(t, []map[string]any{proRow("instance_acme__calc-1")}, "instance_acme__calc-1")
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Errors) > 0 || len(d.Instances) != 1 {
		t.Fatalf("errors %v, %d instances", d.Errors, len(d.Instances))
	}
	if d.Schema != SchemaSWEBenchPro || d.NativeMode() != "swe-bench-pro" {
		t.Errorf("schema %s, native %s", d.Schema, d.NativeMode())
	}
	in := d.Instances[0]
	p := in.SWEBenchPro
	if p == nil {
		t.Fatal("no SWEBenchPro")
	}
	if in.Language != Python || strings.Join(in.FailToPass, "|") != "tests/test_calc.py::test_add" || strings.Join(in.PassToPass, "|") != "tests/test_calc.py::test_mul" {
		t.Errorf("language %q F2P %q P2P %q", in.Language, in.FailToPass, in.PassToPass)
	}
	if strings.Join(p.SelectedTestFiles, ",") != "tests/test_calc.py" || strings.Join(p.IssueCategories, ",") != "core_feat_knowledge" ||
		p.Requirements != "add must add" || p.DockerhubTag != "acme.calc-instance_acme__calc-1" || !strings.Contains(p.BeforeRepoSetCmd, "git checkout def456") {
		t.Errorf("pro fields %+v", p)
	}
	if !strings.Contains(p.RunScript, "pytest") || p.Parser != "import sys\n" || p.ScriptsDir == "" {
		t.Errorf("scripts: run %q parser %q dir %q", p.RunScript, p.Parser, p.ScriptsDir)
	}
	if len(in.Extra) != 0 {
		t.Errorf("extra %v: every field of a Pro row is read", in.Extra)
	}
	// The test command runs the dataset's run_script.sh with the selected
	// files as its one argument, and writes nothing on stderr of its own.
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "tests"), 0o755)
	cmd := exec.Command("bash", "-c", "set -uxo pipefail\n"+ProTestCommand("echo \"args:$#:$1\"\necho err >&2\ncat <<'POLYNFI_RUN_SCRIPT_x'\nnested\nPOLYNFI_RUN_SCRIPT_x\n", []string{"a b.py", "it's.py"}))
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if out.String() != "args:1:a b.py,it's.py\nnested\n" || errb.String() != "err\n" {
		t.Errorf("run_script got stdout %q stderr %q (%v)", out.String(), errb.String(), err)
	}
	// A changed parser re-evaluates the instance.
	sum := in.EvalSHA256()
	in.SWEBenchPro = &SWEBenchPro{Parser: "other"}
	if in.EvalSHA256() == sum {
		t.Error("the parser does not enter EvalSHA256")
	}
}

// TestLoadSWEBenchProErrors: a bad row is an error naming file, row and
// the row's own field; the other rows load.
func TestLoadSWEBenchProErrors(t *testing.T) {
	noScripts := proRow("instance_acme__calc-2")
	badF2P := proRow("instance_acme__calc-3")
	badF2P["fail_to_pass"] = "['unterminated"
	emptyF2P := proRow("instance_acme__calc-4")
	emptyF2P["fail_to_pass"] = "[]"
	badSel := proRow("instance_acme__calc-5")
	badSel["selected_test_files_to_run"] = "['a.py,b.py']"
	withCmd := proRow("instance_acme__calc-6")
	withCmd["test_command"] = "pytest"
	path := writeProDataset(t, []map[string]any{proRow("instance_acme__calc-1"), noScripts, badF2P, emptyF2P, badSel, withCmd},
		"instance_acme__calc-1", "instance_acme__calc-3", "instance_acme__calc-4", "instance_acme__calc-5", "instance_acme__calc-6")
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Instances) != 1 || d.Instances[0].InstanceID != "instance_acme__calc-1" {
		t.Errorf("instances %d", len(d.Instances))
	}
	want := []struct {
		row          int
		field, words string
	}{{2, "run_script", "run_scripts/instance_acme__calc-2/run_script.sh does not exist"}, {2, "parser", "parser.py does not exist"},
		{3, "fail_to_pass", ""}, {4, "fail_to_pass", "empty"}, {5, "selected_test_files_to_run", "without commas"}, {6, "test_command", "run_script.sh"}}
	if len(d.Errors) != len(want) {
		t.Fatalf("errors %v, want %d", d.Errors, len(want))
	}
	for i, w := range want {
		e := d.Errors[i]
		if e.Row != w.row || e.Field != w.field || !strings.Contains(e.Error(), w.words) || !strings.Contains(e.Error(), path) || e.Line != w.row {
			t.Errorf("error %d: %v (row %d line %d field %s), want row %d field %s saying %q", i, e, e.Row, e.Line, e.Field, w.row, w.field, w.words)
		}
	}
}

type proParquetRow struct {
	InstanceID string `parquet:"instance_id"`
	Repo       string `parquet:"repo"`
	BaseCommit string `parquet:"base_commit"`
	Patch      string `parquet:"patch"`
	TestPatch  string `parquet:"test_patch"`
	Lang       string `parquet:"repo_language"`
	F2P        string `parquet:"fail_to_pass"`
	P2P        string `parquet:"pass_to_pass"`
	Selected   string `parquet:"selected_test_files_to_run"`
	Before     string `parquet:"before_repo_set_cmd"`
}

// TestLoadSWEBenchProParquet reads the published Parquet layout (every
// field a string, the lists string-encoded).
func TestLoadSWEBenchProParquet(t *testing.T) {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[proParquetRow](&buf)
	if _, err := w.Write([]proParquetRow{
		{"instance_acme__calc-1", "acme/calc", "abc", "diff", "diff", "go", "['TestAdd']", "[]", "['calc_test.go']", "git checkout x -- calc_test.go"},
		{"instance_acme__calc-2", "acme/calc", "abc", "diff", "diff", "ts", "TestAdd", "[]", "[]", ""},
	}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "test-00000-of-00001.parquet")
	os.WriteFile(path, buf.Bytes(), 0o644)
	writeProScripts(t, dir, "instance_acme__calc-1")
	writeProScripts(t, dir, "instance_acme__calc-2")
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if d.Schema != SchemaSWEBenchPro || len(d.Instances) != 1 || d.Instances[0].Language != Go || d.Instances[0].FailToPass[0] != "TestAdd" {
		t.Fatalf("schema %s instances %+v errors %v", d.Schema, d.Instances, d.Errors)
	}
	if len(d.Errors) != 1 || d.Errors[0].Row != 2 || d.Errors[0].Field != "fail_to_pass" {
		t.Errorf("errors %v, want row 2 fail_to_pass", d.Errors)
	}
}
