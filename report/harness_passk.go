package report

import (
	"fmt"
	"sort"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
)

// PassAtKRow is pass@k of one model over repeated runs of the same
// instances (several --runs of `polynfi run`): PassAtK[k-1] is the mean
// over the instances with at least k recorded runs of the unbiased
// estimate from that instance's n runs of which c resolved (under the
// dataset's native grading mode); Cell.N counts those instances.
type PassAtKRow struct {
	Model     string `json:"model"`
	Instances int    `json:"instances"`
	MaxRuns   int    `json:"max_runs"`
	PassAtK   []Cell `json:"pass_at_k"`
}

// harnessPassAtK computes pass@k per model from the records, for k from 1
// to the most runs any instance has. Models whose every instance has a
// single run get no row (pass@1 is the resolved rate). Sorted by model.
func harnessPassAtK(recs []*runrecord.Record) []PassAtKRow {
	type tally struct{ n, c int }
	byModel := map[string]map[string]*tally{}
	for _, r := range recs {
		if r == nil {
			continue
		}
		m := byModel[r.Model]
		if m == nil {
			m = map[string]*tally{}
			byModel[r.Model] = m
		}
		t := m[r.InstanceID]
		if t == nil {
			t = &tally{}
			m[r.InstanceID] = t
		}
		t.n++
		if r.Resolved {
			t.c++
		}
	}
	var rows []PassAtKRow
	for model, m := range byModel {
		row := PassAtKRow{Model: model, Instances: len(m)}
		for _, t := range m {
			row.MaxRuns = max(row.MaxRuns, t.n)
		}
		if row.MaxRuns < 2 {
			continue
		}
		for k := 1; k <= row.MaxRuns; k++ {
			var xs []float64
			for _, t := range m {
				if v, ok := passAtKEstimate(t.n, t.c, k); ok {
					xs = append(xs, v)
				}
			}
			row.PassAtK = append(row.PassAtK, meanCell(xs))
		}
		rows = append(rows, row)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Model < rows[j].Model })
	return rows
}

// passAtKEstimate is PassAtK (stats.go), the one home of the estimator.
func passAtKEstimate(n, c, k int) (float64, bool) { return PassAtK(n, c, k) }

// passAtKTable renders the rows (nil when there are none).
func passAtKTable(rows []PassAtKRow, mode grading.Mode) *Table {
	if len(rows) == 0 {
		return nil
	}
	maxK := 0
	for _, r := range rows {
		maxK = max(maxK, len(r.PassAtK))
	}
	t := Table{Title: fmt.Sprintf("pass@k over repeated runs (%s grading; unbiased estimator, Chen et al. 2021)", mode),
		Header: []string{"model", "instances", "runs"}}
	for k := 1; k <= maxK; k++ {
		t.Header = append(t.Header, fmt.Sprintf("pass@%d", k))
	}
	for _, r := range rows {
		cells := []string{r.Model, fmt.Sprint(r.Instances), fmt.Sprint(r.MaxRuns)}
		for k := 1; k <= maxK; k++ {
			if k <= len(r.PassAtK) && r.PassAtK[k-1].OK {
				cells = append(cells, fmt.Sprintf("%.1f%%", 100*r.PassAtK[k-1].Value))
			} else {
				cells = append(cells, Dash)
			}
		}
		t.Rows = append(t.Rows, cells)
	}
	t.Notes = []string{"pass@k = 1 − C(n−c, k)/C(n, k) for an instance with n runs of which c resolved; mean over the instances with at least k runs."}
	return &t
}
