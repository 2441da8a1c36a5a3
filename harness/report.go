package harness

import (
	"fmt"
	"sort"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/retrieval"
)

// Report is the run report written to OUT/report.json: SWE-bench's report
// fields at the top level, SWE-PolyBench's result.json under "polybench",
// and polynfi's extras under "polynfi".
//
// An evaluation unit is one instance of the evaluated set under one (model,
// run) pair of the predictions; ids in the lists are the instance id, with
// "@model#run" appended when the predictions hold more than one pair.
//
// Source: SWE-bench swebench/harness/reporting.py make_run_report (fields
// and schema_version 2); SWE-PolyBench scoring.py aggregate_logs and
// polybench_data.py AggregateOutput.
type Report struct {
	TotalInstances      int      `json:"total_instances"`
	SubmittedInstances  int      `json:"submitted_instances"`
	CompletedInstances  int      `json:"completed_instances"`
	ResolvedInstances   int      `json:"resolved_instances"`
	UnresolvedInstances int      `json:"unresolved_instances"`
	EmptyPatchInstances int      `json:"empty_patch_instances"`
	ErrorInstances      int      `json:"error_instances"`
	CompletedIDs        []string `json:"completed_ids"`
	IncompleteIDs       []string `json:"incomplete_ids"`
	EmptyPatchIDs       []string `json:"empty_patch_ids"`
	SubmittedIDs        []string `json:"submitted_ids"`
	ResolvedIDs         []string `json:"resolved_ids"`
	UnresolvedIDs       []string `json:"unresolved_ids"`
	ErrorIDs            []string `json:"error_ids"`
	SchemaVersion       int      `json:"schema_version"`

	PolyBench PolyBenchAggregate `json:"polybench"`
	Polynfi   Extras             `json:"polynfi"`
}

// PolyBenchAggregate mirrors SWE-PolyBench's result.json (AggregateOutput).
// Resolved is under the polybench grading mode.
type PolyBenchAggregate struct {
	NoGeneration             []string         `json:"no_generation"`
	Generation               []string         `json:"generation"`
	PatchApplied             []string         `json:"patch_applied"`
	WithLogs                 []string         `json:"with_logs"`
	Resolved                 []string         `json:"resolved"`
	NotResolved              []string         `json:"not_resolved"`
	TotalEmptyPatchInstances int              `json:"total_empty_patch_instances"`
	TotalInstances           int              `json:"total_instances"`
	TotalResolved            int              `json:"total_resolved"`
	TotalUnresolved          int              `json:"total_unresolved"`
	FileRetrieval            []map[string]any `json:"file_retrieval"`
	NodeRetrieval            []map[string]any `json:"node_retrieval"`
}

// ModeSummary is the outcome of the run under one grading mode.
type ModeSummary struct {
	Resolved    int            `json:"resolved"`
	Total       int            `json:"total"`
	Rate        float64        `json:"rate"` // Resolved / Total, in [0, 1]; 0 when Total is 0
	ResolvedIDs []string       `json:"resolved_ids"`
	Statuses    map[Status]int `json:"statuses"`
}

// Group is resolved counts of one language or task category. Total is the
// group's units in the evaluated set (the denominator), Resolved is per
// mode.
type Group struct {
	Name     string       `json:"name"`
	Total    int          `json:"total"`
	Resolved map[Mode]int `json:"resolved"`
}

// Differing is a unit whose verdict differs between modes.
type Differing struct {
	ID       string          `json:"id"`
	Resolved map[Mode]bool   `json:"resolved"`
	Statuses map[Mode]Status `json:"statuses"`
}

// Overhead is one unit's harness overhead (everything but the test
// command) and test time, in seconds.
type Overhead struct {
	ID        string  `json:"id"`
	OverheadS float64 `json:"overhead_s"`
	TestS     float64 `json:"test_s"`
	TotalS    float64 `json:"total_s"`
}

// Extras are polynfi's additions to the report.
type Extras struct {
	RunID         string                `json:"run_id"`
	Dataset       string                `json:"dataset"`
	DatasetSchema dataset.Schema        `json:"dataset_schema"`
	Predictions   string                `json:"predictions"`
	NativeMode    Mode                  `json:"native_mode"`
	Units         int                   `json:"units"`
	Recorded      int                   `json:"recorded"`
	Evaluated     int                   `json:"evaluated"`
	Skipped       int                   `json:"skipped_already_recorded"`
	Abandoned     int                   `json:"abandoned"`
	Interrupted   bool                  `json:"interrupted"`
	ElapsedS      float64               `json:"elapsed_s"`
	Workers       int                   `json:"workers"`
	Modes         map[Mode]*ModeSummary `json:"modes"`
	Differing     []Differing           `json:"differing"`
	ByLanguage    []*Group              `json:"by_language"`
	ByCategory    []*Group              `json:"by_task_category"`
	Isolation     map[string]int        `json:"isolation"` // runs per sandbox kind
	IsolationNote []string              `json:"isolation_notes,omitempty"`
	Overhead      []Overhead            `json:"overhead"`
	MeanOverheadS float64               `json:"mean_overhead_s"`
	MeanTestS     float64               `json:"mean_test_s"`
	Retrieval     *retrieval.Summary    `json:"retrieval,omitempty"`
	StatusIDs     map[Status][]string   `json:"status_ids"` // under the native mode
	InputErrors   []string              `json:"input_errors,omitempty"`
	Started       time.Time             `json:"started_at"`
}

