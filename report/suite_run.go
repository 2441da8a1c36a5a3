package report

// The NFI suite run's report (json, .md, .html of an eval of
// SWE-NFI tasks) and the readers of a run directory's stored report
// inputs: moved from internal/cli (#25 item 7c), rendered here, written
// atomically into the run directory.

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/nfirecord"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
)

// NFISuiteReport is report.json of an NFI suite run.
type NFISuiteReport struct {
	Kind    string         `json:"kind"` // "nfi_suite"
	Catalog string         `json:"catalog,omitempty"`
	Grading string         `json:"grading"` // always "strict" for NFI tasks
	Records int            `json:"records"`
	Invalid map[string]int `json:"invalid_by_reason"`
	Tests   map[string]int `json:"test_status"`
	Report  NFI            `json:"report"`
	Tables  []Table        `json:"tables"`
	// GoldFailures lists the tasks where a run of the "gold" model (the
	// human reference evaluated as an agent) was not functionally correct
	// (such a run points at a broken task; the Human Reference's mean
	// I_p(h) leaves those tasks out); GoldFailureRuns counts those runs.
	GoldFailures    []string `json:"gold_failures"`
	GoldFailureRuns int      `json:"gold_failure_runs"`
	// NotEvaluated counts the (task, agent, run) units the run's manifest
	// asks for that have no record; Notice is the "interrupted, N not
	// evaluated, re-run to resume" line of an interrupted run.
	NotEvaluated int    `json:"not_evaluated"`
	Notice       string `json:"notice,omitempty"`
	// Version is the polynfi version that rendered the report,
	// EvaluatedWith those whose eval calls wrote the records.
	Version       string   `json:"polynfi_version"`
	EvaluatedWith []string `json:"evaluated_with,omitempty"`
	// UnreadableRecords lists the record files that could not be read or
	// decoded (nfirecord.ReadRecords); every format names them.
	UnreadableRecords []nfirecord.UnreadableRecord `json:"unreadable_records,omitempty"`
	// UnreadableRows counts task rows of the dataset that could not be
	// read, RejectedPredictions prediction rows that could not be read;
	// InputErrors names each (file, row or line, field). They are in no
	// table, and every format says so.
	UnreadableRows      int      `json:"unreadable_rows"`
	RejectedPredictions int      `json:"rejected_predictions"`
	InputErrors         []string `json:"input_errors,omitempty"`
	// DuplicateRows names each task row whose instance_id an earlier row
	// has (kind "duplicate": the first row is kept), apart from the rows
	// that could not be read.
	DuplicateRows []runrecord.DatasetRow `json:"duplicate_rows,omitempty"`
	// RejectedRows names the rejected prediction rows one by one (file,
	// row, line, instance id, field, reason); IgnoredPredictions the
	// predictions for tasks the dataset does not have (in no table).
	RejectedRows       []runrecord.PredictionRow `json:"rejected_rows,omitempty"`
	IgnoredPredictions []runrecord.PredictionRow `json:"ignored_predictions,omitempty"`
	// Runs is the per-run drill-down: one entry per record (task, agent,
	// run) with validity, functional correctness and why, I_p per aspect
	// and the paths of its stored log and record (NFIRun).
	Runs []NFIRun `json:"runs"`
}

// inputLines is the headline's account of the task rows and prediction
// rows that could not be read (at most 20 named), nil when there are none.
func (rep NFISuiteReport) inputLines() []string {
	lines := rep.inputErrorLines()
	lines = append(lines, DuplicateLines(rep.DuplicateRows)...)
	if len(rep.IgnoredPredictions) > 0 {
		lines = append(lines, fmt.Sprintf("%d predictions name tasks not in the dataset (ignored, in no table):", len(rep.IgnoredPredictions)))
		for i, p := range rep.IgnoredPredictions {
			if i == MaxNamed {
				lines = append(lines, fmt.Sprintf("  ... and %d more (report --format json lists them all)", len(rep.IgnoredPredictions)-MaxNamed))
				break
			}
			lines = append(lines, "  "+p.String())
		}
	}
	return lines
}

func (rep NFISuiteReport) inputErrorLines() []string {
	if rep.UnreadableRows == 0 && rep.RejectedPredictions == 0 && len(rep.InputErrors) == 0 {
		return nil
	}
	lines := []string{fmt.Sprintf("%d task rows could not be read and %d prediction rows were rejected (in no table):", rep.UnreadableRows, rep.RejectedPredictions)}
	for i, e := range rep.InputErrors {
		if i == 20 {
			lines = append(lines, fmt.Sprintf("  ... and %d more (report --format json lists them all)", len(rep.InputErrors)-20))
			break
		}
		lines = append(lines, "  "+e)
	}
	return lines
}

// UnreadableLines is the headline's account of the record files that
// could not be read, nil when there are none.
func (rep NFISuiteReport) UnreadableLines() []string {
	if len(rep.UnreadableRecords) == 0 {
		return nil
	}
	lines := []string{fmt.Sprintf("%d record files could not be read (left out of every table; re-run eval to evaluate them again):", len(rep.UnreadableRecords))}
	for _, u := range rep.UnreadableRecords {
		lines = append(lines, fmt.Sprintf("  unreadable record %s: %s", u.Path, u.Error))
	}
	return lines
}

