package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNFIUnreadableRowsReported: a tasks file with one good task, one row
// whose fields are wrong and one row that is not JSON, and a predictions
// file with a bad line: eval and every report format say that 2 task rows
// could not be read and 1 prediction row was rejected, and name them.
func TestNFIUnreadableRowsReported(t *testing.T) {
	t.Parallel()
	f, err := os.Open("../../examples/nfi/tasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	if !sc.Scan() {
		t.Fatal("examples/nfi/tasks.jsonl is empty")
	}
	first := sc.Text()
	f.Close()
	var row struct {
		InstanceID string `json:"instance_id"`
	}
	if err := json.Unmarshal([]byte(first), &row); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tasks := filepath.Join(dir, "tasks.jsonl")
	os.WriteFile(tasks, []byte(first+"\n"+`{"instance_id": "x-1", "files": "oops"}`+"\nnot json\n"), 0o644)
	preds := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(preds, []byte(`{"instance_id": "`+row.InstanceID+`", "model_name_or_path": "m", "files": {}}`+"\n{broken\n"), 0o644)
	out := filepath.Join(dir, "out")
	stdout, stderr, code := runCLI(t, "eval", "--dataset", tasks, "--predictions", preds, "--out", out)
	if code != ExitOK {
		t.Fatalf("eval: exit %d\n%s\n%s", code, stdout, stderr)
	}
	want := "2 task rows could not be read and 1 prediction rows were rejected"
	if !strings.Contains(stdout, want) || !strings.Contains(stdout, "tasks.jsonl: row 3 (line 3)") {
		t.Errorf("eval summary lacks %q and row 3:\n%s", want, stdout)
	}
	for _, format := range []string{"text", "markdown", "html"} {
		s, e, c := runCLI(t, "report", "--format", format, out)
		if c != ExitOK || !strings.Contains(s, want) || !strings.Contains(s, "preds.jsonl") {
			t.Errorf("report --format %s: exit %d, lacks %q or preds.jsonl\n%s\n%s", format, c, want, s, e)
		}
	}
	s, _, _ := runCLI(t, "report", "--format", "json", out)
	var doc struct {
		UnreadableRows      int      `json:"unreadable_rows"`
		RejectedPredictions int      `json:"rejected_predictions"`
		InputErrors         []string `json:"input_errors"`
	}
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatalf("report json: %v\n%s", err, s)
	}
	if doc.UnreadableRows != 2 || doc.RejectedPredictions != 1 || len(doc.InputErrors) < 3 {
		t.Errorf("json: unreadable %d rejected %d errors %d, want 2 1 >=3", doc.UnreadableRows, doc.RejectedPredictions, len(doc.InputErrors))
	}
}