// ReportInput is what BuildReport needs.
type ReportInput struct {
	Dataset     *dataset.Dataset
	Instances   []dataset.Instance // the evaluated set (after --instance-ids)
	Predictions string             // file name or "gold"
	Jobs        []Job
	Result      *RunResult
	NativeMode  Mode
	RunID       string
	Workers     int
	InputErrors []string
	Started     time.Time
}

type pair struct {
	model string
	run   int
}

// BuildReport aggregates a run's records.
func BuildReport(in ReportInput) *Report {
	pairs := []pair{}
	seenPair := map[pair]bool{}
	for _, j := range in.Jobs {
		p := pair{j.Prediction.ModelNameOrPath, j.Prediction.Run}
		if !seenPair[p] {
			seenPair[p] = true
			pairs = append(pairs, p)
		}
	}
	if len(pairs) == 0 {
		pairs = append(pairs, pair{})
	}
	label := func(id string, p pair) string {
		if len(pairs) == 1 {
			return id
		}
		return fmt.Sprintf("%s@%s#%d", id, p.model, p.run)
	}
	type unitKey struct {
		id string
		p  pair
	}
	jobOf := map[unitKey]int{}
	for i, j := range in.Jobs {
		jobOf[unitKey{j.Instance.InstanceID, pair{j.Prediction.ModelNameOrPath, j.Prediction.Run}}] = i
	}

	r := &Report{SchemaVersion: 2}
	list := func() []string { return []string{} }
	r.CompletedIDs, r.IncompleteIDs, r.EmptyPatchIDs, r.SubmittedIDs = list(), list(), list(), list()
	r.ResolvedIDs, r.UnresolvedIDs, r.ErrorIDs = list(), list(), list()
	pb := &r.PolyBench
	pb.NoGeneration, pb.Generation, pb.PatchApplied, pb.WithLogs, pb.Resolved, pb.NotResolved = list(), list(), list(), list(), list(), list()
	pb.FileRetrieval = []map[string]any{}
	x := &r.Polynfi
	x.RunID, x.Predictions, x.NativeMode, x.Workers, x.Started = in.RunID, in.Predictions, in.NativeMode, in.Workers, in.Started.UTC()
	if in.Dataset != nil {
		x.Dataset, x.DatasetSchema = in.Dataset.Path, in.Dataset.Schema
	}
	x.Modes = map[Mode]*ModeSummary{}
	for _, m := range Modes {
		x.Modes[m] = &ModeSummary{ResolvedIDs: list(), Statuses: map[Status]int{}}
	}
	x.Differing = []Differing{}
	x.Isolation = map[string]int{}
	x.Overhead = []Overhead{}
	x.StatusIDs = map[Status][]string{}
	x.InputErrors = in.InputErrors
	if in.Result != nil {
		x.Evaluated, x.Skipped, x.Abandoned, x.Interrupted = in.Result.Evaluated, in.Result.Skipped, in.Result.Abandoned, in.Result.Interrupted
		x.ElapsedS = in.Result.Elapsed.Seconds()
	}
	byLang, byCat := map[string]*Group{}, map[string]*Group{}
	group := func(m map[string]*Group, name string) *Group {
		if name == "" {
			name = "(none)"
		}
		g, ok := m[name]
		if !ok {
			g = &Group{Name: name, Resolved: map[Mode]int{}}
			m[name] = g
		}
		return g
	}
	notes := map[string]bool{}
	var metrics []retrieval.InstanceMetrics
	var sumOver, sumTest float64

	for _, inst := range in.Instances {
		for _, p := range pairs {
			id := label(inst.InstanceID, p)
			x.Units++
			r.TotalInstances++
			gl, gc := group(byLang, inst.Language), group(byCat, inst.TaskCategory)
			gl.Total++
			gc.Total++
			for _, m := range Modes {
				x.Modes[m].Total++
			}
			ji, submitted := jobOf[unitKey{inst.InstanceID, p}]
			var rec *Record
			if submitted {
				r.SubmittedIDs = append(r.SubmittedIDs, id)
				if in.Result != nil {
					rec = in.Result.Records[ji]
				}
			}
			if rec == nil {
				r.IncompleteIDs = append(r.IncompleteIDs, id)
				continue
			}
			x.Recorded++
			native := rec.Verdicts.Get(in.NativeMode)
			x.StatusIDs[native.Status] = append(x.StatusIDs[native.Status], id)
			switch {
			case !rec.Generation:
				r.EmptyPatchIDs = append(r.EmptyPatchIDs, id)
			case rec.Test != nil:
				r.CompletedIDs = append(r.CompletedIDs, id)
				if native.Resolved {
					r.ResolvedIDs = append(r.ResolvedIDs, id)
				} else {
					r.UnresolvedIDs = append(r.UnresolvedIDs, id)
				}
			default:
				r.ErrorIDs = append(r.ErrorIDs, id)
			}
			// SWE-PolyBench aggregate.
			if rec.Generation {
				pb.Generation = append(pb.Generation, id)
			} else {
				pb.NoGeneration = append(pb.NoGeneration, id)
			}
			if rec.PatchApplied {
				pb.PatchApplied = append(pb.PatchApplied, id)
			}
			if rec.WithLogs {
				pb.WithLogs = append(pb.WithLogs, id)
			}
			if rec.Verdicts.PolyBench.Resolved {
				pb.Resolved = append(pb.Resolved, id)
			} else {
				pb.NotResolved = append(pb.NotResolved, id)
			}
			if !rec.Generation && !rec.PatchApplied {
				pb.TotalEmptyPatchInstances++
			}
			if m := rec.Retrieval; m != nil {
				metrics = append(metrics, *m)
				pb.FileRetrieval = append(pb.FileRetrieval, map[string]any{"instance_id": id,
					"file_recall": m.File.Recall, "file_precision": m.File.Precision, "file_f1": m.File.F1})
				if m.Node != nil {
					pb.NodeRetrieval = append(pb.NodeRetrieval, map[string]any{"instance_id": id,
						"node_recall": m.Node.Recall, "node_precision": m.Node.Precision, "node_f1": m.Node.F1})
				}
			}
			// Modes, groups, differences.
			for _, m := range Modes {
				v := rec.Verdicts.Get(m)
				ms := x.Modes[m]
				ms.Statuses[v.Status]++
				if v.Resolved {
					ms.Resolved++
					ms.ResolvedIDs = append(ms.ResolvedIDs, id)
					gl.Resolved[m]++
					gc.Resolved[m]++
				}
			}
			if rec.Verdicts.Differ() {
				d := Differing{ID: id, Resolved: map[Mode]bool{}, Statuses: map[Mode]Status{}}
				for _, m := range Modes {
					d.Resolved[m] = rec.Verdicts.Get(m).Resolved
					d.Statuses[m] = rec.Verdicts.Get(m).Status
				}
				x.Differing = append(x.Differing, d)
			}
			if rec.Test != nil {
				x.Isolation[rec.Test.Isolation]++
				for _, n := range rec.Test.Notes {
					if len(n) >= 12 && n[:12] == "no isolation" {
						notes[n] = true
					}
				}
			}
			x.Overhead = append(x.Overhead, Overhead{ID: id, OverheadS: rec.Timing.OverheadS, TestS: rec.Timing.TestS, TotalS: rec.Timing.TotalS})
			sumOver += rec.Timing.OverheadS
			sumTest += rec.Timing.TestS
		}
	}
	r.SubmittedInstances = len(r.SubmittedIDs)
	r.CompletedInstances = len(r.CompletedIDs)
	r.ResolvedInstances = len(r.ResolvedIDs)
	r.UnresolvedInstances = len(r.UnresolvedIDs)
	r.EmptyPatchInstances = len(r.EmptyPatchIDs)
	r.ErrorInstances = len(r.ErrorIDs)
	pb.TotalResolved, pb.TotalUnresolved = len(pb.Resolved), len(pb.NotResolved)
	pb.TotalInstances = pb.TotalResolved + pb.TotalUnresolved
	for _, ms := range x.Modes {
		if ms.Total > 0 {
			ms.Rate = float64(ms.Resolved) / float64(ms.Total)
		}
	}
	if x.Recorded > 0 {
		x.MeanOverheadS, x.MeanTestS = sumOver/float64(x.Recorded), sumTest/float64(x.Recorded)
	}
	x.ByLanguage, x.ByCategory = sortedGroups(byLang), sortedGroups(byCat)
	for n := range notes {
		x.IsolationNote = append(x.IsolationNote, n)
	}
	sort.Strings(x.IsolationNote)
	if len(metrics) > 0 {
		s := retrieval.Summarize(metrics)
		x.Retrieval = &s
	}
	return r
}

func sortedGroups(m map[string]*Group) []*Group {
	out := make([]*Group, 0, len(m))
	for _, g := range m {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
