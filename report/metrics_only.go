package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
)

// MetricsOnly is the report of a `polynfi eval --metrics-only` run (its
// metrics.json, and `polynfi report --format json` of its directory): the
// per-instance localization metrics, their summary and bootstrap
// intervals computed by SummarizeRetrieval as in a full run, and the input
// rows the run could not use, as a full run's report names them.
type MetricsOnly struct {
	Kind          string `json:"kind"` // runrecord.KindMetricsOnly
	RunID         string `json:"run_id,omitempty"`
	Dataset       string `json:"dataset,omitempty"`
	DatasetSchema string `json:"dataset_schema,omitempty"`
	Predictions   string `json:"predictions,omitempty"`
	Retrieval     string `json:"retrieval,omitempty"` // compatible | extended
	// Instances are the scored units (an instance without a prediction is
	// scored as an empty prediction, 0).
	Instances   []retrieval.InstanceMetrics `json:"instances"`
	Summary     retrieval.Summary           `json:"summary"`
	RetrievalCI map[string]F1Intervals      `json:"retrieval_ci"`
	// The rows the run could not use (Extras has the same fields).
	UnreadableRows     int                       `json:"unreadable_rows"`
	NotRunnable        int                       `json:"not_runnable_rows"`
	InputErrors        []string                  `json:"input_errors,omitempty"`
	Rejected           int                       `json:"rejected_predictions"`
	RejectedRows       []runrecord.PredictionRow `json:"rejected_rows,omitempty"`
	IgnoredPredictions []runrecord.PredictionRow `json:"ignored_predictions,omitempty"`
	// UnreadRows and DuplicateRows name the dataset rows as Extras does;
	// UnreadUnits counts the units of UnreadRows (each row once per
	// (model, run) pair): in no mean, counted beside each group.
	UnreadRows    []runrecord.DatasetRow `json:"unread_rows,omitempty"`
	DuplicateRows []runrecord.DatasetRow `json:"duplicate_rows,omitempty"`
	UnreadUnits   int                    `json:"unread_units"`
	// Reasons says, per unit of Instances (same index), why it scores
	// nothing when its prediction is missing, empty or not applied, in
	// the words of a full run's drill-down (unitReasons); "" otherwise.
	Reasons []string `json:"unit_reasons,omitempty"`
	// Version is the polynfi version that rendered the report (set by
	// the caller), EvaluatedWith the versions that scored the run.
	Version       string   `json:"polynfi_version,omitempty"`
	EvaluatedWith []string `json:"evaluated_with,omitempty"`
}

// BuildMetricsOnly aggregates the metrics of a --metrics-only run; m
// (its manifest; nil when unknown) gives the inputs and the rows not used.
func BuildMetricsOnly(m *runrecord.Manifest, ms []retrieval.InstanceMetrics) *MetricsOnly {
	r := &MetricsOnly{Kind: runrecord.KindMetricsOnly, Instances: ms}
	if r.Instances == nil {
		r.Instances = []retrieval.InstanceMetrics{}
	}
	r.Summary, r.RetrievalCI = SummarizeRetrieval(ms)
	if m != nil {
		r.RunID, r.Dataset, r.DatasetSchema, r.Predictions, r.Retrieval = m.RunID, m.Dataset, m.DatasetSchema, m.Predictions, m.Retrieval
		r.UnreadableRows, r.NotRunnable, r.InputErrors = m.UnreadableRows, m.NotRunnable, m.InputErrors
		r.RejectedRows, r.IgnoredPredictions = m.RejectedRows, m.IgnoredPredictions
		r.Rejected = runrecord.CountRows(m.RejectedRows)
		r.EvaluatedWith = m.PolynfiVersions
		r.UnreadRows, r.DuplicateRows = unreadRows(m), m.DuplicateRows
		all, byLang, byCat := unreadCounts(r.UnreadRows, pairsOf(m))
		r.UnreadUnits = all
		withUnreadGroups(&r.Summary, byLang, byCat)
		r.Reasons = unitReasons(m, ms)
	}
	return r
}

// unitReasons gives each scored unit of ms the reason a full run's
// drill-down gives it when it scores nothing: a missing prediction
// (missingReason: none given, or the rejected rows that name it), an
// empty one (grading.ReasonEmptyPatch), or one the apply cascade did not
// apply (grading.ReasonNotApplied: no predicted files). A unit of ms is
// matched to the next manifest unit of its instance, the submitted ones
// before the missing ones (the order of the run's jobs; the manifest
// keeps its units sorted). nil when the manifest has no units (a run of
// an older polynfi); "" for a unit not matched.
func unitReasons(m *runrecord.Manifest, ms []retrieval.InstanceMetrics) []string {
	if len(m.Units) == 0 {
		return nil
	}
	byID := map[string][]runrecord.ManifestUnit{}
	for _, u := range m.Units {
		byID[u.InstanceID] = append(byID[u.InstanceID], u)
	}
	for _, us := range byID {
		sort.SliceStable(us, func(i, j int) bool { return !isTrue(us[i].Missing) && isTrue(us[j].Missing) })
	}
	why := make([]string, len(ms))
	for k, x := range ms {
		us := byID[x.InstanceID]
		if len(us) == 0 {
			continue
		}
		u := us[0]
		byID[x.InstanceID] = us[1:]
		switch {
		case isTrue(u.Missing):
			why[k] = missingReason(m.RejectedRows, u.InstanceID, u.Model)
		case u.Empty && u.Missing == nil:
			why[k] = "empty or no prediction (a run of an older polynfi does not tell them apart)"
		case u.Empty:
			why[k] = grading.ReasonEmptyPatch
		case len(x.PredictedFiles) == 0:
			why[k] = grading.ReasonNotApplied
		}
	}
	return why
}

