package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestControlCharactersRejectedAtLoad: a name or id holding a control
// character (a newline, an escape sequence, a bidirectional override)
// rejects its row with the file, row, line and field named, in an error
// message that carries no control character itself; the other rows load.
func TestControlCharactersRejectedAtLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	preds := filepath.Join(dir, "preds.jsonl")
	body := `{"instance_id":"a__b-1","model_name_or_path":"ok","model_patch":""}
{"instance_id":"a__b-2","model_name_or_path":"evil\nresolved 8/8","model_patch":""}
{"instance_id":"a__b-3","model_name_or_path":"evil\u001b[2J","model_patch":""}
{"instance_id":"a__b-4\u001b]0;x\u0007","model_name_or_path":"ok","model_patch":""}
{"instance_id":"a__b-5","model_name_or_path":"left\u202eright","model_patch":""}
`
	if err := os.WriteFile(preds, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := LoadPredictions(preds)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.Predictions) != 1 || ps.Predictions[0].InstanceID != "a__b-1" {
		t.Errorf("accepted %+v, want only a__b-1", ps.Predictions)
	}
	wants := []string{
		preds + ": row 2 (line 2) [a__b-2]: field model_name_or_path: ",
		preds + ": row 3 (line 3) [a__b-3]: field model_name_or_path: ",
		preds + ": row 4 (line 4) [a__b-4\\x1b]0;x\\x07]: field instance_id: ",
		preds + ": row 5 (line 5) [a__b-5]: field model_name_or_path: ",
	}
	checkRowErrors(t, ps.Errors, wants)

	ds := filepath.Join(dir, "ds.jsonl")
	row := func(id, repo, lang string) string {
		return `{"instance_id":"` + id + `","repo":"` + repo + `","base_commit":"abc","patch":"","test_patch":"","language":"` + lang +
			`","FAIL_TO_PASS":["t"],"PASS_TO_PASS":[]}` + "\n"
	}
	if err := os.WriteFile(ds, []byte(row("o__r-1", "o/r", "Python")+row("o__r-2", `o/r\u001b[31m`, "Python")+
		row("o__r-3", "o/r", `Py\nthon`)+row("o__r-4\\u009b", "o/r", "Python")), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Load(ds)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Instances) != 1 || d.Instances[0].InstanceID != "o__r-1" {
		t.Errorf("loaded %d instances, want only o__r-1", len(d.Instances))
	}
	checkRowErrors(t, d.Errors, []string{
		ds + ": row 2 (line 2) [o__r-2]: field repo: ",
		ds + ": row 3 (line 3) [o__r-3]: field language: ",
		ds + ": row 4 (line 4) [o__r-4\\u009b]: field instance_id: ",
	})
}

func checkRowErrors(t *testing.T, errs []*RowError, wants []string) {
	t.Helper()
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	all := strings.Join(msgs, "\n")
	for _, w := range wants {
		if !strings.Contains(all, w+`"`) || !strings.Contains(all, "control character") {
			t.Errorf("%q not in\n%s", w, all)
		}
	}
	if len(errs) != len(wants) {
		t.Errorf("got %d row errors, want %d:\n%s", len(errs), len(wants), all)
	}
	for _, m := range msgs {
		if strings.ContainsAny(m, "\n\x1b\x07\u0085\u202e") {
			t.Errorf("error message carries a control character: %q", m)
		}
	}
}
