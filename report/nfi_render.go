package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/nfi"
)

// TableNFI3 is the ID of Table 3 and TableNFIIntervals that of its
// intervals (charts refer to their cells).
const (
	TableNFI3         = "nfi-table3"
	TableNFIIntervals = "nfi-intervals"
)

func aspectHeader(prefix ...string) []string {
	h := append([]string(nil), prefix...)
	for _, a := range nfi.Aspects {
		h = append(h, a.Code())
	}
	return h
}

// Tables renders the SWE-NFI report as its four tables.
func (r NFI) Tables() []Table {
	t3 := Table{ID: TableNFI3, Title: "Table 3: validity, functional correctness and mean I_p (pp) over functionally correct runs",
		Header: aspectHeader("Agent", "Runs", "Valid %", "Func. Pass %")}
	for _, row := range r.Table3 {
		pass := Dash
		if row.PassOK {
			pass = pct(row.PassPct, row.Runs)
		}
		cells := []string{row.Agent, itoa(row.Runs), pct(row.ValidPct, row.Runs), pass}
		for i := range row.Mean {
			c := pp(row.Mean[i]) + row.Mark[i]
			if row.Supported[i] {
				c += "*"
			}
			cells = append(cells, c)
		}
		t3.Rows = append(t3.Rows, cells)
	}
	if r.NotEvaluated > 0 {
		// After the aspect columns: the chart refers to those by index.
		t3.Header = append(t3.Header, "Not evaluated")
		for i, row := range r.Table3 {
			t3.Rows[i] = append(t3.Rows[i], itoa(row.NotEvaluated))
		}
	}
	t3.Notes = []string{"⁺/⁻ : the agent's mean I_p is at least / below the Human Reference mean on the same tasks; " + Dash + " : no functionally correct run.",
		fmt.Sprintf("* : the intervals support the mark: the 95%% percentile bootstrap interval (%d resamples, seed %d) of the mean paired difference "+
			"I_p − I_p(h) over the agent's correct runs and the same tasks' Human Reference excludes 0 on the mark's side; a mark without * is within the noise. "+
			"When a task has repeated runs the bootstrap resamples tasks with all their runs (cluster bootstrap), since runs of one task are not independent, and a * needs two tasks.",
			BootstrapResamples, BootstrapSeed),
		"Human Reference Func. Pass % is measured from runs of the gold model (polynfi eval --predictions gold); " + Dash + " when it was not run. " +
			"Its mean I_p(h) is, like an agent's, over functionally correct runs: with gold runs, over the tasks where the reference passed its tests; without, over every task (its tests unchecked)."}
	if r.NotEvaluated > 0 {
		t3.Notes = append(t3.Notes, "Runs: evaluated (task, run) units; Not evaluated: the units the run did not reach (interrupted), in no rate and no mean "+
			"(for the Human Reference, the tasks with no record: their I_p(h) was not computed).")
	}
	if len(r.GoldFailures) > 0 {
		t3.Notes = append(t3.Notes, fmt.Sprintf("The reference failed its tests on %s: left out of the Human Reference's mean I_p(h).", strings.Join(r.GoldFailures, ", ")))
	}

	t4 := Table{Title: "Table 4: mean I_p (pp) on single-file (S) and multi-file (M) tasks, and S − M"}
	t4.Header = []string{"Agent", "Scope"}
	for _, a := range nfi.Aspects {
		t4.Header = append(t4.Header, a.Code())
	}
	for _, row := range r.Table4 {
		for _, part := range []struct {
			name  string
			cells AspectCells
		}{{"S", row.Single}, {"M", row.Multi}, {"S − M", row.Diff}} {
			cells := []string{row.Agent, part.name}
			for _, c := range part.cells {
				cells = append(cells, pp(c))
			}
			t4.Rows = append(t4.Rows, cells)
		}
	}

	tc := Table{Title: "Consistency over repeated runs: mean standard deviation of I_p (pp) and tasks with the same verdict in every run",
		Header: aspectHeader("Agent", "Tasks", "Runs")}
	tc.Header = append(tc.Header, "Same verdict")
	for _, row := range r.Consistency {
		cells := []string{row.Agent, itoa(row.Tasks), itoa(row.MaxRuns)}
		for _, c := range row.MeanStd {
			if c.OK {
				cells = append(cells, num(Cell{Value: 100 * c.Value, OK: true}, 1))
			} else {
				cells = append(cells, Dash)
			}
		}
		cells = append(cells, itoa(row.SameVerdict)+"/"+itoa(row.Tasks))
		tc.Rows = append(tc.Rows, cells)
	}

	tcost := Table{Title: "Cost per run: wall time (s), tokens (in + out), cost (USD), NFI gained per 1k tokens (pp)",
		Header: []string{"Agent", "Mean s", "Median s", "Mean tokens", "Median tokens", "Mean USD", "NFI pp / 1k tokens"}}
	for _, row := range r.Cost {
		tcost.Rows = append(tcost.Rows, []string{row.Agent, num(row.MeanSeconds, 1), num(row.MedianSeconds, 1),
			num(row.MeanTokens, 0), num(row.MedianTokens, 0), num(row.MeanCostUSD, 4), num(row.NFIPer1kTokens, 2)})
	}
	ti := Table{ID: TableNFIIntervals, Title: "Table 3 intervals: 95% intervals of Valid %, Func. Pass % and mean I_p (pp); the interval column says which kind each row has",
		Header: aspectHeader("Agent", "Valid % CI", "Func. Pass % CI")}
	ti.Header = append(ti.Header, "interval")
	for _, row := range r.Table3 {
		if row.Clustered {
			ti.Notes = []string{fmt.Sprintf("Repeated runs: for rows with several runs of a task every interval is a cluster bootstrap resampling tasks with all their runs "+
				"(%d resamples, seed %d; Davison and Hinkley 1997, §3.8), Valid %% and Func. Pass %% included: a Wilson or per-run interval would treat runs of one task as independent and be too narrow. "+
				"The Human Reference row takes each task once.", BootstrapResamples, BootstrapSeed)}
			break
		}
	}
	for _, row := range r.Table3 {
		pass := Dash
		if row.PassOK {
			pass = ciPercent(row.PassCI)
		}
		cells := []string{row.Agent, ciPercent(row.ValidCI), pass}
		for _, c := range row.MeanCI {
			cells = append(cells, ciPP(c))
		}
		kind := "Wilson, bootstrap"
		if row.Clustered {
			kind = "cluster bootstrap"
		}
		ti.Rows = append(ti.Rows, append(cells, kind))
	}
	ti.Notes = append([]string{fmt.Sprintf("interval: \"Wilson, bootstrap\": Wilson score intervals of Valid %% and Func. Pass %%, percentile bootstrap of mean I_p "+
		"(%d resamples, seed %d); \"cluster bootstrap\": every interval of the row (rates included) resamples tasks with all their runs.", BootstrapResamples, BootstrapSeed)}, ti.Notes...)
	// The baselines of the marks: the Human Reference's mean on each
	// agent's own correct (task, run) pairs (Table3Row.HumanSame), which
	// is not the Human Reference row's mean over every task, and the
	// paired difference the * is read from.
	tm := Table{ID: "nfi-mark-baselines", Title: "Table 3 marks: Human Reference mean I_p(h) (pp) on each agent's functionally correct (task, run) pairs, and the agent's mean minus it",
		Header: []string{"Agent", "Aspect", "Agent mean", "I_p(h) same tasks", "Difference", "Difference 95% CI", "Mark"}}
	for _, row := range r.Table3 {
		if row.Agent == HumanReference {
			continue
		}
		for i, a := range nfi.Aspects {
			if !row.Mean[i].OK || !row.HumanSame[i].OK {
				continue
			}
			mark := row.Mark[i]
			if row.Supported[i] {
				mark += "*"
			}
			diff := Cell{Value: row.Mean[i].Value - row.HumanSame[i].Value, OK: true}
			tm.Rows = append(tm.Rows, []string{row.Agent, a.Code(), pp(row.Mean[i]), pp(row.HumanSame[i]), pp(diff), ciPP(row.DiffCI[i]), mark})
		}
	}
	tm.Notes = []string{"A mark compares the agent's mean I_p with the Human Reference's mean on the same tasks (spec 3.2), not with the Human Reference row of Table 3, " +
		"which is over every task the reference passed: an agent can be marked ⁺ below that row's number when it solved the tasks where the reference improves less."}
	tk := Table{ID: "nfi-passk", Title: "pass@k over repeated runs (unbiased estimator, Chen et al. 2021), mean over tasks with at least k runs",
		Header: []string{"Agent"}}
	maxK := 0
	for _, row := range r.Consistency {
		maxK = max(maxK, len(row.PassAtK))
	}
	for k := 1; k <= maxK; k++ {
		tk.Header = append(tk.Header, fmt.Sprintf("pass@%d", k), fmt.Sprintf("tasks (k=%d)", k))
	}
	for _, row := range r.Consistency {
		cells := []string{row.Agent}
		for k := 1; k <= maxK; k++ {
			if k <= len(row.PassAtK) && row.PassAtK[k-1].OK {
				cells = append(cells, fmt.Sprintf("%.1f%%", 100*row.PassAtK[k-1].Value), itoa(row.PassAtK[k-1].N))
			} else {
				cells = append(cells, Dash, "0")
			}
		}
		tk.Rows = append(tk.Rows, cells)
	}
	tk.Notes = []string{"pass@k = 1 − C(n−c, k)/C(n, k) for a task with n runs of which c are functionally correct."}
	if len(tm.Rows) == 0 {
		return []Table{t3, t4, tc, tcost, ti, tk}
	}
	return []Table{t3, t4, tc, tcost, ti, tm, tk}
}

