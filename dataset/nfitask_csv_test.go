package dataset

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestNFITaskCSVKeepsLists: a multi-file task converted to CSV keeps its
// candidates as a list and its improvement as an object (JSON text in
// their cells), as files and tests are.
func TestNFITaskCSVKeepsLists(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tasks.csv")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.Write([]string{"instance_id", "repo", "description", "aspect", "scope", "files", "test_command", "candidates", "improvement"})
	w.Write([]string{"demo__m-1-doc", "demo/m", "Document.", "DOC", "multi",
		`[{"path":"a.py","before":"x = 1\n","after":"\"\"\"A.\"\"\"\nx = 1\n"},{"path":"b.py","before":"y = 1\n","after":"\"\"\"B.\"\"\"\ny = 1\n"}]`,
		"pytest", `["demo/m@7f71100c6b11:a.py","demo/m@7f71100c6b11:b.py"]`, `{"DOC":0.1,"ERR":0}`})
	w.Flush()
	f.Close()
	ts, err := LoadNFITasks(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.Errors) > 0 || len(ts.Tasks) != 1 {
		t.Fatalf("errors %v, %d tasks", ts.Errors, len(ts.Tasks))
	}
	if want := []string{"demo/m@7f71100c6b11:a.py", "demo/m@7f71100c6b11:b.py"}; !reflect.DeepEqual(ts.Tasks[0].Candidates, want) {
		t.Errorf("candidates %q, want %q", ts.Tasks[0].Candidates, want)
	}
	if ts.Tasks[0].Improvement["DOC"] != 0.1 {
		t.Errorf("improvement %v", ts.Tasks[0].Improvement)
	}
}
