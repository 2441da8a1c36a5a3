package report

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
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
// the native mode); a submitted unit with no record (an interrupted or
// killed run did not reach it) is incomplete too, not an error (polynfi's
// extras list these apart as not_recorded_ids and count them in
// not_evaluated; re-running the same eval resumes them); every other
// submitted unit (the harness could not evaluate it) is an error. Differences, deliberate: SWE-bench refuses
// predictions for instances outside the dataset, polynfi skips them with a
// warning; an empty patch is one that is blank after trimming
// (SWE-PolyBench's test), where SWE-bench tests for "" or null; and
// infra_failure_ids / ambiguous_failure_ids come from polynfi's grading,
// not from SWE-bench's log signatures: infra_failure lists the units whose
// log parsed to no test or whose sandbox failed (strict infra_failure,
// with the record's infra_failure_reason; a harness error, StatusError,
// is an error only), ambiguous_failure the timed-out ones; like
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
	Statuses    map[grading.Status]int `json:"statuses"`
	// CI is the 95% Wilson interval of Rate.
	CI Interval `json:"ci"`
	// ClusterCI is the 95% cluster bootstrap interval of Rate resampling
	// instances with all their units (ClusterBootstrapMean), set only when
	// an instance has several units (repeated runs or several models),
	// whose outcomes are not independent.
	ClusterCI *Interval `json:"ci_cluster_bootstrap,omitempty"`
	// NotEvaluated counts the submitted units without a record (an
	// interrupted run did not reach them): they are not failures and are
	// in no Total; missing predictions are (unresolved).
	NotEvaluated int `json:"not_evaluated"`
}

// Group is resolved counts of one language, task category or complexity
// class. Total is the group's units in the evaluated set that were
// evaluated or have no prediction, and the units of its dataset rows that
// could not be read or cannot run (the denominator; Unreadable counts
// those, unresolved), NotEvaluated those an interrupted run did not reach
// (in no denominator), Resolved is per mode. A row whose language or task
// category could not be read counts in the group GroupUnknown; the totals
// of a breakdown by language or task category add up to the headline's.
type Group struct {
	Name         string               `json:"name"`
	Total        int                  `json:"total"`
	Unreadable   int                  `json:"unreadable_rows"`
	NotEvaluated int                  `json:"not_evaluated"`
	Resolved     map[grading.Mode]int `json:"resolved"`
	// CI is the 95% Wilson interval of the rate under the native mode.
	CI Interval `json:"ci_native"`
	// ClusterCI is the 95% cluster bootstrap interval of that rate
	// resampling instances with all their units (ClusterBootstrapMean),
	// set on every group when the run's headline has one (an instance
	// with several units: repeated runs), when the Wilson interval, which
	// counts the units as independent, is too narrow; not OK for a group
	// with nothing evaluated.
	ClusterCI *Interval `json:"ci_native_cluster_bootstrap,omitempty"`
}

// Rate returns Resolved[m] / Total, ok false when Total is 0.
func (g *Group) Rate(m grading.Mode) (float64, bool) {
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
	// CI is the seeded bootstrap 95% interval of Mean (BootstrapMean).
	CI Interval `json:"ci"`
}

// NFISummary is the mean NFI improvement of the run's model patches on the
// source files they change (Python, Java, JavaScript, TypeScript; before:
// base plus test patch; after: with the model patch). Units counts the
// units with a delta (a patch that changed a source file and applied), Valid those whose files parse on both sides;
// Mean is over the valid ones, MeanResolved over the valid ones resolved
// under the native mode (SWE-NFI reports I_p over functionally correct
// runs only). Source: SWE-NFI Eq. 2 and 3; polynfi spec §2.6 and §3.
type NFISummary struct {
	Catalog      string       `json:"catalog"`
	Units        int          `json:"units"`
	Valid        int          `json:"valid"`
	Mean         []AspectMean `json:"mean_improvement"`
	MeanResolved []AspectMean `json:"mean_improvement_resolved"`
	// ByLanguage gives, per instance language (the dataset's language
	// column), the mean S_p before and after and the mean I_p of every
	// aspect; sorted by language.
	ByLanguage []NFILanguage `json:"by_language,omitempty"`
}

// NFILanguage is the NFI columns of the units of one instance language.
// Units counts the units with an NFI delta, Valid those whose changed
// files parse on both sides. NoRules is true when the catalog judges none
// of the language's changed files (no rule for the language, e.g. Java
// before its catalog lands): then every aspect is n/a (N 0), never 0.
type NFILanguage struct {
	Language string          `json:"language"`
	Units    int             `json:"units"`
	Valid    int             `json:"valid"`
	NoRules  bool            `json:"no_rules,omitempty"`
	Aspects  []NFIAspectMean `json:"aspects"`
}

// NFIAspectMean is one aspect's means over the N valid units of a
// language that score it on both sides: S_p before (base plus test
// patch), S_p after (with the model patch), both in [0, 1], and I_p =
// after − before in [−1, 1] (SWE-NFI Eq. 1 and 2; the mean of I_p is the
// difference of the means). N is 0 (and the means 0) when no unit scores
// the aspect: reports print n/a.
type NFIAspectMean struct {
	Aspect      string  `json:"aspect"`
	N           int     `json:"n"`
	Before      float64 `json:"before"`
	After       float64 `json:"after"`
	Improvement float64 `json:"improvement"`
}

