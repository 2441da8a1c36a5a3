package dataset

import (
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi/aspect"
)

func TestLoadNFITasks(t *testing.T) {
	good := `{"instance_id":"a__b-1","repo":"a/b","description":"d","aspect":"DOC","scope":"single","files":[{"path":"m.py","before":"x=1\n","after":"\"\"\"M.\"\"\"\nx=1\n"}],"tests":[{"path":"tests/test_m.py","content":"def test(): pass\n"}],"test_command":"pytest"}`
	lines := []string{
		good,
		`{"instance_id":"a__b-2","aspect":"XYZ","scope":"single","files":[{"path":"m.py","before":"","after":""}],"test_command":"pytest"}`,
		`{"instance_id":"a__b-3","aspect":"ERR","scope":"multi","files":[{"path":"../etc/passwd","before":"","after":""}],"test_command":"pytest"}`,
		`{"instance_id":"a__b-4","aspect":"LOG","scope":"single","files":"not json","test_command":"pytest"}`,
		`{not json`,
		strings.Replace(good, "a__b-1", "a__b-1", 1),
	}
	p := writeFile(t, "tasks.jsonl", strings.Join(lines, "\n")+"\n")
	ts, err := LoadNFITasks(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.Tasks) != 1 || ts.Tasks[0].InstanceID != "a__b-1" || ts.Tasks[0].Aspect != aspect.Documentation || ts.Tasks[0].Row != 1 {
		t.Fatalf("tasks: got %+v", ts.Tasks)
	}
	want := map[int]string{2: "aspect", 3: "files[0].path", 4: "files", 5: "", 6: "instance_id"}
	got := map[int]string{}
	for _, e := range ts.Errors {
		if !strings.Contains(e.Error(), p) {
			t.Errorf("error does not name the file: %v", e)
		}
		got[e.Row] = e.Field
	}
	for row, field := range want {
		if f, ok := got[row]; !ok || f != field {
			t.Errorf("row %d: got field %q (present %v), want %q; errors: %v", row, f, ok, field, ts.Errors)
		}
	}
}

func TestCheckRelPath(t *testing.T) {
	for p, ok := range map[string]bool{"a/b.py": true, "b.py": true, "": false, "/etc/x": false, "../x": false, "a/../../x": false, "a//b": false, "./a": false, `a\b`: false} {
		if err := CheckRelPath(p); (err == nil) != ok {
			t.Errorf("CheckRelPath(%q) = %v, want ok=%v", p, err, ok)
		}
	}
}