func BuildNFISuite(dir string, records []nfirecord.Record, catalog, version string) NFISuiteReport {
	out := NFISuiteReport{Kind: "nfi_suite", Catalog: catalog, Grading: "strict", Records: len(records),
		Invalid: map[string]int{}, Tests: map[string]int{}, Version: version}
	for _, r := range records {
		if !r.Valid {
			out.Invalid[r.InvalidReason]++
		}
		if r.TestStatus != "" {
			out.Tests[r.TestStatus]++
		}
		if r.Model == "gold" && !r.FunctionallyCorrect {
			out.GoldFailureRuns++
		}
	}
	if m, ok, err := runrecord.ReadManifest(dir); err == nil && ok {
		have := map[string]bool{}
		for _, r := range records {
			have[fmt.Sprintf("%s\x00%s\x00%d", r.InstanceID, r.Model, r.Run)] = true
		}
		for _, u := range m.Units {
			if !have[fmt.Sprintf("%s\x00%s\x00%d", u.InstanceID, u.Model, u.Run)] {
				out.NotEvaluated++
			}
		}
		if !m.Complete {
			out.Notice = fmt.Sprintf("interrupted, %d not evaluated, re-run to resume", out.NotEvaluated)
		}
		out.EvaluatedWith = m.PolynfiVersions
		out.UnreadableRows, out.RejectedPredictions, out.InputErrors = m.UnreadableRows, m.Rejected, m.InputErrors
		out.RejectedRows, out.IgnoredPredictions = m.RejectedRows, m.IgnoredPredictions
		out.DuplicateRows = m.DuplicateRows
	}
	var units []NFIUnit
	if m, ok, err := runrecord.ReadManifest(dir); err == nil && ok {
		for _, u := range m.Units {
			units = append(units, NFIUnit{Task: u.InstanceID, Agent: u.Model, Run: u.Run})
		}
	}
	out.Report = BuildNFIUnits(records, units)
	out.GoldFailures = out.Report.GoldFailures
	out.Tables = out.Report.Tables()
	out.Runs = NFIRuns(records)
	for i := range out.Runs {
		if l := out.Runs[i].Log; l != "" {
			// Linked only when it is a regular file of the run, not a link.
			if f, err := safepath.OpenIn(dir, l); err != nil {
				out.Runs[i].Log = ""
			} else {
				f.Close()
			}
		}
	}
	return out
}

// NFISuitePage is the page of an NFI suite report: the notice, the summary
// line, the input rows and record files that could not be read, the
// invalid runs and test statuses, the gold warning, the charts and tables,
// and with runs the per-run drill-down table (NFIRunsTable).
func NFISuitePage(rep NFISuiteReport, runs bool) Page {
	head := fmt.Sprintf("SWE-NFI suite: %s, %s, %s (strict grading)", plural(rep.Report.Tasks, "task"), plural(len(rep.Report.Agents), "agent"), plural(rep.Records, "run"))
	if rep.NotEvaluated > 0 {
		head = fmt.Sprintf("SWE-NFI suite: %s, %s, %s evaluated, %d not evaluated (strict grading)", plural(rep.Report.Tasks, "task"), plural(len(rep.Report.Agents), "agent"), plural(rep.Records, "run"), rep.NotEvaluated)
	}
	lines := []string{head}
	lines = append(lines, rep.inputLines()...)
	lines = append(lines, rep.UnreadableLines()...)
	lines = append(lines, fmt.Sprintf("invalid runs by reason: %s; test runs by status: %s", countsText(rep.Invalid), countsText(rep.Tests)))
	if rep.GoldFailureRuns > 0 {
		lines = append(lines, fmt.Sprintf("warning: the human reference (gold) failed its tests in %s, on %s: check those tasks' environments (left out of the Human Reference's mean I_p(h))",
			plural(rep.GoldFailureRuns, "run"), strings.Join(rep.GoldFailures, ", ")))
	}
	tables := rep.Tables
	if runs {
		tables = append(append([]Table(nil), rep.Tables...), NFIRunsTable(rep.Runs))
	}
	return Page{Title: "SWE-NFI suite report", Notice: rep.Notice, Lines: lines, Charts: rep.Report.Charts(rep.Tables), Tables: tables,
		Footer: Provenance(rep.Version, rep.EvaluatedWith)}
}

// RenderNFISuite writes an NFI report in one of the formats: the per-run
// drill-down is always in Markdown, HTML and JSON, in text with instances.
func RenderNFISuite(w io.Writer, rep NFISuiteReport, format string, instances bool) error {
	if format == "json" {
		return writeJSON(w, rep)
	}
	return WritePage(w, NFISuitePage(rep, format != "text" || instances), format)
}

