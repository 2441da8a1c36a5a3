package dataset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestLoadPredictionsForms(t *testing.T) {
	t.Parallel()
	a := `{"instance_id": "o__r-1", "model_name_or_path": "m", "model_patch": "diff --git a/x b/x\n", "run": 1, "duration_s": 12.5, "tokens_in": 100, "tokens_out": 20, "cost_usd": 0.01}`
	b := `{"instance_id": "o__r-2", "model_name_or_path": "m", "model_patch": null}`
	c := `{"instance_id": "o__r-3", "model_name_or_path": "m", "files": {"pkg/a.py": "x = 1\n"}}`
	forms := map[string]string{
		"p.jsonl": a + "\n" + b + "\n" + c + "\n",
		"p.json":  "[" + a + ",\n" + b + ",\n" + c + "]",
		"k.json": `{"o__r-1": ` + a + `, "o__r-2": {"model_name_or_path": "m", "model_patch": null},
		  "o__r-3": {"model_name_or_path": "m", "files": {"pkg/a.py": "x = 1\n"}}}`,
	}
	d, tin, tout, cost := 12.5, int64(100), int64(20), 0.01
	want := []Prediction{
		{InstanceID: "o__r-1", ModelNameOrPath: "m", ModelPatch: "diff --git a/x b/x\n", Run: 1, DurationS: &d, TokensIn: &tin, TokensOut: &tout, CostUSD: &cost, Row: 1},
		{InstanceID: "o__r-2", ModelNameOrPath: "m", Row: 2},
		{InstanceID: "o__r-3", ModelNameOrPath: "m", Files: map[string]string{"pkg/a.py": "x = 1\n"}, Row: 3},
	}
	for name, content := range forms {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := writeFile(t, name, content)
			ps, err := LoadPredictions(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps.Errors) > 0 {
				t.Fatalf("errors: %v", ps.Errors)
			}
			if diff := cmp.Diff(want, ps.Predictions, cmpopts.IgnoreFields(Prediction{}, "Line", "File")); diff != "" {
				t.Errorf("predictions (-want +got):\n%s", diff)
			}
			for i, p := range ps.Predictions {
				if p.File != path || name == "p.jsonl" && p.Line != i+1 {
					t.Errorf("prediction %d: file %q line %d, want %q (line %d in JSONL)", i, p.File, p.Line, path, i+1)
				}
			}
			if !ps.Predictions[1].Empty() || ps.Predictions[2].Empty() {
				t.Error("Empty(): want true for the null patch only")
			}
		})
	}
}

func TestLoadPredictionsErrors(t *testing.T) {
	t.Parallel()
	content := strings.Join([]string{
		`{"instance_id": "o__r-1", "model_name_or_path": "m", "model_patch": "p"}`,
		`{"instance_id": "o__r-1", "model_name_or_path": "m", "model_patch": "q"}`,
		`{"instance_id": "o__r-1", "model_name_or_path": "m", "model_patch": "q", "run": 1}`,
		`{"instance_id": "o__r-2", "files": {"../etc/passwd": "x"}}`,
		`{"instance_id": "o__r-3", "files": {"a.py": 3}}`,
		`{"instance_id": "o__r-4", "model_patch": "p", "files": {"a.py": "x"}}`,
		`{"instance_id": "o__r-5", "run": -1}`,
		`{"instance_id": "o__r-6", "tokens_in": "many"}`,
		`{"model_patch": "p"}`,
		`{"instance_id": "o__r-7", "files": {".git/hooks/post-checkout": "x"}}`,
	}, "\n")
	ps, err := LoadPredictions(writeFile(t, "p.jsonl", content))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.Predictions) != 2 {
		t.Errorf("got %d predictions, want 2 (o__r-1 runs 0 and 1)", len(ps.Predictions))
	}
	got := map[int]string{}
	for _, e := range ps.Errors {
		got[e.Line] = e.Field
	}
	want := map[int]string{2: "instance_id", 4: "files", 5: "files", 6: "files", 7: "run", 8: "tokens_in", 9: "instance_id", 10: "files"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("error lines→fields (-want +got):\n%s", diff)
	}
}

