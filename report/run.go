package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/retrieval"
)

// Report is the run report written to OUT/report.json: SWE-bench's report
// fields at the top level, SWE-PolyBench's result.json under "polybench",
// and polynfi's extras under "polynfi".
//
// An evaluation unit is one instance of the evaluated set under one (model,
// run) pair of the predictions; ids in the lists are the instance id, with
// "@model#run" appended when the predictions hold more than one pair. The
// SWE-bench id lists are sorted, as SWE-bench writes them.
//
// The SWE-bench partition is SWE-bench's: a unit without a prediction is
// incomplete; one whose prediction is empty is empty_patch; one with a
// record whose test command ran is completed (resolved or unresolved under
// the native mode); every other submitted unit, including one an
// interrupted run did not record, is an error (polynfi's extras list the
// unrecorded ones apart). Differences, deliberate: SWE-bench refuses
// predictions for instances outside the dataset, polynfi skips them with a
// warning; an empty patch is one that is blank after trimming
// (SWE-PolyBench's test), where SWE-bench tests for "" or null; and
// infra_failure_ids / ambiguous_failure_ids come from polynfi's grading,
// not from SWE-bench's log signatures: infra_failure lists the units whose
// log parsed to no test (strict infra_failure) or that the harness could
// not evaluate (error status), ambiguous_failure the timed-out ones; like
// SWE-bench's they are advisory and the units stay in their lists.
//
// The SWE-PolyBench section counts, as SWE-PolyBench does after merging
// predictions into the dataset, a unit without a prediction as an empty
// generation (no_generation, not_resolved, zero retrieval metrics). Its
// node_retrieval lists every unit whose node metrics were computed, with
// null values when the reference change has no node and -1 when the
// reference patch failed, as in its instance files. Deliberately unlike
// SWE-PolyBench: a test patch that does not apply is an error here, where
// SWE-PolyBench records it as a unit without generation; and gold runs
// score the gold patch's own retrieval (SWE-PolyBench scores the empty
// model patch of a gold run, giving 0).
//
// Source: SWE-bench swebench/harness/reporting.py make_run_report (fields
// and schema_version 2, release 5.0.2); SWE-PolyBench scoring.py
// aggregate_logs and polybench_data.py AggregateOutput, run_evaluation.py
// evaluate_predictions (left merge of predictions into the dataset).
type Harness struct {
	TotalInstances            int               `json:"total_instances"`
	SubmittedInstances        int               `json:"submitted_instances"`
	CompletedInstances        int               `json:"completed_instances"`
	ResolvedInstances         int               `json:"resolved_instances"`
	UnresolvedInstances       int               `json:"unresolved_instances"`
	InfraFailureInstances     int               `json:"infra_failure_instances"`
	AmbiguousFailureInstances int               `json:"ambiguous_failure_instances"`
	EmptyPatchInstances       int               `json:"empty_patch_instances"`
	ErrorInstances            int               `json:"error_instances"`
	CompletedIDs              []string          `json:"completed_ids"`
	IncompleteIDs             []string          `json:"incomplete_ids"`
	EmptyPatchIDs             []string          `json:"empty_patch_ids"`
	SubmittedIDs              []string          `json:"submitted_ids"`
	ResolvedIDs               []string          `json:"resolved_ids"`
	UnresolvedIDs             []string          `json:"unresolved_ids"`
	InfraFailureIDs           []string          `json:"infra_failure_ids"`
	AmbiguousFailureIDs       []string          `json:"ambiguous_failure_ids"`
	FailureReasons            map[string]string `json:"failure_reasons"`
	ErrorIDs                  []string          `json:"error_ids"`
	SchemaVersion             int               `json:"schema_version"`

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
	Resolved    int                    `json:"resolved"`
	Total       int                    `json:"total"`
	Rate        float64                `json:"rate"` // Resolved / Total, in [0, 1]; 0 when Total is 0
	ResolvedIDs []string               `json:"resolved_ids"`
	Statuses    map[harness.Status]int `json:"statuses"`
}

// Group is resolved counts of one language, task category or complexity
// class. Total is the group's units in the evaluated set (the
// denominator), Resolved is per mode.
type Group struct {
	Name     string               `json:"name"`
	Total    int                  `json:"total"`
	Resolved map[harness.Mode]int `json:"resolved"`
}

