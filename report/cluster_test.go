package report

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/polynfi/polynfi/nfirecord"
)

// Worked by hand: two clusters, one of three 1s and one of three 0s. The
// cluster bootstrap draws two clusters: mean 0 with probability 1/4, 1/2
// with 1/2, 1 with 1/4, so its 2.5th and 97.5th percentiles are 0 and 1.
// Resampling the six values one by one gives mean 0 only with probability
// 1/2^6 < 2.5%: a narrower interval that treats the runs as independent.
func TestClusterBootstrapMean(t *testing.T) {
	xs := []float64{1, 1, 1, 0, 0, 0}
	cl := []string{"a", "a", "a", "b", "b", "b"}
	if got := clusterBootstrapMean(xs, cl, 1); !got.OK || got.Lo != 0 || got.Hi != 1 {
		t.Errorf("clustered %+v, want [0, 1]", got)
	}
	// Two clusters are fewer than MinClusters: no interval, a reason, and
	// JSON lo/hi null.
	got := ClusterBootstrapMean(xs, cl)
	if got.OK || got.Reason != "too few instances (2)" {
		t.Errorf("2 clusters: %+v, want no interval, too few instances (2)", got)
	}
	if b, _ := json.Marshal(got); string(b) != `{"lo":null,"hi":null,"ok":false,"reason":"too few instances (2)"}` {
		t.Errorf("2 clusters JSON %s", b)
	}
	// One instance with 2 of 3 runs resolved gave the zero-width 66.7–66.7%.
	if one := ClusterBootstrapMean([]float64{1, 1, 0}, []string{"a", "a", "a"}); one.OK || ciPercent(one) != "too few instances (1)" {
		t.Errorf("1 cluster: %+v %q", one, ciPercent(one))
	}
	five := ClusterBootstrapMean([]float64{1, 1, 0, 0, 1, 0, 1, 1, 0, 0}, []string{"a", "a", "b", "b", "c", "c", "d", "d", "e", "e"})
	if !five.OK || five.Hi <= five.Lo {
		t.Errorf("5 clusters: %+v, want an interval", five)
	}
	if naive := BootstrapMean(xs); naive.Lo <= 0 || naive.Hi >= 1 {
		t.Errorf("per-value bootstrap %+v: expected narrower than [0, 1]", naive)
	}
	// One value per cluster: the plain bootstrap.
	if a, b := ClusterBootstrapMean([]float64{1, 2, 3}, []string{"x", "y", "z"}), BootstrapMean([]float64{1, 2, 3}); a != b {
		t.Errorf("singleton clusters %+v, plain %+v", a, b)
	}
	// The clustered sign test: 5 clusters for A, 1 for B: 2·(1+6)/64.
	if p := ClusteredSignTest(5, 1); math.Abs(p-14.0/64) > 1e-12 {
		t.Errorf("sign test p = %v, want 14/64", p)
	}
}

