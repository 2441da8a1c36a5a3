package dataset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPredictionNamesMustBeStrings: a number (or boolean) given as
// model_name_or_path or instance_id is rejected with the file, line and
// field, not taken as the name "123"; null stays allowed.
func TestPredictionNamesMustBeStrings(t *testing.T) {
	p := filepath.Join(t.TempDir(), "preds.jsonl")
	body := `{"instance_id":"a__b-1","model_name_or_path":"ok","model_patch":""}
{"instance_id":"a__b-2","model_name_or_path":123,"model_patch":""}
{"instance_id":"a__b-3","model_name_or_path":true,"model_patch":""}
{"instance_id":7,"model_name_or_path":"ok","model_patch":""}
`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ps, err := LoadPredictions(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.Predictions) != 1 || ps.Predictions[0].InstanceID != "a__b-1" {
		t.Errorf("accepted %+v", ps.Predictions)
	}
	var msgs []string
	for _, e := range ps.Errors {
		msgs = append(msgs, e.Error())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		p + ": row 2 (line 2) [a__b-2]: field model_name_or_path: want the model's name as a string, got a number",
		p + ": row 3 (line 3) [a__b-3]: field model_name_or_path: want the model's name as a string, got a boolean",
		"row 4 (line 4)", "field instance_id: want a string, got a number",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("%q not in\n%s", want, all)
		}
	}
	if strings.Contains(all, "field instance_id: missing") {
		t.Errorf("a non-string instance_id is also called missing:\n%s", all)
	}
}