// Rate returns Resolved[m] / Total, ok false when Total is 0.
func (g *Group) Rate(m harness.Mode) (float64, bool) {
	if g.Total == 0 {
		return 0, false
	}
	return float64(g.Resolved[m]) / float64(g.Total), true
}

// AspectMean is the mean I_p of one NFI aspect over N units (a fraction;
// reports show ×100, percentage points); N is 0 and Mean 0 when no unit
// has a score for the aspect.
type AspectMean struct {
	Aspect string  `json:"aspect"`
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
}

// NFISummary is the mean NFI improvement of the run's model patches on the
// .py files they change (before: base plus test patch; after: with the
// model patch). Units counts the units with a delta (a patch that changed
// a .py file and applied), Valid those whose files parse on both sides;
// Mean is over the valid ones, MeanResolved over the valid ones resolved
// under the native mode (SWE-NFI reports I_p over functionally correct
// runs only). Source: SWE-NFI Eq. 2 and 3; polynfi spec §2.6 and §3.
type NFISummary struct {
	Catalog      string       `json:"catalog"`
	Units        int          `json:"units"`
	Valid        int          `json:"valid"`
	Mean         []AspectMean `json:"mean_improvement"`
	MeanResolved []AspectMean `json:"mean_improvement_resolved"`
}

// Differing is a unit whose verdict differs between modes.
type Differing struct {
	ID       string                          `json:"id"`
	Resolved map[harness.Mode]bool           `json:"resolved"`
	Statuses map[harness.Mode]harness.Status `json:"statuses"`
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
	RunID         string                        `json:"run_id"`
	Dataset       string                        `json:"dataset"`
	DatasetSchema dataset.Schema                `json:"dataset_schema"`
	Predictions   string                        `json:"predictions"`
	NativeMode    harness.Mode                  `json:"native_mode"`
	Units         int                           `json:"units"`
	Recorded      int                           `json:"recorded"`
	Evaluated     int                           `json:"evaluated"`
	Skipped       int                           `json:"skipped_already_recorded"`
	Abandoned     int                           `json:"abandoned"`
	Interrupted   bool                          `json:"interrupted"`
	ElapsedS      float64                       `json:"elapsed_s"`
	Workers       int                           `json:"workers"`
	Modes         map[harness.Mode]*ModeSummary `json:"modes"`
	Differing     []Differing                   `json:"differing"`
	ByLanguage    []*Group                      `json:"by_language"`
	ByCategory    []*Group                      `json:"by_task_category"`
	// ByComplexity groups the units with retrieval metrics by the
	// complexity class of their reference change (a single_func unit also
	// counts in func_only, single_class in class_only).
	ByComplexity []*Group `json:"by_complexity"`
	// NotRecordedIDs are submitted units without a record (an interrupted
	// run); SWE-bench's lists count them as errors.
	NotRecordedIDs []string                    `json:"not_recorded_ids"`
	NFI            *NFISummary                 `json:"nfi,omitempty"`
	Isolation      map[string]int              `json:"isolation"` // runs per sandbox kind
	IsolationNote  []string                    `json:"isolation_notes,omitempty"`
	Overhead       []Overhead                  `json:"overhead"`
	MeanOverheadS  float64                     `json:"mean_overhead_s"`
	MeanTestS      float64                     `json:"mean_test_s"`
	Retrieval      *retrieval.Summary          `json:"retrieval,omitempty"`
	StatusIDs      map[harness.Status][]string `json:"status_ids"` // under the native mode
	InputErrors    []string                    `json:"input_errors,omitempty"`
	Started        time.Time                   `json:"started_at"`
	// PassAtK is pass@k per model over repeated runs (absent when every
	// instance has one run).
	PassAtK []PassAtKRow `json:"pass_at_k,omitempty"`
}

// HarnessInput is what BuildHarness needs.
type HarnessInput struct {
	Dataset     *dataset.Dataset
	Instances   []dataset.Instance // the evaluated set (after --instance-ids)
	Predictions string             // file name or "gold"
	Jobs        []harness.Job
	Result      *harness.RunResult
	NativeMode  harness.Mode
	RunID       string
	Workers     int
	InputErrors []string
	Started     time.Time
	// Retrieval, when set, are the options the records' metrics were
	// computed with; units without a prediction then get the metrics of an
	// empty prediction (0, kept in the means), as in SWE-PolyBench.
	Retrieval *retrieval.Options
}

