package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfirecord"
)

// CompareUnit is one unit of one side of a comparison: its pairing key
// (instance id, and run for repeated runs), whether it succeeded (resolved
// for a harness run, functionally correct for an NFI suite run), its
// outcome text, and its I_p per aspect where defined (a valid NFI delta;
// for NFI suite runs, correct runs only).
type CompareUnit struct {
	Key string
	// Instance is the instance (task) id: the cluster of repeated runs.
	Instance string
	Resolved bool
	Outcome  string
	Ip       [5]*float64
	// NotEvaluated marks a submitted unit the run has no record of (an
	// interrupted or killed run did not reach it): it is in no rate and
	// no pair.
	NotEvaluated bool
	// Unreadable marks the unit of a dataset row that could not be read or
	// cannot run (once per run of the side's model): unresolved in the
	// side's rate, as report counts it, and in no pair (it has no instance
	// to pair on).
	Unreadable bool
}

// CompareSide describes one side of a comparison.
type CompareSide struct {
	Label string `json:"label"` // run directory and model
	// Units counts the side's evaluated units (missing predictions
	// included, as unresolved): the rate's denominator. NotEvaluated
	// counts the units the run did not evaluate (NotEvaluatedIDs), in no
	// rate and no pair; Interrupted is the run's own flag (set by the
	// caller).
	Units        int `json:"units"`
	NotEvaluated int `json:"not_evaluated"`
	// UnreadableRows counts the units of dataset rows that could not be
	// read or cannot run: in Units (unresolved, as report's denominator
	// counts them, so the two commands give one rate) and in no pair.
	UnreadableRows  int      `json:"unreadable_rows"`
	NotEvaluatedIDs []string `json:"not_evaluated_ids"`
	Interrupted     bool     `json:"interrupted"`
	Resolved        int      `json:"resolved"`
	Rate            float64  `json:"rate"`
	CI              Interval `json:"ci"` // Wilson 95% (treats every unit as independent)
	// Instances counts the distinct instances of the units; ClusterCI is
	// the 95% cluster bootstrap interval of Rate resampling instances
	// (ClusterBootstrapMean), OK only when some instance has repeated runs.
	Instances int      `json:"instances"`
	ClusterCI Interval `json:"ci_cluster_bootstrap"`
}

// AspectDiff is the paired difference of mean I_p (B − A) of one aspect
// over the N paired units where both sides have a value, with its paired
// bootstrap interval (BootstrapMean of the per-unit differences).
type AspectDiff struct {
	Aspect string   `json:"aspect"`
	N      int      `json:"n"`
	MeanA  float64  `json:"mean_a"`
	MeanB  float64  `json:"mean_b"`
	Diff   float64  `json:"mean_diff"`
	CI     Interval `json:"ci"`
	// ClusterCI resamples instances instead of pairs (OK only with
	// repeated runs): the interval to read when runs repeat.
	ClusterCI Interval `json:"ci_cluster_bootstrap"`
}

// PairedRow is one paired unit of the per-instance table.
type PairedRow struct {
	Key      string `json:"key"`
	OutcomeA string `json:"outcome_a"`
	OutcomeB string `json:"outcome_b"`
	Flip     string `json:"flip,omitempty"` // "A only" or "B only" when exactly one side succeeded
}

