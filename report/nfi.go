// Package report aggregates per-run and per-instance records into the
// published benchmarks' tables and renders them (text, Markdown, JSON, HTML
// with SVG charts). It imports result types only and never runs anything.
package report

import (
	"encoding/json"
	"math"
	"sort"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfirecord"
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
	// ValidCI and PassCI are the 95% Wilson intervals of ValidPct and
	// PassPct (fractions); PassOK is false when the pass rate was not
	// measured (the Human Reference without runs of the gold model).
	ValidCI Interval `json:"valid_ci"`
	PassCI  Interval `json:"func_pass_ci"`
	PassOK  bool     `json:"func_pass_measured"`
	// MeanCI is the bootstrap 95% interval of Mean per aspect; DiffCI the
	// bootstrap interval of the mean paired difference I_p − I_p(h) over
	// the same (task, run) pairs; Supported is true when DiffCI excludes
	// 0 on the side of Mark (the interval supports the mark; never with
	// fewer than two pairs).
	MeanCI    [5]Interval `json:"mean_improvement_ci"`
	DiffCI    [5]Interval `json:"diff_from_human_ci"`
	Supported [5]bool     `json:"mark_supported"`
	// NotEvaluated counts the row's (task, run) units the run's manifest
	// asks for that have no record (an interrupted run did not reach
	// them): in no rate and no mean. For the Human Reference: the tasks
	// with no record at all (their I_p(h) was not computed).
	NotEvaluated int `json:"not_evaluated"`
	// Clustered is true when the row has repeated runs of a task: its
	// intervals (ValidCI, PassCI, MeanCI, DiffCI) are then cluster
	// bootstrap intervals resampling tasks with all their runs
	// (ClusterBootstrapMean), not Wilson or per-run bootstrap intervals,
	// since runs of one task are not independent; Supported then also
	// needs two distinct tasks.
	Clustered bool `json:"clustered_by_task"`
}

// MarshalJSON writes a rate the report does not know as null, never 0:
// valid_pct when the row has no evaluated run, func_pass_pct and
// functionally_correct when the pass rate was not measured (PassOK false:
// the Human Reference without runs of the gold model, an agent with no
// evaluated run); the text shows Dash for them.
func (r Table3Row) MarshalJSON() ([]byte, error) {
	type plain Table3Row
	out := struct {
		plain
		ValidPct *float64 `json:"valid_pct"`
		PassPct  *float64 `json:"func_pass_pct"`
		Correct  *int     `json:"functionally_correct"`
	}{plain: plain(r)}
	if r.Runs > 0 {
		out.ValidPct = &r.ValidPct
	}
	if r.PassOK {
		out.PassPct, out.Correct = &r.PassPct, &r.Correct
	}
	return json.Marshal(out)
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
	// PassAtK[k-1] is the mean over tasks with at least k runs of the
	// unbiased pass@k estimate (PassAtK) from the task's runs and its
	// functionally correct runs; N is the number of such tasks.
	PassAtK []Cell `json:"pass_at_k"`
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
	Tasks int `json:"tasks"`
	// NotEvaluated counts the (task, agent, run) units of the run's
	// manifest without a record; GoldFailures lists the tasks where a run
	// of the gold model (the reference evaluated as an agent) was not
	// functionally correct (left out of the Human Reference's means).
	NotEvaluated int              `json:"not_evaluated"`
	GoldFailures []string         `json:"gold_failure_tasks"`
	Agents       []string         `json:"agents"`
	Table3       []Table3Row      `json:"table3"`
	Table4       []Table4Row      `json:"table4"`
	Consistency  []ConsistencyRow `json:"consistency"`
	Cost         []CostRow        `json:"cost"`
}

// NFIUnit is one (task, agent, run) unit a suite run was asked to
// evaluate (its manifest's units).
type NFIUnit struct {
	Task, Agent string
	Run         int
}

// BuildNFI aggregates suite records into the paper's tables (BuildNFIUnits
// with no manifest: every agent and task is one the records have).
func BuildNFI(records []nfirecord.Record) NFI { return BuildNFIUnits(records, nil) }

