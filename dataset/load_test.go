package dataset

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/parquet-go/parquet-go"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadPolyBenchCSV(t *testing.T) {
	t.Parallel()
	d, err := Load("testdata/polybench.csv")
	if err != nil {
		t.Fatal(err)
	}
	if d.Schema != SchemaPolyBench || d.NativeMode() != "polybench" || d.Format != FormatCSV {
		t.Errorf("schema %s mode %s format %s, want polybench/polybench/csv", d.Schema, d.NativeMode(), d.Format)
	}
	var ids []string
	for _, in := range d.Instances {
		ids = append(ids, in.InstanceID)
	}
	if diff := cmp.Diff([]string{"acme__widgets-12", "acme__gadgets-7", "acme__ts-3"}, ids); diff != "" {
		t.Errorf("instances (-want +got):\n%s", diff)
	}
	w := d.Instances[0]
	want := Instance{
		InstanceID: "acme__widgets-12", Repo: "acme/widgets", BaseCommit: "0123456789abcdef0123456789abcdef01234567",
		Patch:     "diff --git a/w.py b/w.py\n--- a/w.py\n+++ b/w.py\n@@ -1 +1 @@\n-x = \"old\"\n+x = 'new'\n",
		TestPatch: "diff --git a/t.py b/t.py\n", Language: "Python", TestCommand: "pytest -rA t.py",
		FailToPass: []string{"t.py::TestW::test_new", "t.py::test_quote[it's]"}, PassToPass: []string{},
		TaskCategory: "Bug Fix", ModifiedNodes: []string{"w.py->module->function_definition:f"},
		Dockerfile:       "FROM python:3.11\nRUN pip install pytest\n",
		ProblemStatement: "Widgets say \"old\",\nthey should say new.", CreatedAt: "2024-01-02T03:04:05Z", Row: 1,
	}
	if diff := cmp.Diff(want, w); diff != "" {
		t.Errorf("first instance (-want +got):\n%s", diff)
	}
	if got := d.Instances[1].PassToPass; !cmp.Equal(got, []string{"com.acme.GTest.testB", `com.acme.GTest.test"q"`}) {
		t.Errorf("P2P of row 2 = %q", got)
	}
	if got := d.Instances[2].Language; got != TypeScript {
		t.Errorf("language %q, want TypeScript", got)
	}
	var msgs []string
	for _, e := range d.Errors {
		msgs = append(msgs, e.Error())
	}
	wantErrs := []string{
		"testdata/polybench.csv: row 3 (line 15) [acme__bad-1]: field F2P: offset 14: unterminated string literal",
		"testdata/polybench.csv: row 4 (line 16) [acme__bad-2]: field repo: \"acme\": want owner/name",
		"testdata/polybench.csv: row 4 (line 16) [acme__bad-2]: field base_commit: missing",
	}
	if diff := cmp.Diff(wantErrs, msgs); diff != "" {
		t.Errorf("row errors (-want +got):\n%s", diff)
	}
}

func TestLoadSWEBenchJSONAndJSONL(t *testing.T) {
	t.Parallel()
	row1 := `{"instance_id": "django__django-1", "repo": "django/django", "base_commit": "abc123", "patch": "p", "test_patch": "tp",
 "FAIL_TO_PASS": "[\"test_a (m.T)\", \"test_b (m.T)\"]", "PASS_TO_PASS": ["test_c (m.T)"], "version": "3.0", "hints_text": ""}`
	row2 := `{"instance_id": "django__django-2", "repo": "django/django", "base_commit": "abc124", "FAIL_TO_PASS": 7}`
	row3 := `{"instance_id": "django__django-3", "repo": "django/django", "base_commit": "abc125", "FAIL_TO_PASS": "[\"test_d (m.T)\"]", "PASS_TO_PASS": null}`
	for _, tc := range []struct {
		name, content string
		format        Format
		badLine       int
	}{
		{"d.jsonl", row1 + "\n" + strings.ReplaceAll(row2, "\n", "") + "\n\n" + row3 + "\n", FormatJSONL, 0},
		{"d.json", "[\n" + row1 + ",\n" + row2 + ",\n" + row3 + "\n]\n", FormatJSON, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			content := tc.content
			if tc.format == FormatJSONL {
				content = strings.ReplaceAll(row1, "\n", "") + "\n" + row2 + "\n\n" + row3 + "\n"
			}
			p := writeFile(t, tc.name, content)
			d, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			if d.Schema != SchemaSWEBench || d.NativeMode() != "swebench" || d.Format != tc.format {
				t.Errorf("schema %s format %s, want swebench/%s", d.Schema, d.Format, tc.format)
			}
			if len(d.Instances) != 2 {
				t.Fatalf("got %d instances, want 2", len(d.Instances))
			}
			in := d.Instances[0]
			if diff := cmp.Diff([]string{"test_a (m.T)", "test_b (m.T)"}, in.FailToPass); diff != "" {
				t.Errorf("FAIL_TO_PASS (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"test_c (m.T)"}, in.PassToPass); diff != "" {
				t.Errorf("PASS_TO_PASS (-want +got):\n%s", diff)
			}
			if in.Version != "3.0" {
				t.Errorf("version = %q, want 3.0", in.Version)
			}
			if got := d.Instances[1]; got.InstanceID != "django__django-3" || got.PassToPass == nil || len(got.PassToPass) != 0 {
				t.Errorf("row 3 = %+v, want an empty PASS_TO_PASS", got)
			}
			if len(d.Errors) != 1 {
				t.Fatalf("errors %v, want one", d.Errors)
			}
			e := d.Errors[0]
			if e.Row != 2 || e.Field != "FAIL_TO_PASS" || !errors.Is(e, errNotList) {
				t.Errorf("error %v: want row 2 field FAIL_TO_PASS not a list", e)
			}
			if tc.format == FormatJSON && e.Line != tc.badLine {
				t.Errorf("error line %d, want %d", e.Line, tc.badLine)
			}
		})
	}
}