// Comparison is `polynfi compare`: two runs of the same dataset paired
// unit by unit. The rates count every unit of each side; the paired
// statistics only the units both sides have. McNemar's exact test is on
// the discordant pairs of success (OnlyA: A succeeded and B did not;
// OnlyB the reverse). Source: McNemarExact, Wilson, BootstrapMean.
type Comparison struct {
	A        CompareSide `json:"a"`
	B        CompareSide `json:"b"`
	Paired   int         `json:"paired"`
	Both     int         `json:"both_resolved"`
	Neither  int         `json:"neither_resolved"`
	OnlyA    []string    `json:"only_a"`
	OnlyB    []string    `json:"only_b"`
	McNemarP float64     `json:"mcnemar_exact_p"`
	// PairedResolvedA and PairedResolvedB count the paired units each side
	// resolved (Both + len(OnlyA), Both + len(OnlyB)): the two rates over
	// one set of units, Paired. The sides' own rates are over their own
	// units, which differ when a side has units the other has not (an
	// interrupted run, unreadable rows, different runs).
	PairedResolvedA int          `json:"paired_resolved_a"`
	PairedResolvedB int          `json:"paired_resolved_b"`
	Aspects         []AspectDiff `json:"aspects"`
	Rows            []PairedRow  `json:"units"`
	Unpaired        []string     `json:"unpaired"` // keys on one side only
	// PairedUnit says what McNemarP pairs: "(instance, run)".
	// RepeatedRuns is true when some instance has more than one paired
	// run: the pairs are then not independent and McNemarP is
	// anti-conservative; the clustered test pairs instances instead:
	// Instances paired instances, InstancesABetter / InstancesBBetter those
	// where A's / B's resolved rate over the paired runs is higher, and
	// ClusteredP their exact sign test (ClusteredSignTest).
	PairedUnit       string   `json:"paired_unit"`
	RepeatedRuns     bool     `json:"repeated_runs"`
	Instances        int      `json:"paired_instances"`
	InstancesABetter []string `json:"instances_a_better"`
	InstancesBBetter []string `json:"instances_b_better"`
	ClusteredP       float64  `json:"clustered_sign_test_p"`
	// DatasetWarning is set when the runs were evaluated on different
	// datasets and compared anyway (--allow-different-datasets): every
	// format shows it first.
	DatasetWarning string `json:"dataset_warning,omitempty"`
	// Notices are NotEvaluatedLines, as the text, Markdown and HTML pages
	// show them under the headline ("B interrupted: 7 not evaluated, left
	// out of the pairs and of B's rate (re-run its eval to resume)"); empty
	// when both sides were evaluated in full. SetInterrupted updates them.
	Notices []string `json:"notices"`
}

// SetInterrupted records whether each side's run was interrupted (its
// manifest says the last eval call did not finish) and rewrites Notices,
// which name the reason the not-evaluated units of each side have.
func (c *Comparison) SetInterrupted(a, b bool) {
	c.A.Interrupted, c.B.Interrupted = a, b
	c.Notices = append([]string{}, c.NotEvaluatedLines()...)
}