// BuildNFIUnits aggregates suite records into the paper's tables.
// Source: SWE-NFI Tables 3 and 4, §5 consistency and cost; polynfi spec §3.2.
// units are the run's manifest units: every task and agent among them is
// in the report, and each row counts those of its units without a record
// as not evaluated (an interrupted run), in no rate and no mean; an agent
// with nothing evaluated has a row of Dash.
//
// The Human Reference row takes each task once (Valid 100%). Its mean
// I_p(h), like an agent's, is over functionally correct runs: when the
// gold model (the reference evaluated as an agent) was run, over the
// tasks where a gold run passed its tests (the tasks where it failed are
// listed in GoldFailures and left out), with Func. Pass % measured from
// those runs; otherwise over every task, Func. Pass % unknown. Agent rows
// count every record, one per (task, run), missing predictions included
// as invalid runs (the suite writes those records).
func BuildNFIUnits(records []nfirecord.Record, units []NFIUnit) NFI {
	byAgent := map[string][]nfirecord.Record{}
	tasks := map[string]nfirecord.Record{}
	for _, r := range records {
		byAgent[r.Model] = append(byAgent[r.Model], r)
		if _, ok := tasks[r.InstanceID]; !ok {
			tasks[r.InstanceID] = r
		}
	}
	var rep NFI
	rep.GoldFailures = []string{}
	allTasks := map[string]bool{}
	for id := range tasks {
		allTasks[id] = true
	}
	type uk struct {
		task, agent string
		run         int
	}
	have := map[uk]bool{}
	for _, r := range records {
		have[uk{r.InstanceID, r.Model, r.Run}] = true
	}
	notEval := map[string]int{}
	for _, u := range units {
		allTasks[u.Task] = true
		if _, ok := byAgent[u.Agent]; !ok {
			byAgent[u.Agent] = nil
		}
		if !have[uk{u.Task, u.Agent, u.Run}] {
			notEval[u.Agent]++
			rep.NotEvaluated++
		}
	}
	rep.Tasks = len(allTasks)
	for a := range byAgent {
		rep.Agents = append(rep.Agents, a)
	}
	sort.Strings(rep.Agents)

	// Human reference: each task once.
	// In task order: the bootstrap resamples by index, so the same records
	// must give the same order.
	taskIDs := make([]string, 0, len(tasks))
	for id := range tasks {
		taskIDs = append(taskIDs, id)
	}
	sort.Strings(taskIDs)
	// The Human Reference is valid by construction (a mined, parsing
	// change). Its functional pass rate is measured only where the gold
	// model was run: its correct runs over its runs; otherwise it is not
	// known and shows Dash.
	gold := byAgent["gold"]
	goldPassed, goldFailed := map[string]bool{}, map[string]bool{}
	for _, r := range gold {
		if r.FunctionallyCorrect {
			goldPassed[r.InstanceID] = true
		} else {
			goldFailed[r.InstanceID] = true
		}
	}
	var human []humanRun
	for _, id := range taskIDs {
		if goldFailed[id] {
			rep.GoldFailures = append(rep.GoldFailures, id)
		}
		if len(gold) > 0 && !goldPassed[id] {
			continue // the reference did not pass its tests here (or was not run on it)
		}
		r := tasks[id]
		human = append(human, humanRun{task: id, scope: r.Scope, im: r.Human})
	}
	hrow := Table3Row{Agent: HumanReference, Runs: len(taskIDs), Valid: len(taskIDs), NotEvaluated: len(allTasks) - len(taskIDs)}
	if len(taskIDs) > 0 {
		hrow.ValidPct = 100
		hrow.ValidCI = Wilson(len(taskIDs), len(taskIDs))
	}
	if len(gold) > 0 {
		for _, r := range gold {
			if r.FunctionallyCorrect {
				hrow.Correct++
			}
		}
		hrow.PassOK = true
		hrow.PassPct = 100 * float64(hrow.Correct) / float64(len(gold))
		hrow.PassCI = Wilson(hrow.Correct, len(gold))
	}
	hrow.Mean = meansOf(human, "")
	hrow.MeanCI = intervalsOf(human)
	rep.Table3 = append(rep.Table3, hrow)
	rep.Table4 = append(rep.Table4, table4Row(HumanReference, human))

	for _, agent := range rep.Agents {
		rs := byAgent[agent]
		sortRecords(rs)
		row := Table3Row{Agent: agent, Runs: len(rs), NotEvaluated: notEval[agent]}
		var agentRuns, humanSame []humanRun
		var validX, passX []float64
		var runTasks []string
		for _, r := range rs {
			runTasks = append(runTasks, r.InstanceID)
			validX, passX = append(validX, b01(r.Valid)), append(passX, b01(r.FunctionallyCorrect && r.Improvement != nil))
			if r.Valid {
				row.Valid++
			}
			if r.FunctionallyCorrect && r.Improvement != nil {
				row.Correct++
				agentRuns = append(agentRuns, humanRun{task: r.InstanceID, scope: r.Scope, im: *r.Improvement})
				humanSame = append(humanSame, humanRun{task: r.InstanceID, scope: r.Scope, im: r.Human})
			}
		}
		if row.Runs > 0 {
			row.ValidPct = 100 * float64(row.Valid) / float64(row.Runs)
			row.PassPct = 100 * float64(row.Correct) / float64(row.Runs)
		}
		row.PassOK = row.Runs > 0
		row.ValidCI, row.PassCI = Wilson(row.Valid, row.Runs), Wilson(row.Correct, row.Runs)
		if row.Clustered = Repeated(runTasks); row.Clustered {
			row.ValidCI, row.PassCI = ClusterBootstrapMean(validX, runTasks), ClusterBootstrapMean(passX, runTasks)
		}
		row.Mean = meansOf(agentRuns, "")
		row.MeanCI = intervalsOf(agentRuns)
		row.HumanSame = meansOf(humanSame, "")
		for i, a := range nfi.Aspects {
			if row.Mean[i].OK && row.HumanSame[i].OK {
				if row.Mean[i].Value >= row.HumanSame[i].Value-1e-12 {
					row.Mark[i] = "⁺"
				} else {
					row.Mark[i] = "⁻"
				}
			}
			var d []float64
			var dt []string
			tasksOf := map[string]bool{}
			for j := range agentRuns {
				va, oka := agentRuns[j].im.Get(a)
				vh, okh := humanSame[j].im.Get(a)
				if oka && okh {
					d, dt = append(d, va-vh), append(dt, agentRuns[j].task)
					tasksOf[agentRuns[j].task] = true
				}
			}
			row.DiffCI[i] = ClusterBootstrapMean(d, dt)
			c := row.DiffCI[i]
			enough := len(d) >= 2 && (!row.Clustered || len(tasksOf) >= 2)
			row.Supported[i] = c.OK && enough && ((row.Mark[i] == "⁺" && c.Lo > 0) || (row.Mark[i] == "⁻" && c.Hi < 0))
		}
		rep.Table3 = append(rep.Table3, row)
		rep.Table4 = append(rep.Table4, table4Row(agent, agentRuns))
		rep.Consistency = append(rep.Consistency, consistency(agent, rs))
		rep.Cost = append(rep.Cost, cost(agent, rs))
	}
	return rep
}

