package report

import (
	"math"
	"testing"

	"github.com/polynfi/polynfi/runrecord"
)

// TestPassAtKEstimate checks the estimator against C(n, k) computed
// directly (math/big-free small cases) and its edge cases.
func TestPassAtKEstimate(t *testing.T) {
	t.Parallel()
	binom := func(n, k int) float64 {
		if k < 0 || k > n {
			return 0
		}
		r := 1.0
		for i := 1; i <= k; i++ {
			r = r * float64(n-k+i) / float64(i)
		}
		return r
	}
	for n := 1; n <= 10; n++ {
		for c := 0; c <= n; c++ {
			for k := 1; k <= n; k++ {
				got, ok := passAtKEstimate(n, c, k)
				want := 1 - binom(n-c, k)/binom(n, k)
				if !ok || math.Abs(got-want) > 1e-12 {
					t.Errorf("pass@%d (n=%d, c=%d) = %v, want %v", k, n, c, got, want)
				}
			}
		}
	}
	if _, ok := passAtKEstimate(3, 1, 4); ok {
		t.Error("k > n must be undefined")
	}
	if v, _ := passAtKEstimate(5, 2, 1); math.Abs(v-0.4) > 1e-12 {
		t.Errorf("pass@1 = %v, want c/n = 0.4", v)
	}
}

func TestHarnessPassAtK(t *testing.T) {
	t.Parallel()
	rec := func(model, id string, run int, ok bool) *runrecord.Record {
		return &runrecord.Record{Key: runrecord.Key{InstanceID: id, Model: model, Run: run}, Resolved: ok}
	}
	recs := []*runrecord.Record{
		rec("a", "x", 0, true), rec("a", "x", 1, false), rec("a", "x", 2, false), // c=1 of 3
		rec("a", "y", 0, true), rec("a", "y", 1, true), rec("a", "y", 2, true), // c=3 of 3
		rec("b", "x", 0, true), // one run only: no row
	}
	rows := harnessPassAtK(recs)
	if len(rows) != 1 || rows[0].Model != "a" || rows[0].MaxRuns != 3 || len(rows[0].PassAtK) != 3 {
		t.Fatalf("rows %+v", rows)
	}
	want := []float64{(1.0/3 + 1) / 2, (2.0/3 + 1) / 2, 1}
	for k, w := range want {
		if c := rows[0].PassAtK[k]; !c.OK || c.N != 2 || math.Abs(c.Value-w) > 1e-12 {
			t.Errorf("pass@%d = %+v, want %v over 2 instances", k+1, c, w)
		}
	}
}
