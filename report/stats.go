package report

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

// Z95 is the standard normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Interval is a confidence interval [Lo, Hi] around an estimate, in the
// estimate's unit. OK is false when there was nothing to estimate from;
// Reason, when set, says why there is no interval (then OK is false and
// the JSON form has "lo" and "hi" null and a "reason").
type Interval struct {
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	OK     bool    `json:"ok"`
	Reason string  `json:"reason,omitempty"`
}

// MarshalJSON writes {"lo", "hi", "ok"}, and for an interval withheld for
// a Reason {"lo": null, "hi": null, "ok": false, "reason": ...}.
func (c Interval) MarshalJSON() ([]byte, error) {
	type plain Interval
	if c.Reason == "" {
		return json.Marshal(plain(c))
	}
	return json.Marshal(struct {
		Lo     *float64 `json:"lo"`
		Hi     *float64 `json:"hi"`
		OK     bool     `json:"ok"`
		Reason string   `json:"reason"`
	}{OK: false, Reason: c.Reason})
}

// MinClusters is the fewest clusters (instances, or tasks) a cluster
// bootstrap interval is given for. With k clusters the bootstrap has at
// most C(2k−1, k) distinct resamples (1, 3, 10, 35 for k = 1..4), and every
// cluster is drawn alone k times over with probability k^(1−k) (1/2 for
// k = 2, 1/9 for 3, 1/64 for 4): the percentile interval collapses onto
// the observed clusters' own rates (one instance with 2 of 3 runs
// resolved gives 66.7–66.7%), which reads as certainty. Bootstrap
// inference with few clusters is known to over-reject (A. C. Cameron, J.
// B. Gelbach and D. L. Miller, "Bootstrap-based improvements for inference
// with clustered errors", REStat 90 (2008), studying 5 to 30 clusters); 5
// is the fewest they study and the point below which we give none.
const MinClusters = 5

// TooFewClusters is the Reason of a cluster interval withheld because the
// values fall in n < MinClusters clusters.
func TooFewClusters(n int) string {
	return fmt.Sprintf("too few instances (%d)", n)
}

// ClusterMinNote is the footnote of every clustered interval column.
var ClusterMinNote = fmt.Sprintf("A clustered interval needs at least %d instances: with fewer, the cluster bootstrap has too few distinct resamples "+
	"and collapses onto the observed instances' own rates (zero width), so it reads \"too few instances (n)\" and no error bar is drawn.", MinClusters)

// Wilson returns the 95% Wilson score interval of the rate k/n, in [0, 1];
// OK is false when n is 0.
// Source: E. B. Wilson, "Probable inference, the law of succession, and
// statistical inference", JASA 22 (1927); the form is
// (p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n), p = k/n.
func Wilson(k, n int) Interval {
	if n <= 0 {
		return Interval{}
	}
	p, nf, z := float64(k)/float64(n), float64(n), Z95
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z / d * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return Interval{Lo: max(0, c-h), Hi: min(1, c+h), OK: true}
}

// BootstrapSeed and BootstrapResamples fix every bootstrap of the reports,
// so that the same records always give the same intervals.
const (
	BootstrapSeed      = 20210707
	BootstrapResamples = 2000
)