type humanRun struct {
	task  string // the task id: the cluster of repeated runs
	scope string
	im    nfi.Improvement
}

// intervalsOf bootstraps the mean I_p per aspect over runs, resampling
// tasks with all their runs when a task has repeated runs
// (ClusterBootstrapMean; BootstrapMean otherwise).
func intervalsOf(runs []humanRun) [5]Interval {
	var out [5]Interval
	for i, a := range nfi.Aspects {
		var xs []float64
		var ts []string
		for _, r := range runs {
			if v, ok := r.im.Get(a); ok {
				xs, ts = append(xs, v), append(ts, r.task)
			}
		}
		out[i] = ClusterBootstrapMean(xs, ts)
	}
	return out
}

func b01(b bool) float64 {
	if b {
		return 1
	}
	return 0
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

func sortRecords(rs []nfirecord.Record) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].InstanceID != rs[j].InstanceID {
			return rs[i].InstanceID < rs[j].InstanceID
		}
		return rs[i].Run < rs[j].Run
	})
}

func consistency(agent string, rs []nfirecord.Record) ConsistencyRow {
	byTask := map[string][]nfirecord.Record{}
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
	for k := 1; k <= row.MaxRuns; k++ {
		var xs []float64
		for _, id := range order {
			runs := byTask[id]
			c := 0
			for _, r := range runs {
				if r.FunctionallyCorrect {
					c++
				}
			}
			if v, ok := PassAtK(len(runs), c, k); ok {
				xs = append(xs, v)
			}
		}
		row.PassAtK = append(row.PassAtK, meanCell(xs))
	}
	if row.Tasks > 0 {
		row.SameVerdictShare = float64(row.SameVerdict) / float64(row.Tasks)
	}
	return row
}

func cost(agent string, rs []nfirecord.Record) CostRow {
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