func TestGoldAndPatchSHA(t *testing.T) {
	t.Parallel()
	ins := []Instance{{InstanceID: "a", Patch: "p1"}, {InstanceID: "b", Patch: ""}}
	g := Gold(ins)
	if len(g) != 2 || g[0].ModelPatch != "p1" || g[0].ModelNameOrPath != GoldModel || !g[1].Empty() {
		t.Errorf("Gold = %+v", g)
	}
	p1 := Prediction{ModelPatch: "x"}
	p2 := Prediction{ModelPatch: "y"}
	f1 := Prediction{Files: map[string]string{"a": "1", "b": "2"}}
	f2 := Prediction{Files: map[string]string{"b": "2", "a": "1"}}
	f3 := Prediction{Files: map[string]string{"a": "12"}}
	if p1.PatchSHA256() == p2.PatchSHA256() || f1.PatchSHA256() != f2.PatchSHA256() || f1.PatchSHA256() == f3.PatchSHA256() {
		t.Error("PatchSHA256 must differ for different patches and not depend on map order")
	}
	if got := p1.PatchSHA256(); got != "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881" {
		t.Errorf("sha256(x) = %s", got)
	}
}

// TestPredictionFieldMistakes: a non-string model_patch and a record with
// neither model_patch nor files (a misspelt key) are row errors, not empty patches.
func TestPredictionFieldMistakes(t *testing.T) {
	p := writeFile(t, "preds.jsonl", `{"instance_id":"o__r-1","model_name_or_path":"m","model_patch":123}
{"instance_id":"o__r-2","model_name_or_path":"m","model_patchx":"diff"}
{"instance_id":"o__r-3","model_name_or_path":"m","model_patch":""}
`)
	ps, err := LoadPredictions(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.Predictions) != 1 || ps.Predictions[0].InstanceID != "o__r-3" || !ps.Predictions[0].Empty() {
		t.Fatalf("predictions: %+v", ps.Predictions)
	}
	rows := map[int]string{}
	for _, e := range ps.Errors {
		rows[e.Row] = e.Field
	}
	if rows[1] != "model_patch" || rows[2] != "model_patch" {
		t.Fatalf("errors: %v", ps.Errors)
	}
}

// TestPredictionModelNameNullOrMissing: a row whose model_name_or_path is
// null, blank or not a string is rejected naming file, row and field (it
// was accepted as a second model "", doubling the denominator); a row
// without the field takes SWE-bench's default "None", in every input form.
func TestPredictionModelNameNullOrMissing(t *testing.T) {
	p := writeFile(t, "preds.jsonl", `{"instance_id":"o__r-1","model_name_or_path":"m","model_patch":"d"}
{"instance_id":"o__r-2","model_name_or_path":null,"model_patch":"d"}
{"instance_id":"o__r-3","model_name_or_path":"  ","model_patch":"d"}
{"instance_id":"o__r-4","model_name_or_path":7,"model_patch":"d"}
{"instance_id":"o__r-5","model_patch":"d"}
`)
	ps, err := LoadPredictions(p)
	if err != nil {
		t.Fatal(err)
	}
	models := map[string]string{}
	for _, pr := range ps.Predictions {
		models[pr.InstanceID] = pr.ModelNameOrPath
	}
	if len(models) != 2 || models["o__r-1"] != "m" || models["o__r-5"] != DefaultModel || DefaultModel != "None" {
		t.Fatalf("accepted predictions: %v", models)
	}
	bad := map[int]string{}
	for _, e := range ps.Errors {
		bad[e.Row] = e.Error()
	}
	for _, row := range []int{2, 3, 4} {
		msg := bad[row]
		if !strings.Contains(msg, p) || !strings.Contains(msg, fmt.Sprintf("row %d", row)) || !strings.Contains(msg, "field model_name_or_path") {
			t.Errorf("row %d: error %q does not name file, row and field", row, msg)
		}
	}
	if len(ps.Errors) != 3 {
		t.Fatalf("errors: %v", ps.Errors)
	}
	// The keyed and list forms apply the same rule.
	k := writeFile(t, "k.json", `{"o__r-1": {"model_patch": "d"}, "o__r-2": {"model_name_or_path": null, "model_patch": "d"}}`)
	ks, err := LoadPredictions(k)
	if err != nil {
		t.Fatal(err)
	}
	if len(ks.Predictions) != 1 || ks.Predictions[0].ModelNameOrPath != "None" || len(ks.Errors) != 1 || ks.Errors[0].Field != "model_name_or_path" {
		t.Fatalf("keyed: %+v %v", ks.Predictions, ks.Errors)
	}
}
