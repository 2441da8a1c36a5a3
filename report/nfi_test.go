package report

import (
	"bytes"
	"math"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfirecord"
)

func im(doc, errh float64) nfi.Improvement {
	return nfi.Improve(nfi.NewScores(map[nfi.Aspect]float64{nfi.Documentation: 0, nfi.ErrorHandling: 0, nfi.LibraryConstraints: 0, nfi.CodingStyle: 0, nfi.LogicPatterns: 0}),
		nfi.NewScores(map[nfi.Aspect]float64{nfi.Documentation: doc, nfi.ErrorHandling: errh, nfi.LibraryConstraints: 0, nfi.CodingStyle: 0, nfi.LogicPatterns: 0}))
}

func fp(v float64) *float64 { return &v }
func ip(v int64) *int64     { return &v }

func rec(agent, task, scope string, run int, valid, correct bool, doc, errh float64, human nfi.Improvement) nfirecord.Record {
	r := nfirecord.Record{Model: agent, InstanceID: task, Scope: scope, Run: run, Valid: valid, FunctionallyCorrect: correct, Human: human}
	if correct {
		v := im(doc, errh)
		r.Improvement = &v
	}
	return r
}

// The expected numbers below were worked out by hand:
//
//	Human: t1 (single) DOC +0.10; t2 (multi) ERR +0.20 → DOC +5.0, ERR +10.0 pp.
//	A: t1 r0 correct DOC .20; t1 r1 correct DOC .10; t2 r0 valid, tests fail; t2 r1 invalid.
//	   valid 3/4 = 75.0 %, pass 2/4 = 50.0 %, DOC (.20+.10)/2 = +15.0 vs human on the
//	   same runs (.10+.10)/2 → "+"; ERR 0 vs 0 → "+". Single DOC +15.0, Multi –.
//	   Consistency: both tasks same verdict (2/2); DOC std of {.20,.10} = .05 → 5.0.
//	   Cost: durations 10,20,30,40 → mean 25, median 25; tokens 1000,3000,2000,4000 →
//	   mean 2500, median 2500; gain 20+10 = 30 pp over 10k tokens → 3.00 pp/1k.
//	B: t1 r0 correct DOC .05; t1 r1 tests fail; t2 r0 correct DOC −.10, ERR .30.
//	   valid 3/3 = 100.0 %, pass 2/3 = 66.7 %; DOC (.05−.10)/2 = −2.5 vs human
//	   (.10+0)/2 = 5.0 → "−"; ERR (0+.30)/2 = +15.0 vs (0+.20)/2 = 10.0 → "+".
//	   Table 4: S DOC +5.0 ERR +0.0; M DOC −10.0 ERR +30.0; S−M DOC +15.0 ERR −30.0.
//	   Consistency: t1 verdicts differ, t2 one run → 1/2; no task with 2 correct runs → –.
func TestBuildNFIByHand(t *testing.T) {
	h1, h2 := im(0.10, 0), im(0, 0.20)
	a := []nfirecord.Record{
		rec("A", "t1", "single", 0, true, true, 0.20, 0, h1),
		rec("A", "t1", "single", 1, true, true, 0.10, 0, h1),
		rec("A", "t2", "multi", 0, true, false, 0, 0, h2),
		rec("A", "t2", "multi", 1, false, false, 0, 0, h2),
	}
	for i, d := range []float64{10, 20, 30, 40} {
		a[i].DurationS = fp(d)
	}
	for i, n := range []int64{1000, 3000, 2000, 4000} {
		a[i].TokensIn = ip(n)
	}
	b := []nfirecord.Record{
		rec("B", "t1", "single", 0, true, true, 0.05, 0, h1),
		rec("B", "t1", "single", 1, true, false, 0, 0, h1),
		rec("B", "t2", "multi", 0, true, true, -0.10, 0.30, h2),
	}
	rep := BuildNFI(append(b, a...))
	tables := rep.Tables()
	want3 := [][]string{
		{"Human Reference", "2", "100.0", "–", "+5.0", "+10.0", "+0.0", "+0.0", "+0.0"},
		{"A", "4", "75.0", "50.0", "+15.0⁺", "+0.0⁺", "+0.0⁺", "+0.0⁺", "+0.0⁺"},
		{"B", "3", "100.0", "66.7", "-2.5⁻*", "+15.0⁺", "+0.0⁺", "+0.0⁺", "+0.0⁺"},
	}
	checkRows(t, "table3", tables[0].Rows, want3)
	want4 := [][]string{
		{"Human Reference", "S", "+10.0", "+0.0", "+0.0", "+0.0", "+0.0"},
		{"Human Reference", "M", "+0.0", "+20.0", "+0.0", "+0.0", "+0.0"},
		{"Human Reference", "S − M", "+10.0", "-20.0", "+0.0", "+0.0", "+0.0"},
		{"A", "S", "+15.0", "+0.0", "+0.0", "+0.0", "+0.0"},
		{"A", "M", "–", "–", "–", "–", "–"},
		{"A", "S − M", "–", "–", "–", "–", "–"},
		{"B", "S", "+5.0", "+0.0", "+0.0", "+0.0", "+0.0"},
		{"B", "M", "-10.0", "+30.0", "+0.0", "+0.0", "+0.0"},
		{"B", "S − M", "+15.0", "-30.0", "+0.0", "+0.0", "+0.0"},
	}
	checkRows(t, "table4", tables[1].Rows, want4)
	wantC := [][]string{
		{"A", "2", "2", "5.0", "0.0", "0.0", "0.0", "0.0", "2/2"},
		{"B", "2", "2", "–", "–", "–", "–", "–", "1/2"},
	}
	checkRows(t, "consistency", tables[2].Rows, wantC)
	wantCost := [][]string{
		{"A", "25.0", "25.0", "2500", "2500", "–", "3.00"},
		{"B", "–", "–", "–", "–", "–", "–"},
	}
	checkRows(t, "cost", tables[3].Rows, wantCost)
	if got := rep.Table3[1].Mean[0].Value; math.Abs(got-0.15) > 1e-12 {
		t.Errorf("A mean DOC: got %v, want 0.15", got)
	}
	// Rendering is deterministic: record order does not matter.
	rep2 := BuildNFI(append(a, b...))
	var x, y bytes.Buffer
	WriteText(&x, rep.Tables()...)
	WriteText(&y, rep2.Tables()...)
	if x.String() != y.String() {
		t.Error("rendering depends on record order")
	}
}