// WritePage writes p in format (text, markdown or html).
func WritePage(w io.Writer, p Page, format string) error {
	switch format {
	case "markdown":
		return WritePageMarkdown(w, p)
	case "html":
		return WriteHTML(w, p)
	}
	return WritePageText(w, p)
}

// WriteNFISuiteFiles writes report.json, report.md and report.html into dir.
func WriteNFISuiteFiles(dir string, rep NFISuiteReport) error {
	for name, format := range map[string]string{"report.json": "json", "report.md": "markdown", "report.html": "html"} {
		if err := atomicfile.WriteFunc(filepath.Join(dir, name), func(w io.Writer) error { return RenderNFISuite(w, rep, format, true) }); err != nil {
			return err
		}
	}
	return nil
}

// RenderHarness writes a harness (SWE-PolyBench / SWE-bench) run report
// in one of the formats (HarnessPage): text gives the notice,
// headline and tables (the per-instance table with instances), Markdown
// and HTML add the per-instance table with links, HTML the charts; json is
// the report itself.
func RenderHarness(w io.Writer, rep *Harness, format string, instances bool) error {
	switch format {
	case "json":
		return writeJSON(w, rep)
	case "markdown":
		return WritePageMarkdown(w, HarnessPage(rep, true))
	case "html":
		return WriteHTML(w, HarnessPage(rep, true))
	}
	return WritePageText(w, HarnessPage(rep, instances))
}

// LoadHarnessRun builds a harness run's report from its manifest and the
// records stored in it; a legacy run (no manifest) from its records alone
// (LegacyManifest). When the agent runs behind the predictions were
// audited (an audit.json of polynfi audit beside a predictions file or in
// dir/agent-runs) the report carries each model's "resolved, clean" rate
// (Extras.Audit).
func LoadHarnessRun(dir string, legacy bool, version string) (*Harness, error) {
	rep, err := loadHarnessRunRecords(dir, legacy, version)
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// loadHarnessRunRecords is LoadHarnessRun's body: the report of the
// records that could be read, naming every record file that could not
// (Extras.UnreadableRecords).
func loadHarnessRunRecords(dir string, legacy bool, version string) (rep *Harness, err error) {
	recs, bad, err := runrecord.ReadRecords(dir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if rep != nil {
			rep.Polynfi.UnreadableRecords = bad
		}
	}()
	if legacy {
		m := LegacyManifest(recs)
		// The inputs come from the old report.json, the numbers from the records.
		if b, err := safepath.ReadFileIn(dir, "report.json"); err == nil {
			var old Harness
			if json.Unmarshal(b, &old) == nil {
				m.Dataset, m.DatasetSchema, m.Predictions = old.Polynfi.Dataset, string(old.Polynfi.DatasetSchema), old.Polynfi.Predictions
				if old.Polynfi.NativeMode != "" {
					m.NativeMode = old.Polynfi.NativeMode
				}
			}
		}
		rep = HarnessFromRun(m, recs)
		rep.Polynfi.Version = version
		attachAudit(rep, dir)
		return rep, nil
	}
	m, _, err := runrecord.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	rep = HarnessFromRun(m, recs)
	rep.Polynfi.Version = version
	attachAudit(rep, dir)
	return rep, nil
}

// LoadMetricsOnly reads a --metrics-only run's report from its
// metrics.json and manifest; the numbers are computed again from the
// per-instance metrics (BuildMetricsOnly), so that a run written by
// an older polynfi gets the same tables and intervals.
func LoadMetricsOnly(dir, version string) (*MetricsOnly, error) {
	p := filepath.Join(dir, "metrics.json")
	b, err := safepath.ReadFileIn(dir, "metrics.json")
	if err != nil {
		return nil, err
	}
	var mj struct {
		Instances []retrieval.InstanceMetrics `json:"instances"`
	}
	if err := json.Unmarshal(b, &mj); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	m, ok, err := runrecord.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if !ok {
		m = nil
	}
	mo := BuildMetricsOnly(m, mj.Instances)
	mo.Version = version
	return mo, nil
}

// countsText renders {"a": 2, "b": 1} as "a 2, b 1" in key order, "none" when empty.
func countsText(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// CatalogOf reads the catalog version a run recorded in its report.json ("" when unknown).
func CatalogOf(dir string) string {
	b, err := safepath.ReadFileIn(dir, "report.json")
	if err != nil {
		return ""
	}
	var r struct {
		Catalog string `json:"catalog"`
	}
	if json.Unmarshal(b, &r) != nil {
		return ""
	}
	return r.Catalog
}

// plural is "1 noun" or "N nouns".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writeJSON writes v as indented JSON, "<" and ">" as typed.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// WriteHarnessFiles writes a harness run's report.json and report.html
// into dir, each atomically.
func WriteHarnessFiles(dir string, rep *Harness) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, "report.json"), append(data, '\n')); err != nil {
		return err
	}
	return atomicfile.WriteFunc(filepath.Join(dir, "report.html"), func(w io.Writer) error { return RenderHarness(w, rep, "html", false) })
}
