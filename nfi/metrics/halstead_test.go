package metrics

import (
	"math"
	"testing"
)

// Expected counts are radon 6.0.1's (radon.metrics.h_visit) for the same sources.
func TestHalsteadCounts(t *testing.T) {
	tests := []struct {
		src            string
		h1, h2, n1, n2 int
	}{
		{"x = a + b * c\n", 2, 4, 2, 4},
		{"x = -1 + 1.0 + True\n", 2, 3, 3, 5},             // 1, 1.0 and True are one operand
		{"if a and b and c or not d: pass\n", 3, 6, 3, 6}, // one And over three values
		{"x += 1\ny = a < b <= c\n", 3, 5, 3, 5},
		{"def f(x=a+b):\n    return x.y + x.y\n", 1, 1, 1, 2}, // defaults are not visited
		{"z = 'a' + \"a\" + b'a'\n", 1, 3, 2, 4},
		{"w = (a or b) or c\n", 1, 4, 2, 4},
		{"v: list[int] | None = None\n", 1, 2, 1, 2},
	}
	for _, tc := range tests {
		h := HalsteadMetrics(parse(t, tc.src)).Total
		if h.H1 != tc.h1 || h.H2 != tc.h2 || h.N1 != tc.n1 || h.N2 != tc.n2 {
			t.Errorf("%q: h1 h2 N1 N2 = %d %d %d %d, want %d %d %d %d", tc.src, h.H1, h.H2, h.N1, h.N2, tc.h1, tc.h2, tc.n1, tc.n2)
		}
	}
}

func TestHalsteadReportFormulas(t *testing.T) {
	r := NewHalsteadReport(2, 4, 2, 4)
	if r.Vocabulary != 6 || r.Length != 6 {
		t.Fatalf("vocabulary %d, length %d", r.Vocabulary, r.Length)
	}
	near := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("volume", r.Volume, 6*math.Log2(6))
	near("calculated length", r.CalculatedLength, 2+4*2)
	near("difficulty", r.Difficulty, 1)
	near("effort", r.Effort, r.Volume)
	near("time", r.Time, r.Volume/18)
	near("bugs", r.Bugs, r.Volume/3000)
	if z := NewHalsteadReport(0, 0, 0, 0); z.Volume != 0 || z.Difficulty != 0 {
		t.Errorf("empty report %+v", z)
	}
}

func TestMaintainabilityIndex(t *testing.T) {
	if mi := MaintainabilityIndex(0, 5, 10, 0); mi != 100 {
		t.Errorf("zero volume: %v, want 100", mi)
	}
	if mi := MaintainabilityIndex(10, 5, 0, 0); mi != 100 {
		t.Errorf("zero lloc: %v, want 100", mi)
	}
	// radon.metrics.mi_compute(1000, 10, 100, 25)
	want := (171 - 5.2*math.Log(1000) - 0.23*10 - 16.2*math.Log(100) + 50*math.Sin(math.Sqrt(2.46*25*math.Pi/180))) * 100 / 171
	if mi := MaintainabilityIndex(1000, 10, 100, 25); math.Abs(mi-want) > 1e-12 {
		t.Errorf("mi = %v, want %v", mi, want)
	}
	if mi := MaintainabilityIndex(1e9, 500, 5000, 0); mi != 0 {
		t.Errorf("clamped mi = %v, want 0", mi)
	}
	for mi, want := range map[float64]string{100: "A", 19.01: "A", 19: "B", 9.5: "B", 9: "C", 0: "C"} {
		if got := MIRank(mi); got != want {
			t.Errorf("MIRank(%v) = %s, want %s", mi, got, want)
		}
	}
	if c := CommentPercent(Raw{SLOC: 20, Comments: 3, Multi: 2}, true); c != 25 {
		t.Errorf("comment percent %v, want 25", c)
	}
	if c := CommentPercent(Raw{SLOC: 20, Comments: 3, Multi: 2}, false); c != 15 {
		t.Errorf("comment percent without multi %v, want 15", c)
	}
}