// Differing is a unit whose verdict differs between modes.
type Differing struct {
	ID       string                          `json:"id"`
	Resolved map[grading.Mode]bool           `json:"resolved"`
	Statuses map[grading.Mode]grading.Status `json:"statuses"`
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
	NativeMode    grading.Mode                  `json:"native_mode"`
	Units         int                           `json:"units"`
	Recorded      int                           `json:"recorded"`
	Evaluated     int                           `json:"evaluated"`
	Skipped       int                           `json:"skipped_already_recorded"`
	Abandoned     int                           `json:"abandoned"`
	Interrupted   bool                          `json:"interrupted"`
	ElapsedS      float64                       `json:"elapsed_s"`
	Workers       int                           `json:"workers"`
	Modes         map[grading.Mode]*ModeSummary `json:"modes"`
	Differing     []Differing                   `json:"differing"`
	ByLanguage    []*Group                      `json:"by_language"`
	ByCategory    []*Group                      `json:"by_task_category"`
	// ByComplexity groups the units with retrieval metrics by the
	// complexity class of their reference change (a single_func unit also
	// counts in func_only, single_class in class_only); a not-evaluated
	// unit counts in its class's NotEvaluated (the manifest records each
	// instance's class), or, in a run written before that, in the group
	// ClassNotRecorded.
	ByComplexity []*Group `json:"by_complexity"`
	// NotRecordedIDs are submitted units without a record (an interrupted
	// run); SWE-bench's lists count them as errors.
	NotRecordedIDs []string `json:"not_recorded_ids"`
	// NotEvaluated counts NotRecordedIDs; Notice is the line every format
	// shows for an interrupted run ("interrupted, N not evaluated, re-run
	// to resume"), "" otherwise.
	NotEvaluated int    `json:"not_evaluated"`
	Notice       string `json:"notice,omitempty"`
	// Regrades are the run's `regrade --apply` calls (the manifest's),
	// oldest first; every format names each in its headline.
	Regrades []runrecord.RegradeNote `json:"regrades,omitempty"`
	// UnitResults is the per-instance drill-down, in the evaluated set's
	// order.
	UnitResults []UnitResult `json:"instances"`
	// RetrievalCI holds the bootstrap intervals of the mean file and node
	// F1, overall ("all") and per language.
	RetrievalCI   map[string]F1Intervals `json:"retrieval_ci,omitempty"`
	NFI           *NFISummary            `json:"nfi,omitempty"`
	Isolation     map[string]int         `json:"isolation"` // runs per sandbox kind
	IsolationNote []string               `json:"isolation_notes,omitempty"`
	Overhead      []Overhead             `json:"overhead"`
	// AgentCost is the agents' cost per model (AgentCostRow), from the
	// figures the predictions carried (duration_s, tokens_in, tokens_out,
	// cost_usd; written by polynfi run); nil when no unit has any.
	AgentCost     []AgentCostRow              `json:"agent_cost,omitempty"`
	MeanOverheadS float64                     `json:"mean_overhead_s"`
	MeanTestS     float64                     `json:"mean_test_s"`
	Retrieval     *retrieval.Summary          `json:"retrieval,omitempty"`
	StatusIDs     map[grading.Status][]string `json:"status_ids"` // under the native mode
	// NoTestRan lists the units whose tests never ran for want of an
	// environment (strict infra_failure after a test run: a missing
	// toolchain, an unresolvable plugin), "id: reason" with the log's last
	// line and path, whatever the native mode says.
	NoTestRan []string `json:"no_test_ran,omitempty"`
	// Tampered lists the units whose verdict was moved (grading.StatusTampered:
	// the report failed the harness's canaries, or the clean-room re-run
	// disagreed), "id: reason"; they are unresolved in every mode and in
	// none of the infrastructure failures.
	Tampered []string `json:"tampered,omitempty"`
	// RunnerInternals lists the units whose model patch reaches into the
	// test runner (runrecord.Record.RunnerInternals), "id: file:line: rule:
	// code" for the first finding and the count of the others.
	RunnerInternals []string `json:"runner_internals,omitempty"`
	InputErrors     []string `json:"input_errors,omitempty"`
	// UnreadableRows counts dataset rows that could not be read and
	// NotRunnable rows that cannot run; each counts in every mode's Total,
	// unresolved, once per (model, run). Rejected counts prediction rows
	// that could not be read or name no instance of the dataset (their
	// instances count as not submitted).
	UnreadableRows int `json:"unreadable_rows"`
	NotRunnable    int `json:"not_runnable_rows"`
	// UnreadRows names each of those rows (kind "unreadable" or
	// "not_runnable", with its instance id, language and task category
	// where they could be read: the groups it counts in), DuplicateRows
	// each row whose instance_id an earlier row has (kind "duplicate"):
	// the first row is kept and the duplicate counts nowhere.
	UnreadRows    []runrecord.DatasetRow `json:"unread_rows,omitempty"`
	DuplicateRows []runrecord.DatasetRow `json:"duplicate_rows,omitempty"`
	// Rejected counts the prediction rows that could not be read
	// (RejectedRows names each problem): they were not evaluated, and an
	// instance of the dataset left without a prediction counts as missing
	// (unresolved). IgnoredPredictions are the predictions for instance
	// ids the dataset does not have: in no denominator.
	Rejected           int                       `json:"rejected_predictions"`
	RejectedRows       []runrecord.PredictionRow `json:"rejected_rows,omitempty"`
	IgnoredPredictions []runrecord.PredictionRow `json:"ignored_predictions,omitempty"`
	Started            time.Time                 `json:"started_at"`
	// Model is set in a model's section of a run holding the predictions
	// of several models (Models): its model_name_or_path.
	Model string `json:"model_name_or_path,omitempty"`
	// Models holds, when the run directory holds the predictions of more
	// than one model (eval calls with different predictions into one
	// --out), one report per model, each over its own units with its own
	// denominators; the lists and counts above then pool every unit (ids
	// suffixed @model#run) and the reports render one section per model.
	Models []ModelReport `json:"models,omitempty"`
	// Version is the polynfi version that rendered the report (set by the
	// caller), EvaluatedWith the versions whose eval calls wrote the
	// run's records (the manifest's polynfi_versions).
	Version       string   `json:"polynfi_version,omitempty"`
	EvaluatedWith []string `json:"evaluated_with,omitempty"`
	// PassAtK is pass@k per model over repeated runs (absent when every
	// instance has one run).
	PassAtK []PassAtKRow `json:"pass_at_k,omitempty"`
	// UnreadableRecords lists the record files of the run directory that
	// could not be read or decoded (runrecord.ReadRecords); their units count
	// as not evaluated, and every format names them.
	UnreadableRecords []runrecord.UnreadableRecord `json:"unreadable_records,omitempty"`
	// Audit holds each model's resolved and "resolved, clean" rates when
	// the agent runs behind the predictions were audited (polynfi audit
	// wrote audit.json beside the predictions file, or in RUN/agent-runs);
	// set by LoadHarnessRun, nil otherwise.
	Audit *AuditRates `json:"audit,omitempty"`
}