// "the Table 3 bootstrap and the headline Wilson CI treat repeated runs of
// one task as independent": an agent whose 3 runs of t1 all gain DOC +30 pp
// and whose 3 runs of t2 all gain 0 (the Human Reference 0 on both), with 3
// invalid runs of t3. By task, the DOC mean +15 pp rests on two tasks: its
// cluster interval is [0, 30] pp (worked as in TestClusterBootstrapMean),
// so the ⁺ mark is not supported; per run the interval excluded 0 and the
// mark was starred. Valid 6/9: the cluster interval over tasks valid
// 1, 1, 0 draws t3 three times with probability 1/27 > 2.5% and never t3
// with 8/27: [0, 1], where Wilson(6, 9) is [0.35, 0.88].
func TestNFITable3ClusteredByTask(t *testing.T) {
	h := im(0, 0)
	var rs []nfirecord.Record
	for run := 0; run < 3; run++ {
		rs = append(rs, rec("C", "t1", "single", run, true, true, 0.30, 0, h),
			rec("C", "t2", "single", run, true, true, 0, 0, h),
			rec("C", "t3", "single", run, false, false, 0, 0, h))
	}
	rep := BuildNFI(rs)
	var row Table3Row
	for _, r := range rep.Table3 {
		if r.Agent == "C" {
			row = r
		}
	}
	if !row.Clustered || math.Abs(row.Mean[0].Value-0.15) > 1e-12 || row.Mark[0] != "⁺" {
		t.Fatalf("row %+v", row)
	}
	if c := row.MeanCI[0]; c.OK || c.Reason != "too few instances (2)" {
		t.Errorf("DOC mean interval %+v, want none: too few instances (2) (MinClusters)", c)
	}
	if c := clusterBootstrapMean([]float64{0.30, 0.30, 0.30, 0, 0, 0}, []string{"t1", "t1", "t1", "t2", "t2", "t2"}, 1); !c.OK || math.Abs(c.Lo) > 1e-12 || math.Abs(c.Hi-0.30) > 1e-12 {
		t.Errorf("DOC mean interval without the floor %+v, want [0, 0.30]", c)
	}
	if row.Supported[0] {
		t.Errorf("DOC mark supported with interval %+v: two tasks cannot support it", row.DiffCI[0])
	}
	if c := row.ValidCI; c.OK || c.Reason != "too few instances (3)" {
		t.Errorf("valid interval %+v, want none: too few instances (3) (cluster bootstrap floor, not Wilson)", c)
	}
	// One run per task: Wilson, as before.
	one := BuildNFI([]nfirecord.Record{rec("D", "t1", "single", 0, true, true, 0.30, 0, h), rec("D", "t2", "single", 0, false, false, 0, 0, h)})
	for _, r := range one.Table3 {
		if r.Agent == "D" && (r.Clustered || r.ValidCI != Wilson(1, 2)) {
			t.Errorf("single runs: clustered %v, valid CI %+v", r.Clustered, r.ValidCI)
		}
	}
}

// TestBootstrapIgnoresInputOrder: one definition gives one number. The
// same 8 per-instance F1 values gathered in two orders (as a full run and a
// metrics-only run gather them) give the same bootstrap interval, and the
// same clustered values in two orders give the same cluster interval.
func TestBootstrapIgnoresInputOrder(t *testing.T) {
	a := []float64{0, 0, 0, 0.5, 1, 0, 0, 0.5}
	b := []float64{0.5, 0, 1, 0, 0, 0.5, 0, 0}
	if x, y := BootstrapMean(a), BootstrapMean(b); x != y {
		t.Errorf("BootstrapMean depends on order: %+v vs %+v", x, y)
	}
	xs := []float64{1, 0, 1, 0, 0, 0.5, 1, 1, 0.25, 0, 1, 0.75, 0.1, 0.2, 0.9, 0.3}
	cl := []string{"a", "a", "a", "b", "b", "b", "c", "c", "c", "d", "d", "d", "e", "e", "e", "f"}
	rx, rc := slices.Clone(xs), slices.Clone(cl)
	slices.Reverse(rx)
	slices.Reverse(rc)
	if x, y := ClusterBootstrapMean(xs, cl), ClusterBootstrapMean(rx, rc); x != y {
		t.Errorf("ClusterBootstrapMean depends on order: %+v vs %+v", x, y)
	}
	// Relabelled clusters in a different first-appearance order.
	cl2 := []string{"z", "z", "z", "y", "y", "y", "x", "x", "x", "w", "w", "w", "v", "v", "v", "u"}
	perm := []int{15, 9, 10, 11, 3, 4, 5, 12, 13, 14, 6, 7, 8, 0, 1, 2}
	px, pc := make([]float64, len(xs)), make([]string, len(xs))
	for i, j := range perm {
		px[i], pc[i] = xs[j], cl2[j]
	}
	if x, y := ClusterBootstrapMean(xs, cl), ClusterBootstrapMean(px, pc); x != y {
		t.Errorf("ClusterBootstrapMean depends on cluster order: %+v vs %+v", x, y)
	}
}