// MetricsOnlyPage renders a --metrics-only run: the inputs, the rows not
// used (InputLines), the retrieval tables with the intervals of a full
// run (RetrievalTablesCI) and the chart by language.
//
// With instances (always for Markdown and HTML, with --instances for
// text) the page ends with the per-instance drill-down
// (MetricsOnlyInstancesTable).
func MetricsOnlyPage(r *MetricsOnly, title string, instances bool) Page {
	lines := []string{fmt.Sprintf("dataset %s (%s), predictions %s, run %s: retrieval metrics only (%s), no test ran; %d unit%s scored",
		r.Dataset, r.DatasetSchema, r.Predictions, r.RunID, orDash(r.Retrieval), len(r.Instances), map[bool]string{true: "", false: "s"}[len(r.Instances) == 1])}
	lines = append(lines, InputLines(r.UnreadableRows, r.NotRunnable, r.InputErrors, r.RejectedRows, r.IgnoredPredictions)...)
	lines = append(lines, DuplicateLines(r.DuplicateRows)...)
	tables := RetrievalTablesCI(r.Summary, r.RetrievalCI)
	all, byLang, byCat := unreadCounts(r.UnreadRows, max(1, r.UnreadUnits/max(1, len(r.UnreadRows))))
	withUnreadColumn(tables, all, byLang, byCat)
	var charts []BarChart
	if len(tables) > 0 && len(r.Instances) > 0 {
		charts = append(charts, retrievalChart(r.Summary, r.RetrievalCI, tables[0]))
	}
	if instances {
		tables = append(tables, MetricsOnlyInstancesTable(r))
	}
	return Page{Title: title, Lines: lines, Tables: tables, Charts: charts, Footer: Provenance(r.Version, r.EvaluatedWith)}
}

// MetricsOnlyInstancesTable is a --metrics-only run's drill-down: per
// scored unit, its file and node precision, recall and F1 and, for a
// score of 0 or a unit left out of node means, why.
func MetricsOnlyInstancesTable(r *MetricsOnly) Table {
	t := Table{ID: TableInstances, Title: "Instances",
		Header: []string{"instance", "language", "file P", "file R", "file F1", "node P", "node R", "node F1", "why 0 / not scored"}}
	f := func(v float64) string { return fmt.Sprintf("%.2f", v) }
	for i, m := range r.Instances {
		reason := ""
		if i < len(r.Reasons) {
			reason = r.Reasons[i]
		}
		row := []string{m.InstanceID, orDash(m.Language), f(m.File.Precision), f(m.File.Recall), f(m.File.F1)}
		if m.Node != nil {
			row = append(row, f(m.Node.Precision), f(m.Node.Recall), f(m.Node.F1))
		} else {
			row = append(row, Dash, Dash, Dash)
		}
		t.Rows = append(t.Rows, append(row, orDash(metricsWhy(m, reason))))
	}
	t.Notes = append(t.Notes, "P, R, F1: precision, recall and F1 of the predicted files and nodes against the reference patch's (SWE-PolyBench); "+
		"– : the unit is left out of node means (no reference nodes, reference patch failed, node metrics not computed).")
	return t
}

// metricsWhy says why a unit scores 0 or has no node score: the
// prediction was missing, empty or did not apply (reason, from
// unitReasons, as a full run says it), touches none of the reference
// files or nodes, or node metrics were left out (with node_error).
func metricsWhy(m retrieval.InstanceMetrics, reason string) string {
	var why []string
	if m.File.F1 == 0 {
		switch {
		case len(m.PredictedFiles) == 0 && reason != "":
			why = append(why, reason)
		case len(m.PredictedFiles) == 0 && m.NodeError != "":
			why = append(why, "files: "+strings.TrimPrefix(m.NodeError, "prediction: "))
		case len(m.PredictedFiles) == 0:
			why = append(why, "files: empty or not applied")
		default:
			why = append(why, "files: none of "+strings.Join(m.PredictedFiles, ", ")+" is a reference file")
		}
	}
	switch {
	case m.Node == nil:
		s := "nodes: " + string(m.NodeStatus)
		if m.NodeError != "" {
			s += " (" + m.NodeError + ")"
		}
		why = append(why, s)
	case m.Node.F1 == 0 && m.NodeError != "":
		if reason != "" && len(m.PredictedFiles) == 0 && strings.HasPrefix(m.NodeError, "prediction: ") {
			break // reason says it
		}
		if len(why) == 0 || !strings.Contains(why[0], strings.TrimPrefix(m.NodeError, "prediction: ")) {
			why = append(why, "nodes: "+m.NodeError)
		}
	case m.Node.F1 == 0:
		why = append(why, "nodes: no predicted node is a reference node")
	}
	return strings.Join(why, "; ")
}

// isTrue is *b, false when b is nil.
func isTrue(b *bool) bool { return b != nil && *b }