func itoa(i int) string { return num(Cell{Value: float64(i), OK: true}, 0) }

func pct(v float64, n int) string {
	if n == 0 {
		return Dash
	}
	return num(Cell{Value: v, OK: true}, 1)
}

// Charts draws mean I_p (pp) per aspect for the Human Reference and every
// agent from Table 3's cells, with error bars drawn from the cells of the
// "Table 3 intervals" table (TableNFIIntervals): the percentile bootstrap
// of the mean, or for a row with repeated runs of a task the cluster
// bootstrap resampling tasks, as that table's interval column and the
// chart's footnote say.
func (r NFI) Charts(tables []Table) []BarChart {
	var t3, ti *Table
	for i := range tables {
		switch tables[i].ID {
		case TableNFI3:
			t3 = &tables[i]
		case TableNFIIntervals:
			ti = &tables[i]
		}
	}
	if t3 == nil {
		return nil
	}
	c := BarChart{ID: "chart-" + TableNFI3, Title: "Mean I_p over functionally correct runs", Unit: "pp",
		Note: fmt.Sprintf("Error bars: the 95%% intervals of mean I_p in the \"Table 3 intervals\" table: percentile bootstrap (%d resamples, seed %d), "+
			"or, for a row with repeated runs of a task (interval \"cluster bootstrap\"), the cluster bootstrap resampling tasks with all their runs.", BootstrapResamples, BootstrapSeed)}
	if ti == nil {
		c.Note = "No error bars: the report has no interval table."
	}
	for _, a := range nfi.Aspects {
		c.Groups = append(c.Groups, a.Code())
	}
	for ri, row := range r.Table3 {
		s := BarSeries{Name: row.Agent}
		for i := range row.Mean {
			ci := row.MeanCI[i]
			ci.Lo, ci.Hi = 100*ci.Lo, 100*ci.Hi
			col := 4 + i
			b := Bar{Value: 100 * row.Mean[i].Value, OK: row.Mean[i].OK, CI: ci, Text: t3.Rows[ri][col], Ref: CellRef{t3.ID, ri, col}}
			if ti != nil && ri < len(ti.Rows) {
				// The intervals table: Agent, Valid % CI, Func. Pass % CI,
				// then one column per aspect.
				b.CIText, b.CIRef = ti.Rows[ri][3+i], CellRef{ti.ID, ri, 3 + i}
			} else {
				b.CI = Interval{}
			}
			s.Bars = append(s.Bars, b)
		}
		c.Series = append(c.Series, s)
	}
	for _, a := range nfi.Aspects {
		n := []string{}
		for _, row := range r.Table3 {
			n = append(n, strconv.Itoa(row.Mean[a].N))
		}
		c.GroupNotes = append(c.GroupNotes, "n="+strings.Join(n, "/"))
	}
	return []BarChart{c}
}