func checkRows(t *testing.T, name string, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d rows, want %d:\n%q", name, len(got), len(want), got)
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Errorf("%s row %d: got %q, want %q", name, i, got[i], want[i])
			continue
		}
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Errorf("%s row %d col %d: got %q, want %q", name, i, j, got[i][j], want[i][j])
			}
		}
	}
}

// "The NFI suite's Human Reference row always shows Func. Pass 100.0, even
// when the reference failed its tests in that run."
func TestHumanReferenceFuncPassMeasured(t *testing.T) {
	h := im(0.10, 0)
	recs := []nfirecord.Record{
		rec("gold", "t1", "single", 0, true, true, 0.10, 0, h),
		rec("gold", "t2", "single", 0, true, false, 0, 0, h),
		rec("A", "t1", "single", 0, true, true, 0.10, 0, h),
	}
	rep := BuildNFI(recs)
	if got := rep.Tables()[0].Rows[0]; got[0] != HumanReference || got[3] != "50.0" {
		t.Errorf("human reference row %q, want Func. Pass 50.0 (1 of 2 gold runs passed)", got)
	}
	if c := rep.Table3[0].PassCI; !c.OK || c.Lo > 0.5 || c.Hi < 0.5 {
		t.Errorf("human pass CI %+v", c)
	}
}

// TestMarkBaselinesTable: a reader sees what each ⁺/⁻ was compared with.
// Worked by hand: Human t1 DOC +10.0, t2 ERR +20.0 pp (row: DOC +5.0).
// A is correct only on t1 (DOC .20): mean +20.0 vs the Human Reference on
// the same pair +10.0 (not the row's +5.0), difference +10.0, mark ⁺.
// ERR: A 0.0 vs Human on t1 0.0, difference +0.0, mark ⁺.
func TestMarkBaselinesTable(t *testing.T) {
	h1, h2 := im(0.10, 0), im(0, 0.20)
	rep := BuildNFI([]nfirecord.Record{
		rec("A", "t1", "single", 0, true, true, 0.20, 0, h1),
		rec("A", "t2", "multi", 0, true, false, 0, 0, h2),
	})
	var tm *Table
	tables := rep.Tables()
	for i := range tables {
		if tables[i].ID == "nfi-mark-baselines" {
			tm = &tables[i]
		}
	}
	if tm == nil {
		t.Fatal("no table of the marks' baselines")
	}
	got := map[string][]string{}
	for _, r := range tm.Rows {
		got[r[0]+" "+r[1]] = r[2:5]
	}
	for k, want := range map[string][]string{
		"A DOC": {"+20.0", "+10.0", "+10.0"},
		"A ERR": {"+0.0", "+0.0", "+0.0"},
	} {
		if g := got[k]; len(g) != 3 || g[0] != want[0] || g[1] != want[1] || g[2] != want[2] {
			t.Errorf("%s: got %v, want %v (agent mean, I_p(h) same tasks, difference)", k, g, want)
		}
	}
	for _, r := range tm.Rows {
		if r[0] == HumanReference {
			t.Errorf("the Human Reference has no mark, got row %v", r)
		}
	}
}