type pair struct {
	model string
	run   int
}

// BuildHarness aggregates a run's records.
func BuildHarness(in HarnessInput) *Harness {
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

	r := &Harness{SchemaVersion: 2}
	list := func() []string { return []string{} }
	r.CompletedIDs, r.IncompleteIDs, r.EmptyPatchIDs, r.SubmittedIDs = list(), list(), list(), list()
	r.ResolvedIDs, r.UnresolvedIDs, r.ErrorIDs = list(), list(), list()
	r.InfraFailureIDs, r.AmbiguousFailureIDs, r.FailureReasons = list(), list(), map[string]string{}
	pb := &r.PolyBench
	pb.NoGeneration, pb.Generation, pb.PatchApplied, pb.WithLogs, pb.Resolved, pb.NotResolved = list(), list(), list(), list(), list(), list()
	pb.FileRetrieval, pb.NodeRetrieval = []map[string]any{}, []map[string]any{}
	x := &r.Polynfi
	x.RunID, x.Predictions, x.NativeMode, x.Workers, x.Started = in.RunID, in.Predictions, in.NativeMode, in.Workers, in.Started.UTC()
	if in.Dataset != nil {
		x.Dataset, x.DatasetSchema = in.Dataset.Path, in.Dataset.Schema
	}
	x.Modes = map[harness.Mode]*ModeSummary{}
	for _, m := range harness.Modes {
		x.Modes[m] = &ModeSummary{ResolvedIDs: list(), Statuses: map[harness.Status]int{}}
	}
	x.Differing = []Differing{}
	x.Isolation = map[string]int{}
	x.Overhead = []Overhead{}
	x.StatusIDs = map[harness.Status][]string{}
	x.NotRecordedIDs = list()
	x.InputErrors = in.InputErrors
	if in.Result != nil {
		x.Evaluated, x.Skipped, x.Abandoned, x.Interrupted = in.Result.Evaluated, in.Result.Skipped, in.Result.Abandoned, in.Result.Interrupted
		x.ElapsedS = in.Result.Elapsed.Seconds()
	}
	byLang, byCat, byCx := map[string]*Group{}, map[string]*Group{}, map[string]*Group{}
	group := func(m map[string]*Group, name string) *Group {
		if name == "" {
			name = "(none)"
		}
		g, ok := m[name]
		if !ok {
			g = &Group{Name: name, Resolved: map[harness.Mode]int{}}
			m[name] = g
		}
		return g
	}
	notes := map[string]bool{}
	var metrics []retrieval.InstanceMetrics
	var sumOver, sumTest float64
	nfiAcc := newNFIAccumulator()

	addRetrieval := func(id string, m *retrieval.InstanceMetrics) {
		metrics = append(metrics, *m)
		pb.FileRetrieval = append(pb.FileRetrieval, map[string]any{"instance_id": id,
			"file_recall": m.File.Recall, "file_precision": m.File.Precision, "file_f1": m.File.F1})
		e := map[string]any{"instance_id": id}
		switch m.NodeStatus {
		case retrieval.NodeOK, retrieval.NodeFailedPrediction:
			e["node_recall"], e["node_precision"], e["node_f1"] = m.Node.Recall, m.Node.Precision, m.Node.F1
		case retrieval.NodeNoReference:
			e["node_recall"], e["node_precision"], e["node_f1"] = nil, nil, nil
		case retrieval.NodeFailedReference:
			e["node_recall"], e["node_precision"], e["node_f1"] = -1.0, -1.0, -1.0
		default:
			return
		}
		pb.NodeRetrieval = append(pb.NodeRetrieval, e)
	}

	for _, inst := range in.Instances {
		for _, p := range pairs {
			id := label(inst.InstanceID, p)
			x.Units++
			r.TotalInstances++
			gl, gc := group(byLang, inst.Language), group(byCat, inst.TaskCategory)
			gl.Total++
			gc.Total++
			for _, m := range harness.Modes {
				x.Modes[m].Total++
			}
			ji, submitted := jobOf[unitKey{inst.InstanceID, p}]
			var rec *harness.Record
			if submitted {
				r.SubmittedIDs = append(r.SubmittedIDs, id)
				if in.Result != nil {
					rec = in.Result.Records[ji]
				}
			}
			var cx []retrieval.Complexity
			if !submitted {
				// SWE-PolyBench merges predictions into the dataset: a
				// missing one is an empty generation.
				r.IncompleteIDs = append(r.IncompleteIDs, id)
				pb.NoGeneration = append(pb.NoGeneration, id)
				pb.NotResolved = append(pb.NotResolved, id)
				pb.TotalEmptyPatchInstances++
				if in.Retrieval != nil {
					if m, ok := emptyPredictionMetrics(inst, *in.Retrieval); ok {
						addRetrieval(id, &m)
						cx = m.Complexity.Classes()
					}
				}
				for _, c := range cx {
					group(byCx, string(c)).Total++
				}
				continue
			}
			if rec == nil {
				x.NotRecordedIDs = append(x.NotRecordedIDs, id)
				if in.Jobs[ji].Prediction.Empty() {
					r.EmptyPatchIDs = append(r.EmptyPatchIDs, id)
				} else {
					r.ErrorIDs = append(r.ErrorIDs, id)
				}
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
			if rec.Generation && !native.Resolved {
				switch st := rec.Verdicts.Strict; {
				case st.Status == harness.StatusInfraFailure || st.Status == harness.StatusError:
					r.InfraFailureIDs = append(r.InfraFailureIDs, id)
					r.FailureReasons[id] = string(st.Status) + ": " + st.Reason
				case st.Status == harness.StatusTimedOut:
					r.AmbiguousFailureIDs = append(r.AmbiguousFailureIDs, id)
					r.FailureReasons[id] = string(st.Status) + ": " + st.Reason
				}
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
				addRetrieval(id, m)
				cx = m.Complexity.Classes()
			}
			if rec.NFI != nil {
				nfiAcc.add(rec.NFI, native.Resolved)
			}
			// Modes, groups, differences.
			var gx []*Group
			for _, c := range cx {
				g := group(byCx, string(c))
				g.Total++
				gx = append(gx, g)
			}
			for _, m := range harness.Modes {
				v := rec.Verdicts.Get(m)
				ms := x.Modes[m]
				ms.Statuses[v.Status]++
				if v.Resolved {
					ms.Resolved++
					ms.ResolvedIDs = append(ms.ResolvedIDs, id)
					gl.Resolved[m]++
					gc.Resolved[m]++
					for _, g := range gx {
						g.Resolved[m]++
					}
				}
			}
			if rec.Verdicts.Differ() {
				d := Differing{ID: id, Resolved: map[harness.Mode]bool{}, Statuses: map[harness.Mode]harness.Status{}}
				for _, m := range harness.Modes {
					d.Resolved[m] = rec.Verdicts.Get(m).Resolved
					d.Statuses[m] = rec.Verdicts.Get(m).Status
				}
				x.Differing = append(x.Differing, d)
			}
			if rec.Test != nil {
				x.Isolation[rec.Test.Isolation]++
				for _, n := range rec.Test.Notes {
					if strings.HasPrefix(n, "no isolation") {
						notes[n] = true
					}
				}
			}
			x.Overhead = append(x.Overhead, Overhead{ID: id, OverheadS: rec.Timing.OverheadS, TestS: rec.Timing.TestS, TotalS: rec.Timing.TotalS})
			sumOver += rec.Timing.OverheadS
			sumTest += rec.Timing.TestS
		}
	}
	for _, l := range [][]string{r.CompletedIDs, r.IncompleteIDs, r.EmptyPatchIDs, r.SubmittedIDs, r.ResolvedIDs,
		r.UnresolvedIDs, r.InfraFailureIDs, r.AmbiguousFailureIDs, r.ErrorIDs} {
		sort.Strings(l)
	}
	r.SubmittedInstances = len(r.SubmittedIDs)
	r.CompletedInstances = len(r.CompletedIDs)
	r.ResolvedInstances = len(r.ResolvedIDs)
	r.UnresolvedInstances = len(r.UnresolvedIDs)
	r.InfraFailureInstances = len(r.InfraFailureIDs)
	r.AmbiguousFailureInstances = len(r.AmbiguousFailureIDs)
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
	x.ByComplexity = []*Group{}
	for _, c := range retrieval.ComplexityOrder {
		if g, ok := byCx[string(c)]; ok {
			x.ByComplexity = append(x.ByComplexity, g)
		}
	}
	for n := range notes {
		x.IsolationNote = append(x.IsolationNote, n)
	}
	sort.Strings(x.IsolationNote)
	if len(metrics) > 0 {
		s := retrieval.Summarize(metrics)
		x.Retrieval = &s
	}
	x.NFI = nfiAcc.summary()
	if in.Result != nil {
		x.PassAtK = harnessPassAtK(in.Result.Records)
	}
	return r
}

// emptyPredictionMetrics scores an empty prediction of inst, for a unit
// without a prediction. Node metrics are computed only when they need no
// repository (compatible mode with the dataset's modified_nodes); ok is
// false when even the file metrics cannot be computed.
func emptyPredictionMetrics(inst dataset.Instance, opts retrieval.Options) (retrieval.InstanceMetrics, bool) {
	opts.Parser = nil
	opts.Nodes = opts.Nodes && opts.Mode == retrieval.Compatible && inst.ModifiedNodes != nil
	m, err := retrieval.Evaluate(retrieval.Input{InstanceID: inst.InstanceID, Language: inst.Language, TaskCategory: inst.TaskCategory,
		Reference: inst.Patch, ReferenceNodes: inst.ModifiedNodes}, nil, opts)
	return m, err == nil
}

// nfiAccumulator sums I_p per aspect over valid NFI deltas.
type nfiAccumulator struct {
	catalog     string
	units       int
	valid       int
	all, solved [len(nfi.Aspects)]AspectMean
}

func newNFIAccumulator() *nfiAccumulator { return &nfiAccumulator{} }

func (a *nfiAccumulator) add(d *harness.NFIDelta, resolved bool) {
	a.units++
	if a.catalog == "" {
		a.catalog = d.Catalog
	}
	if !d.Delta.Valid {
		return
	}
	a.valid++
	for i, asp := range nfi.Aspects {
		v, ok := d.Delta.Improvement.Get(asp)
		if !ok {
			continue
		}
		a.all[i].N++
		a.all[i].Mean += v
		if resolved {
			a.solved[i].N++
			a.solved[i].Mean += v
		}
	}
}

func (a *nfiAccumulator) summary() *NFISummary {
	if a.units == 0 {
		return nil
	}
	s := &NFISummary{Catalog: a.catalog, Units: a.units, Valid: a.valid}
	finish := func(ms [len(nfi.Aspects)]AspectMean) []AspectMean {
		out := make([]AspectMean, len(ms))
		for i, m := range ms {
			m.Aspect = nfi.Aspects[i].Code()
			if m.N > 0 {
				m.Mean /= float64(m.N)
			}
			out[i] = m
		}
		return out
	}
	s.Mean, s.MeanResolved = finish(a.all), finish(a.solved)
	return s
}

func sortedGroups(m map[string]*Group) []*Group {
	out := make([]*Group, 0, len(m))
	for _, g := range m {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// HarnessFromRecords rebuilds a run report from stored records alone, for a
// run that stopped before writing report.json. The evaluated set is the
// recorded instances (their language and task category come from the
// records), so there are no incomplete units and no metrics for missing
// predictions; the native mode is the records'.
func HarnessFromRecords(recs []*harness.Record) *Harness {
	var in HarnessInput
	index := map[string]int{}
	in.Result = &harness.RunResult{}
	for _, r := range recs {
		i, ok := index[r.InstanceID]
		if !ok {
			i = len(in.Instances)
			index[r.InstanceID] = i
			in.Instances = append(in.Instances, dataset.Instance{InstanceID: r.InstanceID, Repo: r.Repo, BaseCommit: r.BaseCommit,
				Language: r.Language, TaskCategory: r.TaskCategory})
		}
		in.Jobs = append(in.Jobs, harness.Job{Instance: in.Instances[i],
			Prediction: dataset.Prediction{InstanceID: r.InstanceID, ModelNameOrPath: r.Model, Run: r.Run}})
		in.Result.Records = append(in.Result.Records, r)
		if in.RunID == "" {
			in.RunID, in.NativeMode = r.RunID, r.NativeMode
		}
	}
	in.Result.Skipped = len(recs)
	return BuildHarness(in)
}
