// Package report aggregates per-run and per-instance records into the
// published benchmarks' tables and renders them (text, Markdown, JSON, HTML
// with SVG charts). It imports result types only and never runs anything.
package report

import (
	"math"
	"sort"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfisuite"
)

// HumanReference is the row name of the human reference change in Tables 3 and 4.
const HumanReference = "Human Reference"

// Cell is one aggregate: a mean (or other statistic) over N values. OK is
// false when there was nothing to aggregate; renderers print "–" for it,
// never 0. Improvement values are fractions; renderers show ×100 (pp).
type Cell struct {
	Value float64 `json:"value"`
	N     int     `json:"n"`
	OK    bool    `json:"ok"`
}

func meanCell(xs []float64) Cell {
	if len(xs) == 0 {
		return Cell{}
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return Cell{Value: s / float64(len(xs)), N: len(xs), OK: true}
}

func medianCell(xs []float64) Cell {
	if len(xs) == 0 {
		return Cell{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Cell{Value: m, N: len(s), OK: true}
}

// popStd is the population standard deviation (ddof = 0, numpy's default).
func popStd(xs []float64) float64 {
	m := meanCell(xs).Value
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return math.Sqrt(v / float64(len(xs)))
}

// AspectCells holds one Cell per aspect, in nfi.Aspects order (DOC, ERR, LIB, STY, LOG).
type AspectCells [5]Cell

// Table3Row is one row of SWE-NFI Table 3: validity, functional pass rate
// and mean I_p per aspect over functionally correct runs.
type Table3Row struct {
	Agent    string  `json:"agent"`
	Runs     int     `json:"runs"`
	Valid    int     `json:"valid"`
	Correct  int     `json:"functionally_correct"`
	ValidPct float64 `json:"valid_pct"`
	PassPct  float64 `json:"func_pass_pct"`
	// Mean I_p per aspect over correct runs.
	Mean AspectCells `json:"mean_improvement"`
	// HumanSame is the mean I_p(h) over the same (task, run) pairs as Mean,
	// the baseline of the +/− marks.
	HumanSame AspectCells `json:"human_same_tasks,omitempty"`
	// Mark is "⁺" when Mean ≥ HumanSame, "⁻" otherwise, "" when undefined
	// (superscripts, so that they do not read as the value's sign).
	Mark [5]string `json:"mark"`
}

// Table4Row is one row of SWE-NFI Table 4: mean I_p per aspect over
// correct runs on single-file tasks, on multi-file tasks, and S − M.
type Table4Row struct {
	Agent  string      `json:"agent"`
	Single AspectCells `json:"single"`
	Multi  AspectCells `json:"multi"`
	Diff   AspectCells `json:"single_minus_multi"`
}

// ConsistencyRow describes one agent's repeated runs: MeanStd is, per
// aspect, the mean over tasks of the population standard deviation of I_p
// across that task's correct runs (tasks with ≥ 2 correct runs); SameVerdict
// counts tasks whose pass/fail verdict is identical in every run.
type ConsistencyRow struct {
	Agent            string      `json:"agent"`
	Tasks            int         `json:"tasks"`
	MaxRuns          int         `json:"runs"`
	MeanStd          AspectCells `json:"mean_std_improvement"`
	SameVerdict      int         `json:"same_verdict_tasks"`
	SameVerdictShare float64     `json:"same_verdict_share"`
}

// CostRow is one agent's cost: wall time (seconds) and tokens
// (tokens_in + tokens_out) per run, and NFI gained per 1,000 tokens:
// Σ over correct runs of Σ_p I_p (pp) ÷ (Σ tokens over all its runs ÷ 1000).
type CostRow struct {
	Agent          string `json:"agent"`
	MeanSeconds    Cell   `json:"mean_duration_s"`
	MedianSeconds  Cell   `json:"median_duration_s"`
	MeanTokens     Cell   `json:"mean_tokens"`
	MedianTokens   Cell   `json:"median_tokens"`
	MeanCostUSD    Cell   `json:"mean_cost_usd"`
	NFIPer1kTokens Cell   `json:"nfi_pp_per_1k_tokens"`
}

// NFI is the whole SWE-NFI report.
type NFI struct {
	Tasks       int              `json:"tasks"`
	Agents      []string         `json:"agents"`
	Table3      []Table3Row      `json:"table3"`
	Table4      []Table4Row      `json:"table4"`
	Consistency []ConsistencyRow `json:"consistency"`
	Cost        []CostRow        `json:"cost"`
}

// BuildNFI aggregates suite records into the paper's tables.
// Source: SWE-NFI Tables 3 and 4, §5 consistency and cost; polynfi spec §3.2.
// The Human Reference row takes each task once (I_p(h), Valid and Func.
// Pass 100%). Agent rows count every record, one per (task, run), missing
// predictions included as invalid runs (the suite writes those records).
func BuildNFI(records []nfisuite.Record) NFI {
	byAgent := map[string][]nfisuite.Record{}
	tasks := map[string]nfisuite.Record{}
	for _, r := range records {
		byAgent[r.Model] = append(byAgent[r.Model], r)
		if _, ok := tasks[r.InstanceID]; !ok {
			tasks[r.InstanceID] = r
		}
	}
	var rep NFI
	rep.Tasks = len(tasks)
	for a := range byAgent {
		rep.Agents = append(rep.Agents, a)
	}
	sort.Strings(rep.Agents)

	// Human reference: each task once.
	var human []humanRun
	for _, r := range tasks {
		human = append(human, humanRun{scope: r.Scope, im: r.Human})
	}
	hrow := Table3Row{Agent: HumanReference, Runs: len(human), Valid: len(human), Correct: len(human)}
	if len(human) > 0 {
		hrow.ValidPct, hrow.PassPct = 100, 100
	}
	hrow.Mean = meansOf(human, "")
	rep.Table3 = append(rep.Table3, hrow)
	rep.Table4 = append(rep.Table4, table4Row(HumanReference, human))

	for _, agent := range rep.Agents {
		rs := byAgent[agent]
		sortRecords(rs)
		row := Table3Row{Agent: agent, Runs: len(rs)}
		var agentRuns, humanSame []humanRun
		for _, r := range rs {
			if r.Valid {
				row.Valid++
			}
			if r.FunctionallyCorrect && r.Improvement != nil {
				row.Correct++
				agentRuns = append(agentRuns, humanRun{scope: r.Scope, im: *r.Improvement})
				humanSame = append(humanSame, humanRun{scope: r.Scope, im: r.Human})
			}
		}
		if row.Runs > 0 {
			row.ValidPct = 100 * float64(row.Valid) / float64(row.Runs)
			row.PassPct = 100 * float64(row.Correct) / float64(row.Runs)
		}
		row.Mean = meansOf(agentRuns, "")
		row.HumanSame = meansOf(humanSame, "")
		for i := range row.Mean {
			if row.Mean[i].OK && row.HumanSame[i].OK {
				if row.Mean[i].Value >= row.HumanSame[i].Value-1e-12 {
					row.Mark[i] = "⁺"
				} else {
					row.Mark[i] = "⁻"
				}
			}
		}
		rep.Table3 = append(rep.Table3, row)
		rep.Table4 = append(rep.Table4, table4Row(agent, agentRuns))
		rep.Consistency = append(rep.Consistency, consistency(agent, rs))
		rep.Cost = append(rep.Cost, cost(agent, rs))
	}
	return rep
}

type humanRun struct {
	scope string
	im    nfi.Improvement
}

// meansOf averages I_p per aspect over runs of the given scope ("" = all).
func meansOf(runs []humanRun, scope string) AspectCells {
	var out AspectCells
	for i, a := range nfi.Aspects {
		var xs []float64
		for _, r := range runs {
			if scope != "" && r.scope != scope {
				continue
			}
			if v, ok := r.im.Get(a); ok {
				xs = append(xs, v)
			}
		}
		out[i] = meanCell(xs)
	}
	return out
}

func table4Row(agent string, runs []humanRun) Table4Row {
	row := Table4Row{Agent: agent, Single: meansOf(runs, "single"), Multi: meansOf(runs, "multi")}
	for i := range row.Diff {
		if row.Single[i].OK && row.Multi[i].OK {
			row.Diff[i] = Cell{Value: row.Single[i].Value - row.Multi[i].Value, N: row.Single[i].N + row.Multi[i].N, OK: true}
		}
	}
	return row
}

func sortRecords(rs []nfisuite.Record) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].InstanceID != rs[j].InstanceID {
			return rs[i].InstanceID < rs[j].InstanceID
		}
		return rs[i].Run < rs[j].Run
	})
}