// Compare pairs a and b by key and computes the comparison.
func Compare(labelA string, a []CompareUnit, labelB string, b []CompareUnit) Comparison {
	side := func(label string, us []CompareUnit) CompareSide {
		s := CompareSide{Label: label, NotEvaluatedIDs: []string{}}
		var xs []float64
		var cl []string
		seen := map[string]bool{}
		for _, u := range us {
			if u.Unreadable {
				s.UnreadableRows++
			}
			if u.NotEvaluated {
				s.NotEvaluated++
				s.NotEvaluatedIDs = append(s.NotEvaluatedIDs, u.Key)
				continue
			}
			s.Units++
			x := 0.0
			if u.Resolved {
				s.Resolved++
				x = 1
			}
			xs, cl = append(xs, x), append(cl, unitCluster(u))
			if !seen[unitCluster(u)] {
				seen[unitCluster(u)] = true
				s.Instances++
			}
		}
		if s.Units > 0 {
			s.Rate = float64(s.Resolved) / float64(s.Units)
		}
		s.CI = Wilson(s.Resolved, s.Units)
		if Repeated(cl) {
			s.ClusterCI = ClusterBootstrapMean(xs, cl)
		}
		return s
	}
	c := Comparison{A: side(labelA, a), B: side(labelB, b), OnlyA: []string{}, OnlyB: []string{}, Unpaired: []string{}, Rows: []PairedRow{},
		PairedUnit: "(instance, run)", InstancesABetter: []string{}, InstancesBBetter: []string{}}
	// Per paired instance: resolved runs of A and of B, and paired runs.
	type tally struct{ a, b, n int }
	var order []string
	tallies := map[string]*tally{}
	var clusters [5][]string
	var pairCl []string
	byB := map[string]CompareUnit{}
	for _, u := range b {
		if !u.Unreadable {
			byB[u.Key] = u
		}
	}
	seen := map[string]bool{}
	var diffs, va, vb [5][]float64
	sorted := append([]CompareUnit(nil), a...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
	for _, ua := range sorted {
		if ua.Unreadable {
			continue
		}
		ub, ok := byB[ua.Key]
		if !ok {
			if !ua.NotEvaluated {
				c.Unpaired = append(c.Unpaired, ua.Key)
			}
			continue
		}
		seen[ua.Key] = true
		if ua.NotEvaluated || ub.NotEvaluated {
			// Not evaluated on one side: that side says nothing about
			// the unit, which is left out of the pairs (counted in the
			// side's NotEvaluated).
			continue
		}
		c.Paired++
		cl := unitCluster(ua)
		pairCl = append(pairCl, cl)
		tl := tallies[cl]
		if tl == nil {
			tl = &tally{}
			tallies[cl] = tl
			order = append(order, cl)
		}
		tl.n++
		if ua.Resolved {
			tl.a++
		}
		if ub.Resolved {
			tl.b++
		}
		row := PairedRow{Key: ua.Key, OutcomeA: ua.Outcome, OutcomeB: ub.Outcome}
		switch {
		case ua.Resolved && ub.Resolved:
			c.Both++
		case ua.Resolved:
			c.OnlyA = append(c.OnlyA, ua.Key)
			row.Flip = "A only"
		case ub.Resolved:
			c.OnlyB = append(c.OnlyB, ua.Key)
			row.Flip = "B only"
		default:
			c.Neither++
		}
		c.Rows = append(c.Rows, row)
		for i := range nfi.Aspects {
			if ua.Ip[i] != nil && ub.Ip[i] != nil {
				diffs[i] = append(diffs[i], *ub.Ip[i]-*ua.Ip[i])
				clusters[i] = append(clusters[i], cl)
				va[i] = append(va[i], *ua.Ip[i])
				vb[i] = append(vb[i], *ub.Ip[i])
			}
		}
	}
	for _, u := range b {
		if !seen[u.Key] && !u.NotEvaluated && !u.Unreadable {
			c.Unpaired = append(c.Unpaired, u.Key)
		}
	}
	sort.Strings(c.Unpaired)
	sort.Strings(c.A.NotEvaluatedIDs)
	sort.Strings(c.B.NotEvaluatedIDs)
	c.McNemarP = McNemarExact(len(c.OnlyA), len(c.OnlyB))
	c.RepeatedRuns = Repeated(pairCl)
	c.Instances = len(order)
	for _, id := range order {
		tl := tallies[id]
		// Equal run counts on both sides (the pairs): compare the counts.
		switch {
		case tl.a > tl.b:
			c.InstancesABetter = append(c.InstancesABetter, id)
		case tl.b > tl.a:
			c.InstancesBBetter = append(c.InstancesBBetter, id)
		}
	}
	c.ClusteredP = ClusteredSignTest(len(c.InstancesABetter), len(c.InstancesBBetter))
	c.PairedResolvedA, c.PairedResolvedB = c.Both+len(c.OnlyA), c.Both+len(c.OnlyB)
	c.Notices = append([]string{}, c.NotEvaluatedLines()...)
	for i, asp := range nfi.Aspects {
		d := AspectDiff{Aspect: asp.Code(), N: len(diffs[i]), CI: BootstrapMean(diffs[i])}
		if c.RepeatedRuns {
			d.ClusterCI = ClusterBootstrapMean(diffs[i], clusters[i])
		}
		d.MeanA, d.MeanB, d.Diff = meanCell(va[i]).Value, meanCell(vb[i]).Value, meanCell(diffs[i]).Value
		c.Aspects = append(c.Aspects, d)
	}
	return c
}

// NotEvaluatedLines says, for each side with units its run did not
// evaluate, how many and that they are left out of the pairs and of its
// rate ("B interrupted: 7 not evaluated, left out of the pairs and of B's
// rate"); nil when both sides were evaluated in full.
func (c Comparison) NotEvaluatedLines() []string {
	var lines []string
	for i, s := range []CompareSide{c.A, c.B} {
		if s.NotEvaluated == 0 {
			continue
		}
		name := []string{"A", "B"}[i]
		why := "no readable record"
		if s.Interrupted {
			why = "interrupted"
		}
		lines = append(lines, fmt.Sprintf("%s %s: %d not evaluated, left out of the pairs and of %s's rate (re-run its eval to resume)", name, why, s.NotEvaluated, name))
	}
	return lines
}

// unitCluster is the instance a unit is a run of (its key before "#"
// when Instance is not set).
func unitCluster(u CompareUnit) string {
	if u.Instance != "" {
		return u.Instance
	}
	if i := strings.LastIndex(u.Key, "#"); i >= 0 {
		return u.Key[:i]
	}
	return u.Key
}

// HarnessCompareUnits turns a harness report's units of one model into
// comparison units keyed by instance id and run ("id#run"), and one
// Unreadable unit per run of the model for each dataset row that could not
// be read or cannot run (report's denominator counts them, unresolved).
func HarnessCompareUnits(r *Harness, model string) []CompareUnit {
	var out []CompareUnit
	runs := map[int]bool{}
	for _, u := range r.Polynfi.UnitResults {
		// A missing unit carries the model of the (model, run) pair it is
		// missing from: only this model's count.
		if u.Model != model {
			continue
		}
		cu := CompareUnit{Key: fmt.Sprintf("%s#%d", u.InstanceID, u.Run), Instance: u.InstanceID, Resolved: u.Outcome == "resolved", Outcome: u.Outcome,
			NotEvaluated: u.Outcome == "incomplete"}
		for _, m := range u.NFI {
			for i, a := range nfi.Aspects {
				if a.Code() == m.Aspect {
					v := m.Mean
					cu.Ip[i] = &v
				}
			}
		}
		out = append(out, cu)
		runs[u.Run] = true
	}
	// Each dataset row that could not be read or cannot run is a unit of
	// every run of the model, unresolved (as report counts it).
	var rs []int
	for run := range runs {
		rs = append(rs, run)
	}
	sort.Ints(rs)
	for _, row := range r.Polynfi.UnreadRows {
		for _, run := range rs {
			out = append(out, CompareUnit{Key: fmt.Sprintf("dataset row %d (%s)#%d", row.Row, row.Kind, run), Outcome: row.Kind, Unreadable: true})
		}
	}
	return out
}

// HarnessModels lists the models of a harness report's submitted units.
func HarnessModels(r *Harness) []string {
	seen := map[string]bool{}
	var out []string
	for _, u := range r.Polynfi.UnitResults {
		if u.Outcome != "missing" && !seen[u.Model] {
			seen[u.Model] = true
			out = append(out, u.Model)
		}
	}
	sort.Strings(out)
	return out
}

// NFICompareUnits turns one agent's suite records into comparison units
// keyed by task and run ("id#run"): success is functional correctness,
// I_p is defined on correct runs. units are the run's manifest units
// (nil for a run without a manifest): each of the agent's units without a
// record (an interrupted run did not reach it) is a NotEvaluated unit,
// as HarnessCompareUnits makes an "incomplete" instance one, so that
// Compare leaves it out of the pairs and of the side's rate and counts it
// in the side's NotEvaluated.
func NFICompareUnits(recs []nfirecord.Record, units []NFIUnit, model string) []CompareUnit {
	var out []CompareUnit
	have := map[string]bool{}
	for _, r := range recs {
		if r.Model != model {
			continue
		}
		outcome := "incorrect"
		switch {
		case !r.Valid:
			outcome = "invalid: " + r.InvalidReason
		case r.FunctionallyCorrect:
			outcome = "correct"
		case r.TestStatus != "":
			outcome = "incorrect: " + r.TestStatus
		}
		cu := CompareUnit{Key: fmt.Sprintf("%s#%d", r.InstanceID, r.Run), Instance: r.InstanceID, Resolved: r.FunctionallyCorrect, Outcome: outcome}
		if r.FunctionallyCorrect && r.Improvement != nil {
			for i, a := range nfi.Aspects {
				if v, ok := r.Improvement.Get(a); ok {
					cu.Ip[i] = &v
				}
			}
		}
		have[cu.Key] = true
		out = append(out, cu)
	}
	for _, u := range units {
		key := fmt.Sprintf("%s#%d", u.Task, u.Run)
		if u.Agent != model || have[key] {
			continue
		}
		have[key] = true
		out = append(out, CompareUnit{Key: key, Instance: u.Task, Outcome: "not evaluated", NotEvaluated: true})
	}
	return out
}

// NFIModels lists the agents of suite records and of the run's manifest
// units (an agent an interrupted run never reached has units but no
// record), sorted.
func NFIModels(recs []nfirecord.Record, units []NFIUnit) []string {
	seen := map[string]bool{}
	var out []string
	add := func(m string) {
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	for _, r := range recs {
		add(r.Model)
	}
	for _, u := range units {
		add(u.Agent)
	}
	sort.Strings(out)
	return out
}

// Table IDs of a comparison.
const (
	TableCompareRates   = "compare-rates"
	TableCompareAspects = "compare-aspects"
)

// ColPairedRate is the header of the compare rates table's column of each
// side's resolved rate over the paired units.
const ColPairedRate = "resolved over the pairs"

// PairedRatesLine gives both sides' rates over the same units, the pairs,
// when a side's own rate is over other units (its Units differ from
// Paired); "" when both rates are already over the pairs.
func (c Comparison) PairedRatesLine() string {
	if c.A.Units == c.Paired && c.B.Units == c.Paired {
		return ""
	}
	return fmt.Sprintf("the rates above are over different sets of units (A %d, B %d); over the same %d paired units: A resolved %d/%d (%s), B %d/%d (%s)",
		c.A.Units, c.B.Units, c.Paired, c.PairedResolvedA, c.Paired, percent(c.PairedResolvedA, c.Paired), c.PairedResolvedB, c.Paired, percent(c.PairedResolvedB, c.Paired))
}

// UnreadableLines says, per side with any, that the units of its dataset
// rows that could not be read or cannot run count unresolved in its rate
// (as in report's) and are in no pair; none when neither side has one.
func (c Comparison) UnreadableLines() []string {
	var out []string
	for i, s := range []CompareSide{c.A, c.B} {
		if s.UnreadableRows > 0 {
			out = append(out, fmt.Sprintf("%s: %d unreadable dataset rows (counted unresolved in %s's rate, as in report's) are in no pair",
				[]string{"A", "B"}[i], s.UnreadableRows, []string{"A", "B"}[i]))
		}
	}
	return out
}

// Page renders the comparison: the headline (rates with intervals,
// McNemar's test), the rates table and chart, the per-aspect paired I_p
// difference table and chart, the flips both ways and the paired table.
func (c Comparison) Page(title string) Page {
	var lines []string
	if c.DatasetWarning != "" {
		lines = append(lines, c.DatasetWarning)
	}
	sideLine := func(name string, s CompareSide) string {
		l := fmt.Sprintf("%s: %s: resolved %d/%d (%s, 95%% CI %s)", name, s.Label, s.Resolved, s.Units, percent(s.Resolved, s.Units), ciPercent(s.CI))
		if s.ClusterCI.Reason != "" {
			l += fmt.Sprintf("; that Wilson CI counts the %s as independent, and there is no clustered interval: %s (a cluster bootstrap needs at least %d)", plural(s.Units, "run"), s.ClusterCI.Reason, MinClusters)
		} else if s.ClusterCI.OK {
			l += fmt.Sprintf("; that Wilson CI counts the %s as independent, clustered by instance (%s) 95%% CI %s", plural(s.Units, "run"), plural(s.Instances, "instance"), ciPercent(s.ClusterCI))
		}
		return l
	}
	lines = append(lines, sideLine("A", c.A), sideLine("B", c.B),
		fmt.Sprintf("paired units %d: both resolved %d, neither %d, A only %d, B only %d; McNemar exact test p = %.4g", c.Paired, c.Both, c.Neither,
			len(c.OnlyA), len(c.OnlyB), c.McNemarP),
	)
	if c.RepeatedRuns {
		lines = append(lines,
			fmt.Sprintf("paired unit: %s; %d pairs over %d instances with repeated runs. Runs of one instance are not independent, so the McNemar p above (pairs as independent) is anti-conservative.", c.PairedUnit, c.Paired, c.Instances),
			fmt.Sprintf("clustered by instance: A's resolved rate higher on %d instances, B's on %d, equal on %d; exact sign test p = %.4g; cluster bootstrap 95%% CI A %s, B %s",
				len(c.InstancesABetter), len(c.InstancesBBetter), c.Instances-len(c.InstancesABetter)-len(c.InstancesBBetter), c.ClusteredP,
				ciPercent(c.A.ClusterCI), ciPercent(c.B.ClusterCI)))
	} else {
		lines = append(lines, fmt.Sprintf("paired unit: %s, one run per instance (%d instances): McNemar's test pairs instances", c.PairedUnit, c.Instances))
	}
	if len(c.Unpaired) > 0 {
		lines = append(lines, fmt.Sprintf("%d units on one side only (left out of the paired statistics)", len(c.Unpaired)))
	}
	lines = append(lines, c.UnreadableLines()...)
	if l := c.PairedRatesLine(); l != "" {
		lines = append(lines, l)
	}
	lines = append(lines, c.NotEvaluatedLines()...)
	rates := Table{ID: TableCompareRates, Title: "Resolved rate of each side", Header: []string{"side", "run", "resolved", "units", "rate", "95% CI"}}
	for i, s := range []CompareSide{c.A, c.B} {
		rates.Rows = append(rates.Rows, []string{[]string{"A", "B"}[i], s.Label, itoa(s.Resolved), itoa(s.Units), percent(s.Resolved, s.Units), ciPercent(s.CI)})
	}
	if c.A.NotEvaluated+c.B.NotEvaluated > 0 {
		rates.Header = append(rates.Header, "not evaluated")
		for i, s := range []CompareSide{c.A, c.B} {
			rates.Rows[i] = append(rates.Rows[i], itoa(s.NotEvaluated))
		}
	}
	if c.PairedRatesLine() != "" {
		rates.Header = append(rates.Header, ColPairedRate)
		for i, k := range []int{c.PairedResolvedA, c.PairedResolvedB} {
			rates.Rows[i] = append(rates.Rows[i], fmt.Sprintf("%d/%d (%s)", k, c.Paired, percent(k, c.Paired)))
		}
	}
	rates.Notes = []string{"units: the side's evaluated units (a missing prediction counts, unresolved) and the units of its dataset rows that could not be read or cannot run (unresolved, as in report's rate, and in no pair), the rate's denominator; a unit its run did not evaluate is in no rate and no pair. 95% CI: Wilson score interval. McNemar's exact test: two-sided binomial test of the discordant pairs (A only vs B only) with p = 1/2; the paired unit is one (instance, run)."}
	if c.PairedRatesLine() != "" {
		rates.Notes = append(rates.Notes, fmt.Sprintf("The sides' units differ (A %d, B %d): their rates are over different sets of units and do not compare; %q gives both over the same %d paired units.",
			c.A.Units, c.B.Units, ColPairedRate, c.Paired))
	}
	if c.RepeatedRuns {
		rates.Header = append(rates.Header, ColClusterCI)
		for i, s := range []CompareSide{c.A, c.B} {
			rates.Rows[i] = append(rates.Rows[i], ciPercent(s.ClusterCI))
		}
		rates.Notes = append(rates.Notes, fmt.Sprintf("Repeated runs: runs of one instance are not independent, so the Wilson interval and McNemar's test on (instance, run) pairs are anti-conservative. "+
			"95%% CI clustered: cluster bootstrap resampling instances with all their runs (%d resamples, seed %d). Clustered test: for each paired instance, the side with more resolved runs of the paired runs is better (equal counts tie); "+
			"two-sided exact sign test of the instances A is better on vs B is better on (McNemar's test with instances as the unit).", BootstrapResamples, BootstrapSeed), ClusterMinNote)
	}
	asp := Table{ID: TableCompareAspects, Title: "Paired difference of I_p (pp), B − A, per aspect",
		Header: []string{"aspect", "pairs", "mean A", "mean B", "mean B − A", "95% CI"}}
	if c.RepeatedRuns {
		asp.Header = append(asp.Header, ColClusterCI)
	}
	for _, d := range c.Aspects {
		ok := d.N > 0
		row := []string{d.Aspect, itoa(d.N), pp(Cell{Value: d.MeanA, OK: ok}), pp(Cell{Value: d.MeanB, OK: ok}), pp(Cell{Value: d.Diff, OK: ok}), ciPP(d.CI)}
		if c.RepeatedRuns {
			row = append(row, ciPP(d.ClusterCI))
		}
		asp.Rows = append(asp.Rows, row)
	}
	asp.Notes = []string{fmt.Sprintf("Pairs: units where both sides have I_p for the aspect. 95%% CI: paired percentile bootstrap of the mean difference (%d resamples, seed %d); an interval that contains 0 is a tie.",
		BootstrapResamples, BootstrapSeed)}
	if c.RepeatedRuns {
		asp.Notes = append(asp.Notes, "The pairs are (instance, run); with repeated runs read the clustered interval, which resamples instances with all their pairs.", ClusterMinNote)
	}
	flips := Table{ID: "compare-flips", Title: fmt.Sprintf("Units that flip: resolved by A only (%d) and by B only (%d)", len(c.OnlyA), len(c.OnlyB)),
		Header: []string{"resolved by", "unit"}}
	for _, k := range c.OnlyA {
		flips.Rows = append(flips.Rows, []string{"A only", k})
	}
	for _, k := range c.OnlyB {
		flips.Rows = append(flips.Rows, []string{"B only", k})
	}
	paired := Table{ID: "compare-paired", Title: "Paired units", Header: []string{"unit", "A", "B", "flip"}}
	for _, r := range c.Rows {
		paired.Rows = append(paired.Rows, []string{r.Key, r.OutcomeA, r.OutcomeB, orDash(r.Flip)})
	}
	tables := []Table{rates, asp, flips, paired}

	// The error bars are the intervals the text tells readers to use:
	// with repeated runs the clustered ones.
	rc := BarChart{ID: "chart-" + TableCompareRates, Title: "Resolved rate", Unit: "%", Groups: []string{"A", "B"},
		Note: "Error bars: 95% Wilson score intervals (the table's 95% CI column)."}
	if c.RepeatedRuns {
		rc.Note = fmt.Sprintf("Error bars: 95%% cluster bootstrap intervals resampling instances with all their runs (the table's \"95%% CI clustered\" column; %d resamples, seed %d), not the Wilson intervals, which treat repeated runs as independent. %s", BootstrapResamples, BootstrapSeed, ClusterMinNote)
	}
	rs := BarSeries{Name: "resolved %"}
	rateCI := colIndex(rates, "95% CI")
	if c.RepeatedRuns {
		rateCI = colIndex(rates, ColClusterCI)
	}
	for i, s := range []CompareSide{c.A, c.B} {
		ci := s.CI
		if c.RepeatedRuns {
			ci = s.ClusterCI
		}
		ci.Lo, ci.Hi = 100*ci.Lo, 100*ci.Hi
		rs.Bars = append(rs.Bars, Bar{Value: 100 * s.Rate, OK: s.Units > 0, CI: ci, Text: rates.Rows[i][4], Ref: CellRef{rates.ID, i, 4},
			CIText: rates.Rows[i][rateCI], CIRef: CellRef{rates.ID, i, rateCI}})
		note := fmt.Sprintf("n=%d", s.Units)
		if s.NotEvaluated > 0 {
			note += fmt.Sprintf(", %d not evaluated", s.NotEvaluated)
		}
		rc.GroupNotes = append(rc.GroupNotes, note)
	}
	rc.Series = []BarSeries{rs}
	ac := BarChart{ID: "chart-" + TableCompareAspects, Title: "Paired I_p difference B − A", Unit: "pp",
		Note: fmt.Sprintf("Error bars: 95%% paired percentile bootstrap intervals (the table's 95%% CI column; %d resamples, seed %d).", BootstrapResamples, BootstrapSeed)}
	if c.RepeatedRuns {
		ac.Note = fmt.Sprintf("Error bars: 95%% cluster bootstrap intervals resampling instances with all their pairs (the table's \"95%% CI clustered\" column; %d resamples, seed %d), the interval to read with repeated runs. %s", BootstrapResamples, BootstrapSeed, ClusterMinNote)
	}
	as := BarSeries{Name: "mean B − A"}
	aspCI := colIndex(asp, "95% CI")
	if c.RepeatedRuns {
		aspCI = colIndex(asp, ColClusterCI)
	}
	for i, d := range c.Aspects {
		ci := d.CI
		if c.RepeatedRuns {
			ci = d.ClusterCI
		}
		ci.Lo, ci.Hi = 100*ci.Lo, 100*ci.Hi
		ac.Groups = append(ac.Groups, d.Aspect)
		ac.GroupNotes = append(ac.GroupNotes, fmt.Sprintf("n=%d", d.N))
		as.Bars = append(as.Bars, Bar{Value: 100 * d.Diff, OK: d.N > 0, CI: ci, Text: asp.Rows[i][4], Ref: CellRef{asp.ID, i, 4},
			CIText: asp.Rows[i][aspCI], CIRef: CellRef{asp.ID, i, aspCI}})
	}
	ac.Series = []BarSeries{as}
	return Page{Title: title, Lines: lines, Charts: []BarChart{rc, ac}, Tables: tables}
}