func TestLoadDuplicateAndBadRows(t *testing.T) {
	t.Parallel()
	p := writeFile(t, "d.jsonl", strings.Join([]string{
		`{"instance_id": "a__b-1", "repo": "a/b", "base_commit": "c1", "F2P": "['x']"}`,
		`not json`,
		`{"instance_id": "a__b-1", "repo": "a/b", "base_commit": "c2", "F2P": "['x']"}`,
		`{"instance_id": "../evil", "repo": "a/b", "base_commit": "c2", "F2P": "['x']"}`,
		`[1]`,
		`{"instance_id": "a__b-2", "repo": "a/b", "base_commit": "--upload-pack=x", "F2P": "['x']"}`,
		`{"instance_id": "a__b-3", "repo": "a/b", "base_commit": "c3"}`,
		`{"instance_id": "a__b-4", "repo": "a/b", "base_commit": "c4", "FAIL_TO_PASS": "[]"}`,
	}, "\n"))
	d, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Instances) != 1 || d.Instances[0].InstanceID != "a__b-1" {
		t.Errorf("instances %+v, want only a__b-1", d.Instances)
	}
	got := map[int]string{}
	for _, e := range d.Errors {
		got[e.Line] = e.Field
	}
	want := map[int]string{2: "", 3: "instance_id", 4: "instance_id", 5: "", 6: "base_commit", 7: "FAIL_TO_PASS", 8: "FAIL_TO_PASS"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("error lines→fields (-want +got):\n%s", diff)
	}
}

func TestLoadCSVRaggedRow(t *testing.T) {
	t.Parallel()
	p := writeFile(t, "d.csv", "instance_id,repo,base_commit,F2P\na__b-1,a/b,c1,['t']\na__b-2,a/b\n\"a__b-3\",a/b,c3,\"[\n'multi'\n]\"\n")
	d, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Instances) != 2 || d.Instances[1].FailToPass[0] != "multi" {
		t.Errorf("instances %+v", d.Instances)
	}
	if len(d.Errors) != 1 || d.Errors[0].Row != 2 || d.Errors[0].Line != 3 {
		t.Errorf("errors %v, want row 2 line 3", d.Errors)
	}
}

type parquetRow struct {
	InstanceID string   `parquet:"instance_id"`
	Repo       string   `parquet:"repo"`
	BaseCommit string   `parquet:"base_commit"`
	Patch      string   `parquet:"patch"`
	Language   string   `parquet:"language"`
	F2P        string   `parquet:"FAIL_TO_PASS"`
	P2P        []string `parquet:"PASS_TO_PASS,list"`
	Stars      int64    `parquet:"stars"`
}