func consistency(agent string, rs []nfisuite.Record) ConsistencyRow {
	byTask := map[string][]nfisuite.Record{}
	var order []string
	for _, r := range rs {
		if _, ok := byTask[r.InstanceID]; !ok {
			order = append(order, r.InstanceID)
		}
		byTask[r.InstanceID] = append(byTask[r.InstanceID], r)
	}
	row := ConsistencyRow{Agent: agent, Tasks: len(order)}
	var stds [5][]float64
	for _, id := range order {
		runs := byTask[id]
		row.MaxRuns = max(row.MaxRuns, len(runs))
		same := true
		for _, r := range runs[1:] {
			if r.FunctionallyCorrect != runs[0].FunctionallyCorrect {
				same = false
			}
		}
		if same {
			row.SameVerdict++
		}
		for i, a := range nfi.Aspects {
			var xs []float64
			for _, r := range runs {
				if r.FunctionallyCorrect && r.Improvement != nil {
					if v, ok := r.Improvement.Get(a); ok {
						xs = append(xs, v)
					}
				}
			}
			if len(xs) >= 2 {
				stds[i] = append(stds[i], popStd(xs))
			}
		}
	}
	for i := range stds {
		row.MeanStd[i] = meanCell(stds[i])
	}
	if row.Tasks > 0 {
		row.SameVerdictShare = float64(row.SameVerdict) / float64(row.Tasks)
	}
	return row
}

func cost(agent string, rs []nfisuite.Record) CostRow {
	var secs, toks, usd []float64
	gain, tokenSum := 0.0, int64(0)
	for _, r := range rs {
		if r.DurationS != nil {
			secs = append(secs, *r.DurationS)
		}
		if r.CostUSD != nil {
			usd = append(usd, *r.CostUSD)
		}
		if n, ok := r.Tokens(); ok {
			toks = append(toks, float64(n))
			tokenSum += n
		}
		if r.FunctionallyCorrect && r.Improvement != nil {
			for _, a := range nfi.Aspects {
				if v, ok := r.Improvement.Get(a); ok {
					gain += 100 * v
				}
			}
		}
	}
	row := CostRow{Agent: agent, MeanSeconds: meanCell(secs), MedianSeconds: medianCell(secs),
		MeanTokens: meanCell(toks), MedianTokens: medianCell(toks), MeanCostUSD: meanCell(usd)}
	if tokenSum > 0 {
		row.NFIPer1kTokens = Cell{Value: gain / (float64(tokenSum) / 1000), N: len(toks), OK: true}
	}
	return row
}