// BootstrapMean returns the 95% percentile bootstrap interval of the mean
// of xs: BootstrapResamples resamples with replacement drawn from a PCG
// generator seeded with BootstrapSeed, and the 2.5th and 97.5th
// percentiles (nearest rank) of their means. The values are sorted before
// resampling, so the interval depends on the multiset of values only, not
// on the order the caller gathered them in (a full run and a metrics-only
// run of the same predictions give the same interval). OK is false when xs
// is empty; a single value gives a zero-width interval.
// Source: B. Efron and R. Tibshirani, An Introduction to the Bootstrap
// (1993), ch. 13 (percentile interval).
func BootstrapMean(xs []float64) Interval {
	if len(xs) == 0 {
		return Interval{}
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	r := rand.New(rand.NewPCG(BootstrapSeed, uint64(len(xs))))
	means := make([]float64, BootstrapResamples)
	for b := range means {
		s := 0.0
		for range xs {
			s += xs[r.IntN(len(xs))]
		}
		means[b] = s / float64(len(xs))
	}
	sort.Float64s(means)
	lo := means[int(math.Floor(0.025*float64(len(means))))]
	hi := means[int(math.Ceil(0.975*float64(len(means))))-1]
	return Interval{Lo: lo, Hi: hi, OK: true}
}

// PassAtK is the unbiased estimator of pass@k from n runs of which c
// passed: 1 − C(n−c, k)/C(n, k), computed as 1 − ∏_{i=n−c+1}^{n} (1 − k/i)
// for numerical stability. ok is false when k < 1 or n < k.
// Source: M. Chen et al., "Evaluating Large Language Models Trained on
// Code" (2021), §2.1 and its Figure 3.
func PassAtK(n, c, k int) (float64, bool) {
	if k < 1 || n < k || c < 0 || c > n {
		return 0, false
	}
	if n-c < k {
		return 1, true
	}
	prod := 1.0
	for i := n - c + 1; i <= n; i++ {
		prod *= 1 - float64(k)/float64(i)
	}
	return 1 - prod, true
}

// McNemarExact is the two-sided exact (binomial) McNemar test of paired
// binary outcomes: b units where only A succeeded, c where only B did.
// Under the null each discordant unit is A-only with probability 1/2, so
// p = min(1, 2·Σ_{i=0}^{min(b,c)} C(b+c, i)/2^(b+c)); p is 1 when b+c = 0.
// Source: Q. McNemar, Psychometrika 12 (1947); the exact form as in
// statsmodels' mcnemar(exact=True).
func McNemarExact(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	k := min(b, c)
	// Σ C(n, i) / 2^n via log-gamma for large n.
	sum := 0.0
	for i := 0; i <= k; i++ {
		lg := lgamma(n+1) - lgamma(i+1) - lgamma(n-i+1) - float64(n)*math.Ln2
		sum += math.Exp(lg)
	}
	return min(1, 2*sum)
}

func lgamma(x int) float64 {
	v, _ := math.Lgamma(float64(x))
	return v
}

// Repeated reports whether some cluster (task) labels more than one value:
// the values are then repeated runs, not independent draws.
func Repeated(clusters []string) bool {
	seen := map[string]bool{}
	for _, c := range clusters {
		if seen[c] {
			return true
		}
		seen[c] = true
	}
	return false
}

// ClusterBootstrapMean returns the 95% percentile cluster bootstrap
// interval of the mean of xs, where clusters[i] is the cluster (the task
// or instance) of xs[i]: each of BootstrapResamples resamples draws as
// many clusters as there are, with replacement, from a PCG generator
// seeded with BootstrapSeed, and takes the mean of every value of the
// drawn clusters (the ratio estimator: a rate when xs are 0/1). Runs of
// one task are not independent, and resampling them one by one
// understates the spread; resampling whole tasks does not. When every
// cluster holds one value it is BootstrapMean(xs). The clusters are put in
// a canonical order before resampling (by their sorted values, then by
// label), so the interval depends on which values share a cluster, not on
// the order of xs. OK is false when xs is empty; len(clusters) must equal
// len(xs). When the values repeat within clusters but fall in fewer than
// MinClusters clusters there is no interval: OK is false and Reason is
// TooFewClusters(n).
// Source: A. C. Davison and D. V. Hinkley, Bootstrap Methods and their
// Application (1997), §3.8 (resampling the top-level units of
// hierarchical data); B. Efron and R. Tibshirani (1993), ch. 13.
func ClusterBootstrapMean(xs []float64, clusters []string) Interval {
	return clusterBootstrapMean(xs, clusters, MinClusters)
}

// clusterBootstrapMean is ClusterBootstrapMean with the floor on the
// number of clusters given (1: none, for the worked examples of tests).
func clusterBootstrapMean(xs []float64, clusters []string, minClusters int) Interval {
	if len(xs) == 0 || len(clusters) != len(xs) {
		return Interval{}
	}
	if !Repeated(clusters) {
		return BootstrapMean(xs)
	}
	// Clusters in a canonical order: the same values in the same clusters
	// give the same interval whatever order they came in.
	idx := map[string]int{}
	var groups []clusterGroup
	for i, c := range clusters {
		k, ok := idx[c]
		if !ok {
			k = len(groups)
			idx[c] = k
			groups = append(groups, clusterGroup{label: c})
		}
		groups[k].vals = append(groups[k].vals, xs[i])
	}
	for _, g := range groups {
		slices.Sort(g.vals)
	}
	slices.SortFunc(groups, func(a, b clusterGroup) int {
		if c := slices.Compare(a.vals, b.vals); c != 0 {
			return c
		}
		return strings.Compare(a.label, b.label)
	})
	if len(groups) < minClusters {
		return Interval{Reason: TooFewClusters(len(groups))}
	}
	return clusterBootstrap(xs, groups)
}

// clusterBootstrap is ClusterBootstrapMean's resampling over groups (in
// their canonical order), without the MinClusters floor.
func clusterBootstrap(xs []float64, groups []clusterGroup) Interval {
	sums, counts := make([]float64, len(groups)), make([]int, len(groups))
	for k, g := range groups {
		for _, v := range g.vals {
			sums[k] += v
		}
		counts[k] = len(g.vals)
	}
	r := rand.New(rand.NewPCG(BootstrapSeed, uint64(len(xs))<<20|uint64(len(sums))))
	means := make([]float64, BootstrapResamples)
	for b := range means {
		s, n := 0.0, 0
		for range sums {
			k := r.IntN(len(sums))
			s += sums[k]
			n += counts[k]
		}
		means[b] = s / float64(n)
	}
	sort.Float64s(means)
	lo := means[int(math.Floor(0.025*float64(len(means))))]
	hi := means[int(math.Ceil(0.975*float64(len(means))))-1]
	return Interval{Lo: lo, Hi: hi, OK: true}
}

// clusterGroup is one cluster's label and its values, sorted.
type clusterGroup struct {
	label string
	vals  []float64
}

// ClusteredSignTest is the paired test of success over clusters with
// repeated runs: for each cluster (task) it compares A's success rate over
// its paired runs with B's; aBetter and bBetter count the clusters where
// A's, respectively B's, rate is higher (ties are concordant), and p is
// the two-sided exact sign test of the two counts, McNemarExact(aBetter,
// bBetter). With one run per cluster it is McNemar's exact test on the
// units. Treating the runs of a task as independent pairs (McNemar on runs)
// is anti-conservative when runs of one task agree with each other.
// Source: the sign test (W. J. Dixon and A. M. Mood, "The statistical
// sign test", JASA 41, 1946) applied to the cluster-level differences, so
// that the cluster, not the run, is the independent unit.
func ClusteredSignTest(aBetter, bBetter int) float64 {
	return McNemarExact(aBetter, bBetter)
}