// HarnessInput is what BuildHarness needs: a run directory's manifest
// (the evaluated set and the submitted units over every eval call into
// it) and the records stored in it.
type HarnessInput struct {
	Manifest *runrecord.Manifest
	// Records are the records found in the run directory, in any order.
	// A unit's record counts only when its key (patch hash included)
	// equals the unit's; otherwise the unit was not evaluated.
	Records []*runrecord.Record
	// Result, when set, gives the last call's evaluated/skipped counts.
	Result *CallResult
}

// CallResult is what the last eval call into a run directory did, as its
// report shows: the units it evaluated, found complete from an earlier
// call (Skipped) and abandoned when interrupted, and its wall time.
type CallResult struct {
	Evaluated   int
	Skipped     int
	Abandoned   int
	Interrupted bool
	Elapsed     time.Duration
}

// ModelReport is the report of one model's units of a run directory.
type ModelReport struct {
	Model  string   `json:"model_name_or_path"`
	Report *Harness `json:"report"`
}

type pair struct {
	model string
	run   int
}

// UnitResult is one unit's line of the per-instance drill-down: its
// outcome under the native mode and the reason, the status under every
// mode when they disagree, its retrieval scores and NFI improvement, and
// the record directory (relative to the run directory) holding test.log,
// model.patch and command.sh. Outcome is the SWE-bench partition the unit
// falls in: resolved, unresolved, empty_patch, error, incomplete
// (not evaluated) or missing (no prediction).
type UnitResult struct {
	ID         string                          `json:"id"`
	InstanceID string                          `json:"instance_id"`
	Model      string                          `json:"model_name_or_path"`
	Run        int                             `json:"run"`
	Outcome    string                          `json:"outcome"`
	Status     grading.Status                  `json:"status,omitempty"`
	Reason     string                          `json:"reason,omitempty"`
	Differing  map[grading.Mode]grading.Status `json:"differing_modes,omitempty"`
	FileF1     *float64                        `json:"file_f1,omitempty"`
	NodeF1     *float64                        `json:"node_f1,omitempty"`
	NFI        []AspectMean                    `json:"nfi_improvement,omitempty"`
	// NFINoRules names the languages of the unit's changed files that the
	// catalog has no rule for (runrecord.NFIDelta.NoRules): their I_p is n/a.
	NFINoRules []string `json:"nfi_no_rules,omitempty"`
	Dir        string   `json:"record_dir,omitempty"`
	// Files are the artefacts of the record holding something (of
	// runrecord.LogFile, PatchFile, CommandFile): a unit whose tests never
	// ran has no log and no command, an empty prediction no patch.
	Files []string `json:"record_files,omitempty"`
}

// Statuses of a drill-down row without a record (UnitResult.Status).
const (
	// StatusMissing: the unit has no prediction (none given, or its row
	// was rejected); it counts as an empty one.
	StatusMissing grading.Status = "missing"
	// StatusNotEvaluated: the run stopped before evaluating the unit.
	StatusNotEvaluated grading.Status = "not_evaluated"
)

// missingReason says why a unit of the given instance and model has no
// prediction: the rejected prediction rows that name it ("prediction row 7
// of FILE rejected (field model_patch: REASON)"), else that none was
// given.
func missingReason(rejected []runrecord.PredictionRow, instanceID, model string) string {
	var why []string
	for _, r := range rejected {
		if r.InstanceID != instanceID || r.Model != "" && r.Model != model {
			continue
		}
		s := fmt.Sprintf("prediction row %d of %s rejected", r.Row, r.File)
		switch {
		case r.Field != "":
			s += fmt.Sprintf(" (field %s: %s)", r.Field, r.Reason)
		case r.Reason != "":
			s += " (" + r.Reason + ")"
		}
		why = append(why, s)
	}
	if len(why) == 0 {
		return "no prediction for this instance: counts as an empty one"
	}
	return strings.Join(why, "; ") + ": counts as an empty prediction"
}

// unitReason is a recorded unit's reason in the drill-down: its native
// verdict's reason (the record's error when that has none), else, for a
// unit whose modes disagree, each other mode's reason ("strict: ..."), and
// for an empty prediction that it was not run.
func unitReason(rec *runrecord.Record, native grading.Mode) string {
	v := rec.Verdicts.Get(native)
	if !rec.Generation && rec.Test == nil {
		return grading.ReasonEmptyPatch
	}
	if v.Reason != "" {
		return v.Reason
	}
	if rec.Error != "" {
		return rec.Error
	}
	var why []string
	for _, md := range grading.ModesFor(native) {
		o := rec.Verdicts.Get(md)
		if md == native || o.Status == v.Status || o.Reason == "" {
			continue
		}
		r := o.Reason
		if !strings.HasPrefix(r, string(md)+":") {
			r = string(md) + ": " + r
		}
		why = append(why, r)
	}
	return strings.Join(why, "; ")
}

// recordFiles are the artefacts of rec that hold something.
func recordFiles(rec *runrecord.Record) []string {
	var fs []string
	if rec.Test != nil {
		fs = append(fs, runrecord.LogFile)
	}
	if rec.Generation {
		fs = append(fs, runrecord.PatchFile)
	}
	if rec.Test != nil {
		fs = append(fs, runrecord.CommandFile)
	}
	return fs
}

// StatusUnreadable counts, in ModeSummary.Statuses, the dataset rows that
// could not be read or cannot run.
const StatusUnreadable grading.Status = "unreadable_row"

