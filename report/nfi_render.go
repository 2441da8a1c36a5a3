package report

import "github.com/polynfi/polynfi/nfi"

func aspectHeader(prefix ...string) []string {
	h := append([]string(nil), prefix...)
	for _, a := range nfi.Aspects {
		h = append(h, a.Code())
	}
	return h
}

// Tables renders the SWE-NFI report as its four tables.
func (r NFI) Tables() []Table {
	t3 := Table{Title: "Table 3: validity, functional correctness and mean I_p (pp) over functionally correct runs",
		Header: aspectHeader("Agent", "Runs", "Valid %", "Func. Pass %")}
	for _, row := range r.Table3 {
		cells := []string{row.Agent, itoa(row.Runs), pct(row.ValidPct, row.Runs), pct(row.PassPct, row.Runs)}
		for i := range row.Mean {
			cells = append(cells, pp(row.Mean[i])+row.Mark[i])
		}
		t3.Rows = append(t3.Rows, cells)
	}
	t3.Notes = []string{"⁺/⁻ : the agent's mean I_p is at least / below the Human Reference mean on the same tasks; " + Dash + " : no functionally correct run."}

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
	return []Table{t3, t4, tc, tcost}
}

func itoa(i int) string { return num(Cell{Value: float64(i), OK: true}, 0) }

func pct(v float64, n int) string {
	if n == 0 {
		return Dash
	}
	return num(Cell{Value: v, OK: true}, 1)
}
