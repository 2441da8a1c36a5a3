package dataset

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/parquet-go/parquet-go"
)

// A SWE-bench row of harness release 5.x as published: no test_command,
// image, eval_script, log_parser, eval_type, version; FAIL_TO_PASS and
// PASS_TO_PASS as JSON strings (the Hugging Face files) or lists.
const sweb5Script = "#!/bin/bash\nset -uxo pipefail\ncd /testbed\ngit apply -v - <<'EOF_1'\ndiff\nEOF_1\n: '>>>>> Start Test Output'\npytest -rA t.py\n: '>>>>> End Test Output'\n"

func TestLoadSWEBench5Rows(t *testing.T) {
	t.Parallel()
	script, _ := jsonString(sweb5Script)
	jsonRow := `{"instance_id": "pytest-dev__pytest-5227", "repo": "pytest-dev/pytest", "base_commit": "2051e30b", "patch": "p", "test_patch": "tp",
 "FAIL_TO_PASS": "[\"t.py::test_a\"]", "PASS_TO_PASS": "[\"[100%]\", \"t.py::test_b\"]", "version": "4.4",
 "image": "swebench/sweb.eval.x86_64.pytest-dev_1776_pytest-5227:latest", "eval_script": ` + script + `,
 "log_parser": "parse_log_pytest", "eval_type": "pass_and_fail"}`
	jsonRow = strings.ReplaceAll(jsonRow, "\n ", " ")
	listRow := strings.Replace(strings.Replace(jsonRow, `"[\"t.py::test_a\"]"`, `["t.py::test_a"]`, 1), `"[\"[100%]\", \"t.py::test_b\"]"`, `["[100%]", "t.py::test_b"]`, 1)
	want := Instance{InstanceID: "pytest-dev__pytest-5227", Repo: "pytest-dev/pytest", BaseCommit: "2051e30b", Patch: "p", TestPatch: "tp",
		FailToPass: []string{"t.py::test_a"}, PassToPass: []string{"[100%]", "t.py::test_b"}, Version: "4.4",
		Image: "swebench/sweb.eval.x86_64.pytest-dev_1776_pytest-5227:latest", EvalScript: sweb5Script,
		LogParser: "parse_log_pytest", EvalType: EvalTypePassAndFail, Row: 1}
	for _, tc := range []struct{ name, content string }{
		{"d.jsonl", jsonRow + "\n"},
		{"d.json", "[" + jsonRow + "]"},
		{"lists.jsonl", listRow + "\n"},
	} {
		d, err := Load(writeFile(t, tc.name, tc.content))
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Errors) != 0 || len(d.Instances) != 1 {
			t.Fatalf("%s: errors %v, %d instances", tc.name, d.Errors, len(d.Instances))
		}
		if d.Schema != SchemaSWEBench {
			t.Errorf("%s: schema %s", tc.name, d.Schema)
		}
		if diff := cmp.Diff(want, d.Instances[0]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
		if p := d.Instances[0].RunProblem(false); p != "" {
			t.Errorf("%s: RunProblem %q, want runnable", tc.name, p)
		}
	}

	// Parquet, as the Hugging Face dataset files are.
	type row struct {
		InstanceID string `parquet:"instance_id"`
		Repo       string `parquet:"repo"`
		BaseCommit string `parquet:"base_commit"`
		F2P        string `parquet:"FAIL_TO_PASS"`
		P2P        string `parquet:"PASS_TO_PASS"`
		Version    string `parquet:"version"`
		Image      string `parquet:"image"`
		EvalScript string `parquet:"eval_script"`
		LogParser  string `parquet:"log_parser"`
		EvalType   string `parquet:"eval_type"`
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf)
	if _, err := w.Write([]row{
		{"django__django-11099", "django/django", "d26b2424", `["test_a (auth_tests.test_validators.T)"]`, `[]`, "3.0", "img:1", sweb5Script, "parse_log_django", "pass_and_fail"},
		{"django__django-2", "django/django", "d26b2424", `["x"]`, `[]`, "3.0", "img:2", sweb5Script, "parse_log_django", "fail_first"},
	}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := Load(writeFile(t, "d.parquet", buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Instances) != 1 || d.Instances[0].LogParser != "parse_log_django" || d.Instances[0].Version != "3.0" ||
		d.Instances[0].FailToPass[0] != "test_a (auth_tests.test_validators.T)" || d.Instances[0].EvalScript != sweb5Script {
		t.Errorf("parquet instances %+v", d.Instances)
	}
	if len(d.Errors) != 1 || d.Errors[0].Field != "eval_type" || !strings.Contains(d.Errors[0].Error(), `"fail_first": want pass_and_fail or fail_only`) {
		t.Errorf("parquet errors %v, want one eval_type error on row 2", d.Errors)
	}
}

func jsonString(s string) (string, error) {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\n':
			b.WriteString(`\n`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String(), nil
}

func TestEvalSHA256SWEBench5(t *testing.T) {
	t.Parallel()
	in := Instance{InstanceID: "a__b-1", Repo: "a/b", BaseCommit: "c", TestCommand: "pytest"}
	before := in.EvalSHA256()
	in.LogParser = "parse_log_pytest"
	if in.EvalSHA256() == before {
		t.Error("log_parser does not change the fingerprint")
	}
	in.LogParser = ""
	if in.EvalSHA256() != before {
		t.Error("a row without SWE-bench 5.x fields changed fingerprint")
	}
}

func TestSplitRunnable(t *testing.T) {
	t.Parallel()
	ins := []Instance{
		{InstanceID: "a-1", TestCommand: "pytest"},
		{InstanceID: "a-2"},
		{InstanceID: "a-3", EvalScript: "x"},
		{InstanceID: "a-4", EvalScript: "x", Image: "img"},
		{InstanceID: "a-5", EvalScript: "x", Dockerfile: "FROM x"},
		{InstanceID: "a-6"},
	}
	ok, bad := SplitRunnable(ins, false)
	var okIDs []string
	for _, in := range ok {
		okIDs = append(okIDs, in.InstanceID)
	}
	if !cmp.Equal(okIDs, []string{"a-1", "a-4", "a-5"}) {
		t.Errorf("runnable %v", okIDs)
	}
	want := []Unrunnable{{"no test_command and no eval_script", []string{"a-2", "a-6"}},
		{"an eval_script but no image and no Dockerfile to run it in", []string{"a-3"}}}
	if diff := cmp.Diff(want, bad); diff != "" {
		t.Errorf("unrunnable (-want +got):\n%s", diff)
	}
	got := DescribeUnrunnable(bad, len(ins))
	if w := "3 of 6 instances cannot run: 2 have no test_command and no eval_script (a-2, a-6); 1 has an eval_script but no image and no Dockerfile to run it in (a-3)"; got != w {
		t.Errorf("DescribeUnrunnable:\n got %s\nwant %s", got, w)
	}
	if _, bad := SplitRunnable(ins[2:3], true); len(bad) != 0 {
		t.Errorf("with an image template, an eval_script row is runnable: %v", bad)
	}
	many := make([]Instance, 8)
	for i := range many {
		many[i].InstanceID = string(rune('a' + i))
	}
	_, bad = SplitRunnable(many, false)
	if got := DescribeUnrunnable(bad, 8); !strings.HasSuffix(got, "(a, b, c, d, e, and 3 more)") || !strings.HasPrefix(got, "8 of 8 instances") {
		t.Errorf("DescribeUnrunnable of 8: %s", got)
	}
}

// writeTask writes a task directory of a SWE-bench 5.x task repository.
func writeTask(t *testing.T, root, id string, files map[string]string) {
	t.Helper()
	dir := filepath.Join(root, "tasks", id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func taskFilesFor(id string) map[string]string {
	return map[string]string{
		"task.yaml": "base_commit: 0123abc\ndatasets:\n- Sample\nimage: swebench/sweb.eval.x86_64." + strings.ReplaceAll(id, "__", "_1776_") + ":latest\ninstance_id: " + id +
			"\nlog_parser: parse_log_pytest\neval_type: pass_and_fail\nrepo: tidyledger/ledgerkit\nsplit: test\nversion: '1.0'\ncreated_at: 2024-01-02T03:04:05Z\n",
		"tests.json":           "{\n  \"FAIL_TO_PASS\": [\"tests/t.py::test_a[1-0]\"],\n  \"PASS_TO_PASS\": [\"tests/t.py::test_b\"]\n}\n",
		"gold.patch":           "diff --git a/x.py b/x.py\r\n",
		"test.patch":           "diff --git a/tests/t.py b/tests/t.py\n",
		"eval.sh":              sweb5Script,
		"problem_statement.md": "It breaks.\n",
		"Dockerfile":           "FROM polynfi/base\nCOPY repo /testbed\n",
	}
}

func TestLoadTaskRepo(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTask(t, root, "tidyledger__ledgerkit-12", taskFilesFor("tidyledger__ledgerkit-12"))
	bad := taskFilesFor("tidyledger__ledgerkit-13")
	delete(bad, "eval.sh")
	writeTask(t, root, "tidyledger__ledgerkit-13", bad)
	wrongID := taskFilesFor("tidyledger__ledgerkit-14")
	wrongID["task.yaml"] = strings.Replace(wrongID["task.yaml"], "instance_id: tidyledger__ledgerkit-14", "instance_id: other__x-1", 1)
	writeTask(t, root, "tidyledger__ledgerkit-14", wrongID)
	badJSON := taskFilesFor("tidyledger__ledgerkit-15")
	badJSON["tests.json"] = `{"FAIL_TO_PASS": "t.py::x", "PASS_TO_PASS": []}`
	writeTask(t, root, "tidyledger__ledgerkit-15", badJSON)
	hinted := taskFilesFor("tidyledger__ledgerkit-16")
	hinted["hints.md"] = "look at allocate\n"
	writeTask(t, root, "tidyledger__ledgerkit-16", hinted)

	// A task directory that is a link, and a task file that is one.
	if err := os.Symlink(filepath.Join(root, "tasks", "tidyledger__ledgerkit-12"), filepath.Join(root, "tasks", "tidyledger__ledgerkit-17")); err != nil {
		t.Fatal(err)
	}
	linked := taskFilesFor("tidyledger__ledgerkit-18")
	delete(linked, "gold.patch")
	writeTask(t, root, "tidyledger__ledgerkit-18", linked)
	if err := os.Symlink("/etc/hostname", filepath.Join(root, "tasks", "tidyledger__ledgerkit-18", "gold.patch")); err != nil {
		t.Fatal(err)
	}
	if !IsTaskRepo(root) || IsTaskRepo(filepath.Join(root, "tasks")) {
		t.Fatal("IsTaskRepo")
	}
	if k, err := DetectKind(root); err != nil || k != KindInstances {
		t.Fatalf("DetectKind = %v, %v", k, err)
	}
	d, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if d.Format != FormatTaskRepo || d.Schema != SchemaSWEBench || d.NativeMode() != "swebench" {
		t.Errorf("format %s schema %s", d.Format, d.Schema)
	}
	if len(d.Instances) != 2 {
		t.Fatalf("%d instances, want 2; errors %v", len(d.Instances), d.Errors)
	}
	in := d.Instances[0]
	files := taskFilesFor("tidyledger__ledgerkit-12")
	want := Instance{InstanceID: "tidyledger__ledgerkit-12", Repo: "tidyledger/ledgerkit", BaseCommit: "0123abc",
		Patch: files["gold.patch"], TestPatch: files["test.patch"], Language: Python, LanguageInferred: true, FailToPass: []string{"tests/t.py::test_a[1-0]"}, PassToPass: []string{"tests/t.py::test_b"},
		Dockerfile: files["Dockerfile"], ProblemStatement: "It breaks.\n", CreatedAt: "2024-01-02T03:04:05Z",
		Image: "swebench/sweb.eval.x86_64.tidyledger_1776_ledgerkit-12:latest", EvalScript: sweb5Script, LogParser: "parse_log_pytest",
		EvalType: EvalTypePassAndFail, Version: "1.0", BuildContext: filepath.Join(root, "tasks", "tidyledger__ledgerkit-12"), Row: 1}
	opts := cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "Extra" }, cmp.Ignore())
	if diff := cmp.Diff(want, in, opts); diff != "" {
		t.Errorf("task (-want +got):\n%s", diff)
	}
	if in.Extra["split"] != "test" || in.Extra["hints_text"] != "" {
		t.Errorf("extra %v", in.Extra)
	}
	if d.Instances[1].Extra["hints_text"] != "look at allocate\n" {
		t.Errorf("hints %v", d.Instances[1].Extra["hints_text"])
	}
	var msgs []string
	for _, e := range d.Errors {
		msgs = append(msgs, strings.TrimPrefix(e.Error(), root+string(filepath.Separator)))
	}
	wantErrs := []string{
		"tasks/tidyledger__ledgerkit-13/eval.sh: row 2 [tidyledger__ledgerkit-13]: field eval_script: missing",
		`tasks/tidyledger__ledgerkit-14/task.yaml: row 3 [tidyledger__ledgerkit-14]: field instance_id: "other__x-1" differs from its directory name "tidyledger__ledgerkit-14"`,
		"tasks/tidyledger__ledgerkit-15/tests.json: row 4 [tidyledger__ledgerkit-15]: field FAIL_TO_PASS: want a JSON list of strings, got a string",
		"tasks/tidyledger__ledgerkit-17: row 6 [tidyledger__ledgerkit-17]: a symbolic link, not a task directory: not read",
		"tasks/tidyledger__ledgerkit-18/gold.patch: row 7 [tidyledger__ledgerkit-18]: field patch: a symbolic link: not read",
	}
	if diff := cmp.Diff(wantErrs, msgs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}

	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no tasks/ directory") {
		t.Errorf("a directory without tasks/: %v", err)
	}
}