// BuildHarness aggregates a run directory's records. Every number of the
// report is defined here, once, whatever the mode the records were made
// in.
func BuildHarness(in HarnessInput) *Harness {
	m := in.Manifest
	if m == nil {
		m = &runrecord.Manifest{Kind: runrecord.KindHarness}
	}
	pairs := []pair{}
	seenPair := map[pair]bool{}
	for _, u := range m.Units {
		p := pair{u.Model, u.Run}
		if !seenPair[p] {
			seenPair[p] = true
			pairs = append(pairs, p)
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].model != pairs[j].model {
			return pairs[i].model < pairs[j].model
		}
		return pairs[i].run < pairs[j].run
	})
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
	unitOf := map[unitKey]runrecord.ManifestUnit{}
	for _, u := range m.Units {
		unitOf[unitKey{u.InstanceID, pair{u.Model, u.Run}}] = u
	}
	recOf := map[unitKey]*runrecord.Record{}
	for _, r := range in.Records {
		recOf[unitKey{r.InstanceID, pair{r.Model, r.Run}}] = r
	}
	nativeMode := m.NativeMode
	if nativeMode == "" {
		nativeMode = grading.ModePolyBench
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
	x.RunID, x.Predictions, x.NativeMode, x.Workers, x.Started = m.RunID, m.Predictions, nativeMode, m.Workers, m.Started.UTC()
	x.Dataset, x.DatasetSchema = m.Dataset, dataset.Schema(m.DatasetSchema)
	x.Retrieval = nil
	x.Modes = map[grading.Mode]*ModeSummary{}
	for _, md := range grading.ModesFor(nativeMode) {
		x.Modes[md] = &ModeSummary{ResolvedIDs: list(), Statuses: map[grading.Status]int{}}
	}
	x.Differing = []Differing{}
	x.Isolation = map[string]int{}
	x.Overhead = []Overhead{}
	costs := agentCosts{}
	x.StatusIDs = map[grading.Status][]string{}
	x.NotRecordedIDs = list()
	x.UnitResults = []UnitResult{}
	x.InputErrors = m.InputErrors
	x.UnreadableRows, x.NotRunnable, x.Rejected = m.UnreadableRows, m.NotRunnable, m.Rejected
	x.RejectedRows, x.IgnoredPredictions = m.RejectedRows, m.IgnoredPredictions
	unread := unreadRows(m)
	x.UnreadRows, x.DuplicateRows = unread, m.DuplicateRows
	for _, md := range grading.ModesFor(nativeMode) {
		// Rows that could not be read or run stay in the denominator: a
		// summary never drops what it could not evaluate.
		if n := len(unread) * len(pairs); n > 0 {
			x.Modes[md].Total += n
			x.Modes[md].Statuses[StatusUnreadable] += n
		}
	}
	x.Interrupted = !m.Complete
	x.EvaluatedWith = m.PolynfiVersions
	x.Regrades = m.Regrades
	if in.Result != nil {
		x.Evaluated, x.Skipped, x.Abandoned = in.Result.Evaluated, in.Result.Skipped, in.Result.Abandoned
		x.Interrupted = x.Interrupted || in.Result.Interrupted
		x.ElapsedS = in.Result.Elapsed.Seconds()
	}
	byLang, byCat, byCx := map[string]*Group{}, map[string]*Group{}, map[string]*Group{}
	group := func(g map[string]*Group, name string) *Group {
		if name == "" {
			name = NoGroup
		}
		v, ok := g[name]
		if !ok {
			v = &Group{Name: name, Resolved: map[grading.Mode]int{}}
			g[name] = v
		}
		return v
	}
	notes := map[string]bool{}
	unclassified := 0
	// members lists, per unit id, the groups whose Total counts it (for
	// the groups' clustered intervals).
	members := map[string][]*Group{}
	var metrics []retrieval.InstanceMetrics
	var sumOver, sumTest float64
	nfiAcc := newNFIAccumulator()
	nfiLang := nfiLanguages{}

	addRetrieval := func(id string, mt *retrieval.InstanceMetrics, u *UnitResult) {
		metrics = append(metrics, *mt)
		f := mt.File.F1
		u.FileF1 = &f
		pb.FileRetrieval = append(pb.FileRetrieval, map[string]any{"instance_id": id,
			"file_recall": mt.File.Recall, "file_precision": mt.File.Precision, "file_f1": mt.File.F1})
		e := map[string]any{"instance_id": id}
		switch mt.NodeStatus {
		case retrieval.NodeOK, retrieval.NodeFailedPrediction:
			e["node_recall"], e["node_precision"], e["node_f1"] = mt.Node.Recall, mt.Node.Precision, mt.Node.F1
			nf := mt.Node.F1
			u.NodeF1 = &nf
		case retrieval.NodeNoReference:
			e["node_recall"], e["node_precision"], e["node_f1"] = nil, nil, nil
		case retrieval.NodeFailedReference:
			e["node_recall"], e["node_precision"], e["node_f1"] = -1.0, -1.0, -1.0
		default:
			return
		}
		pb.NodeRetrieval = append(pb.NodeRetrieval, e)
	}

	// The same rows count in their language and task category groups
	// (GroupUnknown when those could not be read), once per pair.
	for _, ur := range unread {
		l, c := unreadGroups(ur)
		for _, g := range []*Group{group(byLang, l), group(byCat, c)} {
			g.Total += len(pairs)
			g.Unreadable += len(pairs)
		}
	}
	for _, inst := range m.Instances {
		for _, p := range pairs {
			id := label(inst.InstanceID, p)
			ur := UnitResult{ID: id, InstanceID: inst.InstanceID, Model: p.model, Run: p.run}
			x.Units++
			r.TotalInstances++
			gl, gc := group(byLang, inst.Language), group(byCat, inst.TaskCategory)
			// Every unit counts in the denominators (a missing prediction
			// as unresolved) except one that was not evaluated: an
			// interrupted run says nothing about it (counted apart).
			count := func() {
				gl.Total++
				gc.Total++
				members[id] = append(members[id], gl, gc)
				for _, md := range grading.ModesFor(nativeMode) {
					x.Modes[md].Total++
				}
			}
			u, submitted := unitOf[unitKey{inst.InstanceID, p}]
			var rec *runrecord.Record
			if submitted {
				r.SubmittedIDs = append(r.SubmittedIDs, id)
				if rc := recOf[unitKey{inst.InstanceID, p}]; rc != nil && rc.Key == u.Key {
					rec = rc
				}
			}
			var cx []retrieval.Complexity
			if !submitted {
				// SWE-PolyBench merges predictions into the dataset: a
				// missing one is an empty generation.
				ur.Outcome, ur.Status = "missing", StatusMissing
				ur.Reason = missingReason(m.RejectedRows, inst.InstanceID, p.model)
				count()
				r.IncompleteIDs = append(r.IncompleteIDs, id)
				pb.NoGeneration = append(pb.NoGeneration, id)
				pb.NotResolved = append(pb.NotResolved, id)
				pb.TotalEmptyPatchInstances++
				if mt := inst.EmptyRetrieval; mt != nil {
					addRetrieval(id, mt, &ur)
					cx = mt.Complexity.Classes()
				}
				for _, c := range cx {
					g := group(byCx, string(c))
					g.Total++
					members[id] = append(members[id], g)
				}
				x.UnitResults = append(x.UnitResults, ur)
				continue
			}
			ur.Dir = runrecord.RecordRelDir(u.Key)
			if rec == nil {
				// Not evaluated (an interrupted or killed run): incomplete,
				// as SWE-bench's incomplete_ids; re-running resumes it.
				// It is in no rate's denominator: its group and every mode
				// count it apart. (SWE-PolyBench's aggregate keeps it in
				// not_resolved, as that harness's lists do.)
				ur.Outcome, ur.Dir, ur.Status = "incomplete", "", StatusNotEvaluated
				ur.Reason = "not evaluated: the run stopped before this unit; re-run the same eval to evaluate it"
				x.NotRecordedIDs = append(x.NotRecordedIDs, id)
				r.IncompleteIDs = append(r.IncompleteIDs, id)
				pb.NotResolved = append(pb.NotResolved, id)
				gl.NotEvaluated++
				gc.NotEvaluated++
				// Its complexity class is the reference change's, recorded
				// in the manifest; a run written before polynfi recorded
				// it counts the unit under ClassNotRecorded.
				cls := inst.ComplexityClass
				if cls == "" && inst.EmptyRetrieval != nil {
					cls = inst.EmptyRetrieval.Complexity
				}
				if cls == "" {
					unclassified++
				}
				for _, c := range cls.Classes() {
					group(byCx, string(c)).NotEvaluated++
				}
				for _, md := range grading.ModesFor(nativeMode) {
					x.Modes[md].NotEvaluated++
				}
				x.UnitResults = append(x.UnitResults, ur)
				continue
			}
			count()
			x.Recorded++
			native := rec.Verdicts.Get(nativeMode)
			ur.Status, ur.Reason, ur.Files = native.Status, unitReason(rec, nativeMode), recordFiles(rec)
			x.StatusIDs[native.Status] = append(x.StatusIDs[native.Status], id)
			if st := rec.Verdicts.Strict; rec.Test != nil && st.Status == grading.StatusInfraFailure {
				x.NoTestRan = append(x.NoTestRan, id+": "+st.Reason)
			}
			if st := rec.Verdicts.Strict; st.Status == grading.StatusTampered {
				x.Tampered = append(x.Tampered, id+": "+st.Reason)
			}
			if fs := rec.RunnerInternals; len(fs) > 0 {
				l := id + ": " + fs[0].String()
				if len(fs) > 1 {
					l += fmt.Sprintf(" (and %d more)", len(fs)-1)
				}
				x.RunnerInternals = append(x.RunnerInternals, l)
			}
			switch {
			case !rec.Generation:
				r.EmptyPatchIDs = append(r.EmptyPatchIDs, id)
				ur.Outcome = "empty_patch"
			case rec.Test != nil:
				r.CompletedIDs = append(r.CompletedIDs, id)
				if native.Resolved {
					r.ResolvedIDs = append(r.ResolvedIDs, id)
					ur.Outcome = "resolved"
				} else {
					r.UnresolvedIDs = append(r.UnresolvedIDs, id)
					ur.Outcome = "unresolved"
				}
			default:
				r.ErrorIDs = append(r.ErrorIDs, id)
				ur.Outcome = "error"
			}
			// Infrastructure failures: the log parsed to no test, or the
			// sandbox failed (InfraReason); an advisory tag, the unit stays
			// in its list. A harness error (StatusError: a missing
			// repository, a bad row) is an error only.
			if rec.Generation && !native.Resolved {
				switch st := rec.Verdicts.Strict; {
				case st.Status == grading.StatusInfraFailure:
					r.InfraFailureIDs = append(r.InfraFailureIDs, id)
					r.FailureReasons[id] = string(st.Status) + ": " + st.Reason
					if rec.InfraReason != "" {
						r.FailureReasons[id] = string(st.Status) + " (" + rec.InfraReason + "): " + st.Reason
					}
				case st.Status == grading.StatusTimedOut:
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
			if mt := rec.Retrieval; mt != nil {
				addRetrieval(id, mt, &ur)
				cx = mt.Complexity.Classes()
			}
			if rec.NFI != nil {
				nfiAcc.add(rec.NFI, native.Resolved)
				nfiLang.add(rec.Language, rec.NFI)
				ur.NFINoRules = rec.NFI.NoRules
				if rec.NFI.Delta.Valid {
					for _, a := range nfi.Aspects {
						if v, ok := rec.NFI.Delta.Improvement.Get(a); ok {
							ur.NFI = append(ur.NFI, AspectMean{Aspect: a.Code(), N: 1, Mean: v})
						}
					}
				}
			}
			// Modes, groups, differences.
			var gx []*Group
			for _, c := range cx {
				g := group(byCx, string(c))
				g.Total++
				gx = append(gx, g)
				members[id] = append(members[id], g)
			}
			for _, md := range grading.ModesFor(nativeMode) {
				v := rec.Verdicts.Get(md)
				ms := x.Modes[md]
				ms.Statuses[v.Status]++
				if v.Resolved {
					ms.Resolved++
					ms.ResolvedIDs = append(ms.ResolvedIDs, id)
					gl.Resolved[md]++
					gc.Resolved[md]++
					for _, g := range gx {
						g.Resolved[md]++
					}
				}
			}
			if rec.Verdicts.Differ() {
				d := Differing{ID: id, Resolved: map[grading.Mode]bool{}, Statuses: map[grading.Mode]grading.Status{}}
				ur.Differing = map[grading.Mode]grading.Status{}
				for _, md := range grading.ModesFor(nativeMode) {
					d.Resolved[md] = rec.Verdicts.Get(md).Resolved
					d.Statuses[md] = rec.Verdicts.Get(md).Status
					ur.Differing[md] = d.Statuses[md]
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
			costs.add(rec, rec.Verdicts.Get(nativeMode).Resolved)
			sumOver += rec.Timing.OverheadS
			sumTest += rec.Timing.TestS
			x.UnitResults = append(x.UnitResults, ur)
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
		ms.CI = Wilson(ms.Resolved, ms.Total)
		if len(pairs) > 1 {
			resolved := map[string]bool{}
			for _, id := range ms.ResolvedIDs {
				resolved[id] = true
			}
			var xs []float64
			var cl []string
			for _, u := range x.UnitResults {
				xs, cl = append(xs, b01(resolved[u.ID])), append(cl, u.InstanceID)
			}
			// Rows that could not be read or run count unresolved, each
			// its own cluster.
			for i := 0; i < ms.Total-len(xs); i++ {
				xs, cl = append(xs, 0), append(cl, fmt.Sprintf("\x00unread-%d", i/len(pairs)))
			}
			if Repeated(cl) {
				ci := ClusterBootstrapMean(xs, cl)
				ms.ClusterCI = &ci
			}
		}
	}
	if x.Recorded > 0 {
		x.MeanOverheadS, x.MeanTestS = sumOver/float64(x.Recorded), sumTest/float64(x.Recorded)
	}
	x.AgentCost = costs.rows()
	x.ByLanguage, x.ByCategory = sortedGroups(byLang), sortedGroups(byCat)
	x.ByComplexity = []*Group{}
	for _, c := range retrieval.ComplexityOrder {
		if g, ok := byCx[string(c)]; ok {
			x.ByComplexity = append(x.ByComplexity, g)
		}
	}
	if unclassified > 0 && (len(x.ByComplexity) > 0 || len(metrics) > 0) {
		x.ByComplexity = append(x.ByComplexity, &Group{Name: ClassNotRecorded, NotEvaluated: unclassified, Resolved: map[grading.Mode]int{}})
	}
	for _, gs := range [][]*Group{x.ByLanguage, x.ByCategory, x.ByComplexity} {
		for _, g := range gs {
			g.CI = Wilson(g.Resolved[nativeMode], g.Total)
		}
	}
	if x.Modes[nativeMode].ClusterCI != nil {
		groupClusterIntervals(x, members, len(pairs))
	}
	for n := range notes {
		x.IsolationNote = append(x.IsolationNote, n)
	}
	sort.Strings(x.IsolationNote)
	if len(metrics) > 0 {
		s, ci := SummarizeRetrieval(metrics)
		// Every group of the pass-rate tables is in the retrieval
		// tables too: one with nothing evaluated has n 0 (its means
		// print Dash) and its not-evaluated count beside it.
		s.ByLanguage = withEmptyGroups(s.ByLanguage, x.ByLanguage, true)
		s.ByTaskCategory = withEmptyGroups(s.ByTaskCategory, x.ByCategory, true)
		s.ByComplexity = withEmptyGroups(s.ByComplexity, x.ByComplexity, false)
		x.Retrieval, x.RetrievalCI = &s, ci
	}
	x.NFI = nfiAcc.summary()
	if x.NFI != nil {
		x.NFI.ByLanguage = nfiLang.summary()
	}
	x.PassAtK = harnessPassAtK(in.Records)
	x.NotEvaluated = len(x.NotRecordedIDs)
	if x.Interrupted {
		x.Notice = fmt.Sprintf("interrupted, %d not evaluated, re-run to resume", x.NotEvaluated)
	}
	var models []string
	for _, p := range pairs {
		if len(models) == 0 || models[len(models)-1] != p.model {
			models = append(models, p.model)
		}
	}
	if len(models) > 1 {
		// One report per model, each over its own units: a pooled rate
		// over several models answers no question.
		for _, model := range models {
			sub := *m
			sub.Units = nil
			for _, u := range m.Units {
				if u.Model == model {
					sub.Units = append(sub.Units, u)
				}
			}
			var recs []*runrecord.Record
			for _, rc := range in.Records {
				if rc.Model == model {
					recs = append(recs, rc)
				}
			}
			sr := BuildHarness(HarnessInput{Manifest: &sub, Records: recs})
			sr.Polynfi.Model = model
			x.Models = append(x.Models, ModelReport{Model: model, Report: sr})
		}
	}
	return r
}

// PooledModesNote is the JSON "modes_note" of a run holding several
// models, whose top-level "modes" is null.
const PooledModesNote = "null: this run holds several models; a resolved rate pooled over models answers no question. Each entry of \"models\" has its own modes (rate over that model's units)."

// MarshalJSON writes x's fields; for a run holding several models (Models)
// "modes" is null, with "modes_note" saying why: the per-model reports
// carry the rates. In Go, Modes keeps the pooled counts the run-wide
// bookkeeping uses.
func (x Extras) MarshalJSON() ([]byte, error) {
	type plain Extras
	if len(x.Models) <= 1 {
		return json.Marshal(plain(x))
	}
	return json.Marshal(struct {
		plain
		Modes     map[grading.Mode]*ModeSummary `json:"modes"`
		ModesNote string                        `json:"modes_note"`
	}{plain: plain(x), ModesNote: PooledModesNote})
}

// SummarizeRetrieval is the one definition of a run's localization
// numbers, whatever the mode that scored them (a full run, --metrics-only,
// either retrieval mode): the macro means of retrieval.Summarize over ms
// (units without a language or task category grouped under NoGroup) and
// the bootstrap intervals of the mean file and node F1, overall ("all")
// and per language. ms is not changed.
func SummarizeRetrieval(ms []retrieval.InstanceMetrics) (retrieval.Summary, map[string]F1Intervals) {
	metrics := append([]retrieval.InstanceMetrics(nil), ms...)
	for i := range metrics {
		if metrics[i].Language == "" {
			metrics[i].Language = NoGroup
		}
		if metrics[i].TaskCategory == "" {
			metrics[i].TaskCategory = NoGroup
		}
	}
	return retrieval.Summarize(metrics), retrievalIntervals(metrics)
}

// ClassNotRecorded is the complexity group of the not-evaluated units of
// a run written before the manifest recorded each instance's reference
// complexity class (their class is unknown).
const ClassNotRecorded = "(class not recorded)"

// withEmptyGroups returns rs with an empty group (n 0) for every group of
// gs it lacks: sorted by name when byName, else in gs's order (the
// complexity classes).
func withEmptyGroups(rs []retrieval.Group, gs []*Group, byName bool) []retrieval.Group {
	have := map[string]retrieval.Group{}
	for _, g := range rs {
		have[g.Name] = g
	}
	out := append([]retrieval.Group(nil), rs...)
	if !byName {
		out = out[:0]
		for _, g := range gs {
			if rg, ok := have[g.Name]; ok {
				out = append(out, rg)
				delete(have, g.Name)
			} else {
				out = append(out, retrieval.Group{Name: g.Name})
			}
		}
		for _, g := range rs {
			if _, ok := have[g.Name]; ok {
				out = append(out, g)
			}
		}
		return out
	}
	for _, g := range gs {
		if _, ok := have[g.Name]; !ok {
			out = append(out, retrieval.Group{Name: g.Name})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// NoGroup names the group of units whose language or task category the
// dataset does not give (SWE-bench has no language column).
const NoGroup = "(none)"

// retrievalIntervals bootstraps the mean file and node F1 overall ("all")
// and per language, clustered by instance (ClusterBootstrapMean: the
// plain percentile bootstrap when every instance has one unit; when an
// instance has several, repeated runs, whole instances are resampled and
// every interval is marked Clustered).
func retrievalIntervals(ms []retrieval.InstanceMetrics) map[string]F1Intervals {
	files, nodes := map[string][]float64{}, map[string][]float64{}
	fileCl, nodeCl := map[string][]string{}, map[string][]string{}
	var all []string
	for _, m := range ms {
		all = append(all, m.InstanceID)
		for _, g := range []string{"all", m.Language} {
			files[g], fileCl[g] = append(files[g], m.File.F1), append(fileCl[g], m.InstanceID)
			if m.Node != nil && (m.NodeStatus == retrieval.NodeOK || m.NodeStatus == retrieval.NodeFailedPrediction) {
				nodes[g], nodeCl[g] = append(nodes[g], m.Node.F1), append(nodeCl[g], m.InstanceID)
			}
		}
	}
	clustered := Repeated(all)
	out := map[string]F1Intervals{}
	for g, xs := range files {
		out[g] = F1Intervals{File: ClusterBootstrapMean(xs, fileCl[g]), Node: ClusterBootstrapMean(nodes[g], nodeCl[g]), Clustered: clustered}
	}
	return out
}

// F1Intervals are the 95% bootstrap intervals of a group's mean file and
// node F1; Clustered is true when they resample instances with all their
// units (some instance has several units: repeated runs), false for the
// plain percentile bootstrap over units.
type F1Intervals struct {
	File      Interval `json:"file_f1"`
	Node      Interval `json:"node_f1"`
	Clustered bool     `json:"clustered,omitempty"`
}

// nfiAccumulator sums I_p per aspect over valid NFI deltas.
type nfiAccumulator struct {
	catalog     string
	units       int
	valid       int
	all, solved [len(nfi.Aspects)][]float64
}

func newNFIAccumulator() *nfiAccumulator { return &nfiAccumulator{} }

func (a *nfiAccumulator) add(d *runrecord.NFIDelta, resolved bool) {
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
		a.all[i] = append(a.all[i], v)
		if resolved {
			a.solved[i] = append(a.solved[i], v)
		}
	}
}

func (a *nfiAccumulator) summary() *NFISummary {
	if a.units == 0 {
		return nil
	}
	s := &NFISummary{Catalog: a.catalog, Units: a.units, Valid: a.valid}
	finish := func(vs [len(nfi.Aspects)][]float64) []AspectMean {
		out := make([]AspectMean, len(vs))
		for i, xs := range vs {
			c := meanCell(xs)
			out[i] = AspectMean{Aspect: nfi.Aspects[i].Code(), N: c.N, Mean: c.Value, CI: BootstrapMean(xs)}
		}
		return out
	}
	s.Mean, s.MeanResolved = finish(a.all), finish(a.solved)
	return s
}

// nfiLanguages sums, per instance language, S_p before and after and I_p
// of every aspect over the valid NFI deltas that score it.
type nfiLanguages map[string]*nfiLangAcc

type nfiLangAcc struct {
	units, valid int
	judged       bool // some delta's changed files had rules
	n            [len(nfi.Aspects)]int
	before       [len(nfi.Aspects)]float64
	after        [len(nfi.Aspects)]float64
	improvement  [len(nfi.Aspects)]float64
}

func (l nfiLanguages) add(lang string, d *runrecord.NFIDelta) {
	if lang == "" {
		lang = "unknown"
	}
	a := l[lang]
	if a == nil {
		a = &nfiLangAcc{}
		l[lang] = a
	}
	a.units++
	if len(d.NoRules) == 0 || len(d.NoRules) < len(languagesOf(d.Files)) {
		a.judged = true
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
		b, _ := d.Delta.Before.Get(asp)
		c, _ := d.Delta.After.Get(asp)
		a.n[i]++
		a.before[i] += b
		a.after[i] += c
		a.improvement[i] += v
	}
}

// languagesOf counts the distinct languages of paths (nfi.SourceLanguage).
func languagesOf(paths []string) map[string]bool {
	out := map[string]bool{}
	for _, p := range paths {
		out[nfi.SourceLanguage(p).String()] = true
	}
	return out
}

func (l nfiLanguages) summary() []NFILanguage {
	var out []NFILanguage
	for lang, a := range l {
		nl := NFILanguage{Language: lang, Units: a.units, Valid: a.valid, NoRules: !a.judged}
		for i, asp := range nfi.Aspects {
			m := NFIAspectMean{Aspect: asp.Code(), N: a.n[i]}
			if n := float64(a.n[i]); n > 0 {
				m.Before, m.After, m.Improvement = a.before[i]/n, a.after[i]/n, a.improvement[i]/n
			}
			nl.Aspects = append(nl.Aspects, m)
		}
		out = append(out, nl)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Language < out[j].Language })
	return out
}

func sortedGroups(m map[string]*Group) []*Group {
	out := make([]*Group, 0, len(m))
	for _, g := range m {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// HarnessFromRun builds the report of a run directory from its manifest
// and the records stored in it.
func HarnessFromRun(m *runrecord.Manifest, recs []*runrecord.Record) *Harness {
	return BuildHarness(HarnessInput{Manifest: m, Records: recs})
}

// LegacyManifest makes a manifest for a run directory written before
// manifests existed, from its records alone: the evaluated set is the
// recorded instances and every record is a submitted unit, so such a
// report has no missing or incomplete units; the run counts as complete.
func LegacyManifest(recs []*runrecord.Record) *runrecord.Manifest {
	m := &runrecord.Manifest{Kind: runrecord.KindHarness, Complete: true}
	seen := map[string]bool{}
	for _, r := range recs {
		if !seen[r.InstanceID] {
			seen[r.InstanceID] = true
			m.Instances = append(m.Instances, runrecord.ManifestInstance{InstanceID: r.InstanceID, Repo: r.Repo, Language: r.Language, TaskCategory: r.TaskCategory})
		}
		m.Units = append(m.Units, runrecord.ManifestUnit{Key: r.Key, Empty: !r.Generation})
		if m.RunID == "" {
			m.RunID, m.NativeMode = r.RunID, r.NativeMode
		}
	}
	return m
}

// AgentCostRow is one model's agent cost over the units of a run: wall
// time in seconds, tokens (tokens_in + tokens_out) and cost in US dollars
// per unit, as the predictions reported them. Each Cell's N counts the
// units that reported the figure (a unit that did not is left out of that
// mean, never counted as 0); Unreported counts the evaluated units that
// reported none of the three. CostPerResolvedUSD is TotalCostUSD over the
// units resolved in the native mode (undefined when none is).
type AgentCostRow struct {
	Model              string `json:"model"`
	Units              int    `json:"units"`
	Resolved           int    `json:"resolved"`
	Unreported         int    `json:"unreported"`
	MeanSeconds        Cell   `json:"mean_duration_s"`
	MedianSeconds      Cell   `json:"median_duration_s"`
	TotalSeconds       Cell   `json:"total_duration_s"`
	MeanTokens         Cell   `json:"mean_tokens"`
	MedianTokens       Cell   `json:"median_tokens"`
	TotalTokens        Cell   `json:"total_tokens"`
	MeanCostUSD        Cell   `json:"mean_cost_usd"`
	TotalCostUSD       Cell   `json:"total_cost_usd"`
	CostPerResolvedUSD Cell   `json:"cost_per_resolved_usd"`
}

// agentCosts gathers AgentCostRow's figures per model.
type agentCosts map[string]*agentCostAcc

type agentCostAcc struct {
	units, resolved, unreported int
	secs, toks, usd             []float64
}

func (c agentCosts) add(rec *runrecord.Record, resolved bool) {
	a := c[rec.Model]
	if a == nil {
		a = &agentCostAcc{}
		c[rec.Model] = a
	}
	a.units++
	if resolved {
		a.resolved++
	}
	reported := false
	if rec.AgentDurationS != nil {
		a.secs, reported = append(a.secs, *rec.AgentDurationS), true
	}
	if rec.TokensIn != nil || rec.TokensOut != nil {
		var n int64
		if rec.TokensIn != nil {
			n += *rec.TokensIn
		}
		if rec.TokensOut != nil {
			n += *rec.TokensOut
		}
		a.toks, reported = append(a.toks, float64(n)), true
	}
	if rec.CostUSD != nil {
		a.usd, reported = append(a.usd, *rec.CostUSD), true
	}
	if !reported {
		a.unreported++
	}
}

// rows returns one row per model that reported anything, sorted by model.
func (c agentCosts) rows() []AgentCostRow {
	var out []AgentCostRow
	for m, a := range c {
		if a.unreported == a.units {
			continue
		}
		sum := func(xs []float64) Cell {
			if len(xs) == 0 {
				return Cell{}
			}
			t := 0.0
			for _, v := range xs {
				t += v
			}
			return Cell{Value: t, N: len(xs), OK: true}
		}
		row := AgentCostRow{Model: m, Units: a.units, Resolved: a.resolved, Unreported: a.unreported,
			MeanSeconds: meanCell(a.secs), MedianSeconds: medianCell(a.secs), TotalSeconds: sum(a.secs),
			MeanTokens: meanCell(a.toks), MedianTokens: medianCell(a.toks), TotalTokens: sum(a.toks),
			MeanCostUSD: meanCell(a.usd), TotalCostUSD: sum(a.usd)}
		if row.TotalCostUSD.OK && a.resolved > 0 {
			row.CostPerResolvedUSD = Cell{Value: row.TotalCostUSD.Value / float64(a.resolved), N: a.resolved, OK: true}
		}
		out = append(out, row)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Model < out[j].Model })
	return out
}