func TestLoadParquet(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[parquetRow](&buf)
	rows := []parquetRow{
		{"o__r-1", "o/r", "c1", "diff", "python", `["t1", "t2"]`, []string{"p1"}, 3},
		{"o__r-2", "o/r", "", "diff", "Java", `["t3"]`, nil, 4},
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	p := writeFile(t, "d.parquet", buf.String())
	d, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []Instance{{InstanceID: "o__r-1", Repo: "o/r", BaseCommit: "c1", Patch: "diff", Language: Python,
		FailToPass: []string{"t1", "t2"}, PassToPass: []string{"p1"}, Row: 1}}
	if diff := cmp.Diff(want, d.Instances, cmpopts.IgnoreFields(Instance{}, "Extra")); diff != "" {
		t.Errorf("instances (-want +got):\n%s", diff)
	}
	if len(d.Errors) != 1 || d.Errors[0].Row != 2 || d.Errors[0].Field != "base_commit" {
		t.Errorf("errors %v, want row 2 base_commit", d.Errors)
	}
}

func TestDetectKind(t *testing.T) {
	t.Parallel()
	inst := writeFile(t, "i.jsonl", `{"instance_id": "a__b-1", "repo": "a/b", "base_commit": "c", "patch": ""}`+"\n")
	task := writeFile(t, "t.jsonl", `{"instance_id": "t1", "repo": "a/b", "description": "add docstrings", "aspect": "DOC", "files": []}`+"\n")
	for p, want := range map[string]Kind{inst: KindInstances, task: KindNFITasks, "testdata/polybench.csv": KindInstances} {
		got, err := DetectKind(p)
		if err != nil || got != want {
			t.Errorf("DetectKind(%s) = %v, %v; want %v", p, got, err, want)
		}
	}
	if _, err := DetectKind("x.txt"); err == nil {
		t.Error("DetectKind(x.txt): want an unknown-format error")
	}
}

// FuzzDecodeCSVRow checks that any CSV content loads without panic, that
// every data row ends up either as an instance or as an error naming it, and
// that good instances satisfy the validation invariants.
func FuzzDecodeCSVRow(f *testing.F) {
	head := "instance_id,repo,base_commit,F2P,P2P,language,modified_nodes\n"
	f.Add(head + "a__b-1,a/b,c1,\"['x', \"\"y\"\"]\",[],py,[]\n")
	f.Add(head + "a__b-1,a/b,c1,['x'],\"[\n]\",java,\"[\"\"n\"\"]\"\n")
	f.Add(head + "a__b-1,a/b\n\"unterminated\n")
	f.Fuzz(func(t *testing.T, content string) {
		rows, err := readCSVFrom("f.csv", strings.NewReader(content))
		if err != nil {
			return
		}
		d := buildDataset("f.csv", FormatCSV, rows, nil)
		bad := map[int]bool{}
		for _, e := range d.Errors {
			if e.Row < 1 || e.File != "f.csv" {
				t.Fatalf("error without a row: %v", e)
			}
			bad[e.Row] = true
		}
		for _, in := range d.Instances {
			if bad[in.Row] {
				t.Fatalf("row %d is both an instance and an error", in.Row)
			}
			if checkInstanceID(in.InstanceID) != nil || in.BaseCommit == "" || !strings.Contains(in.Repo, "/") {
				t.Fatalf("invalid instance passed validation: %+v", in)
			}
			if in.FailToPass == nil || in.PassToPass == nil {
				t.Fatalf("nil test list in %+v", in)
			}
		}
		if len(d.Instances)+len(bad) != len(rows) {
			t.Fatalf("%d rows read, %d instances + %d bad rows", len(rows), len(d.Instances), len(bad))
		}
	})
}

// Dataset.Unread has one entry per row left out of Instances, except a
// duplicate (its instance was read from the first row), with the instance
// id, language and task category where their own field could be read.
func TestLoadUnreadRows(t *testing.T) {
	t.Parallel()
	p := writeFile(t, "d.jsonl", strings.Join([]string{
		`{"instance_id": "a__b-1", "repo": "a/b", "base_commit": "c1", "F2P": "['x']", "language": "py", "task_category": "Bug Fix"}`,
		`{"instance_id": "a__b-2", "repo": "a/b", "base_commit": "c2", "F2P": "['x", "P2P": "['y", "language": "java", "task_category": "Feature"}`,
		`{"instance_id": "a__b-1", "repo": "a/b", "base_commit": "c1", "F2P": "['x']"}`,
		`{"instance_id": "../evil", "repo": "a/b", "base_commit": "c2", "F2P": "['x']", "language": ["Go"]}`,
		`{"instance_id": "a__b-4", "repo": "a/b", "base_commit": "c4", "F2P": "['x']"`,
	}, "\n"))
	d, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Row               int
		ID, Lang, Cat     string
		LangRead, CatRead bool
		Errors            int
	}
	var got []row
	for _, u := range d.Unread {
		got = append(got, row{u.Row, u.InstanceID, u.Language, u.TaskCategory, u.LanguageRead, u.TaskCategoryRead, len(u.Errors)})
	}
	want := []row{
		{2, "a__b-2", "Java", "Feature", true, true, 2}, // two bad fields, one row
		{4, "", "", "", false, true, 2},                 // bad id and language; no task_category field
		{5, "", "", "", false, false, 1},                // not JSON: nothing read
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("unread rows (-want +got):\n%s", diff)
	}
}
