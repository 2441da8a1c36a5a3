package report

import (
	"fmt"
	"sort"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfisuite"
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
}

// CompareSide describes one side of a comparison.
type CompareSide struct {
	Label    string   `json:"label"` // run directory and model
	Units    int      `json:"units"`
	Resolved int      `json:"resolved"`
	Rate     float64  `json:"rate"`
	CI       Interval `json:"ci"` // Wilson 95%
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
	A        CompareSide  `json:"a"`
	B        CompareSide  `json:"b"`
	Paired   int          `json:"paired"`
	Both     int          `json:"both_resolved"`
	Neither  int          `json:"neither_resolved"`
	OnlyA    []string     `json:"only_a"`
	OnlyB    []string     `json:"only_b"`
	McNemarP float64      `json:"mcnemar_exact_p"`
	Aspects  []AspectDiff `json:"aspects"`
	Rows     []PairedRow  `json:"units"`
	Unpaired []string     `json:"unpaired"` // keys on one side only
	// DatasetWarning is set when the runs were evaluated on different
	// datasets and compared anyway (--allow-different-datasets): every
	// format shows it first.
	DatasetWarning string `json:"dataset_warning,omitempty"`
}

// Compare pairs a and b by key and computes the comparison.
func Compare(labelA string, a []CompareUnit, labelB string, b []CompareUnit) Comparison {
	side := func(label string, us []CompareUnit) CompareSide {
		s := CompareSide{Label: label, Units: len(us)}
		for _, u := range us {
			if u.Resolved {
				s.Resolved++
			}
		}
		if s.Units > 0 {
			s.Rate = float64(s.Resolved) / float64(s.Units)
		}
		s.CI = Wilson(s.Resolved, s.Units)
		return s
	}
	c := Comparison{A: side(labelA, a), B: side(labelB, b), OnlyA: []string{}, OnlyB: []string{}, Unpaired: []string{}, Rows: []PairedRow{}}
	byB := map[string]CompareUnit{}
	for _, u := range b {
		byB[u.Key] = u
	}
	seen := map[string]bool{}
	var diffs, va, vb [5][]float64
	sorted := append([]CompareUnit(nil), a...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
	for _, ua := range sorted {
		ub, ok := byB[ua.Key]
		if !ok {
			c.Unpaired = append(c.Unpaired, ua.Key)
			continue
		}
		seen[ua.Key] = true
		c.Paired++
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
				va[i] = append(va[i], *ua.Ip[i])
				vb[i] = append(vb[i], *ub.Ip[i])
			}
		}
	}
	for _, u := range b {
		if !seen[u.Key] {
			c.Unpaired = append(c.Unpaired, u.Key)
		}
	}
	sort.Strings(c.Unpaired)
	c.McNemarP = McNemarExact(len(c.OnlyA), len(c.OnlyB))
	for i, asp := range nfi.Aspects {
		d := AspectDiff{Aspect: asp.Code(), N: len(diffs[i]), CI: BootstrapMean(diffs[i])}
		d.MeanA, d.MeanB, d.Diff = meanCell(va[i]).Value, meanCell(vb[i]).Value, meanCell(diffs[i]).Value
		c.Aspects = append(c.Aspects, d)
	}
	return c
}

// HarnessCompareUnits turns a harness report's units of one model into
// comparison units keyed by instance id and run ("id#run").
func HarnessCompareUnits(r *Harness, model string) []CompareUnit {
	var out []CompareUnit
	for _, u := range r.Polynfi.UnitResults {
		// A missing unit carries the model of the (model, run) pair it is
		// missing from: only this model's count.
		if u.Model != model {
			continue
		}
		cu := CompareUnit{Key: fmt.Sprintf("%s#%d", u.InstanceID, u.Run), Instance: u.InstanceID, Resolved: u.Outcome == "resolved", Outcome: u.Outcome}
		for _, m := range u.NFI {
			for i, a := range nfi.Aspects {
				if a.Code() == m.Aspect {
					v := m.Mean
					cu.Ip[i] = &v
				}
			}
		}
		out = append(out, cu)
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
// I_p is defined on correct runs.
func NFICompareUnits(recs []nfisuite.Record, model string) []CompareUnit {
	var out []CompareUnit
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
		out = append(out, cu)
	}
	return out
}

// NFIModels lists the agents of suite records.
func NFIModels(recs []nfisuite.Record) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range recs {
		if !seen[r.Model] {
			seen[r.Model] = true
			out = append(out, r.Model)
		}
	}
	sort.Strings(out)
	return out
}

// Table IDs of a comparison.
const (
	TableCompareRates   = "compare-rates"
	TableCompareAspects = "compare-aspects"
)

// Page renders the comparison: the headline (rates with intervals,
// McNemar's test), the rates table and chart, the per-aspect paired I_p
// difference table and chart, the flips both ways and the paired table.
func (c Comparison) Page(title string) Page {
	var lines []string
	if c.DatasetWarning != "" {
		lines = append(lines, c.DatasetWarning)
	}
	lines = append(lines,
		fmt.Sprintf("A: %s: resolved %d/%d (%s, 95%% CI %s)", c.A.Label, c.A.Resolved, c.A.Units, percent(c.A.Resolved, c.A.Units), ciPercent(c.A.CI)),
		fmt.Sprintf("B: %s: resolved %d/%d (%s, 95%% CI %s)", c.B.Label, c.B.Resolved, c.B.Units, percent(c.B.Resolved, c.B.Units), ciPercent(c.B.CI)),
		fmt.Sprintf("paired units %d: both resolved %d, neither %d, A only %d, B only %d; McNemar exact test p = %.4g", c.Paired, c.Both, c.Neither,
			len(c.OnlyA), len(c.OnlyB), c.McNemarP),
	)
	if len(c.Unpaired) > 0 {
		lines = append(lines, fmt.Sprintf("%d units on one side only (left out of the paired statistics)", len(c.Unpaired)))
	}
	rates := Table{ID: TableCompareRates, Title: "Resolved rate of each side", Header: []string{"side", "run", "resolved", "units", "rate", "95% CI"}}
	for i, s := range []CompareSide{c.A, c.B} {
		rates.Rows = append(rates.Rows, []string{[]string{"A", "B"}[i], s.Label, itoa(s.Resolved), itoa(s.Units), percent(s.Resolved, s.Units), ciPercent(s.CI)})
	}
	rates.Notes = []string{"95% CI: Wilson score interval. McNemar's exact test: two-sided binomial test of the discordant pairs (A only vs B only) with p = 1/2."}
	asp := Table{ID: TableCompareAspects, Title: "Paired difference of I_p (pp), B − A, per aspect",
		Header: []string{"aspect", "pairs", "mean A", "mean B", "mean B − A", "95% CI"}}
	for _, d := range c.Aspects {
		ok := d.N > 0
		asp.Rows = append(asp.Rows, []string{d.Aspect, itoa(d.N), pp(Cell{Value: d.MeanA, OK: ok}), pp(Cell{Value: d.MeanB, OK: ok}), pp(Cell{Value: d.Diff, OK: ok}), ciPP(d.CI)})
	}
	asp.Notes = []string{fmt.Sprintf("Pairs: units where both sides have I_p for the aspect. 95%% CI: paired percentile bootstrap of the mean difference (%d resamples, seed %d); an interval that contains 0 is a tie.",
		BootstrapResamples, BootstrapSeed)}
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

	rc := BarChart{ID: "chart-" + TableCompareRates, Title: "Resolved rate", Unit: "%", Groups: []string{"A", "B"}}
	rs := BarSeries{Name: "resolved %"}
	for i, s := range []CompareSide{c.A, c.B} {
		ci := s.CI
		ci.Lo, ci.Hi = 100*ci.Lo, 100*ci.Hi
		rs.Bars = append(rs.Bars, Bar{Value: 100 * s.Rate, OK: s.Units > 0, CI: ci, Text: rates.Rows[i][4], Ref: CellRef{rates.ID, i, 4}})
		rc.GroupNotes = append(rc.GroupNotes, fmt.Sprintf("n=%d", s.Units))
	}
	rc.Series = []BarSeries{rs}
	ac := BarChart{ID: "chart-" + TableCompareAspects, Title: "Paired I_p difference B − A", Unit: "pp"}
	as := BarSeries{Name: "mean B − A"}
	for i, d := range c.Aspects {
		ci := d.CI
		ci.Lo, ci.Hi = 100*ci.Lo, 100*ci.Hi
		ac.Groups = append(ac.Groups, d.Aspect)
		ac.GroupNotes = append(ac.GroupNotes, fmt.Sprintf("n=%d", d.N))
		as.Bars = append(as.Bars, Bar{Value: 100 * d.Diff, OK: d.N > 0, CI: ci, Text: asp.Rows[i][4], Ref: CellRef{asp.ID, i, 4}})
	}
	ac.Series = []BarSeries{as}
	return Page{Title: title, Lines: lines, Charts: []BarChart{rc, ac}, Tables: tables}
}
