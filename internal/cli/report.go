package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/nfisuite"
	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/retrieval"
)

// nfiReportJSON is report.json of an NFI suite run.
type nfiReportJSON struct {
	Kind    string         `json:"kind"` // "nfi_suite"
	Catalog string         `json:"catalog,omitempty"`
	Grading string         `json:"grading"` // always "strict" for NFI tasks
	Records int            `json:"records"`
	Invalid map[string]int `json:"invalid_by_reason"`
	Tests   map[string]int `json:"test_status"`
	Report  report.NFI     `json:"report"`
	Tables  []report.Table `json:"tables"`
	// GoldFailures counts runs of the "gold" model (the human reference
	// evaluated as an agent) that were not functionally correct: the Human
	// Reference row assumes 100%, so such runs point at a broken task.
	GoldFailures int `json:"gold_failures"`
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
	// decoded (nfisuite.ReadRecords); every format names them.
	UnreadableRecords []nfisuite.UnreadableRecord `json:"unreadable_records,omitempty"`
	// UnreadableRows counts task rows of the dataset that could not be
	// read, RejectedPredictions prediction rows that could not be read;
	// InputErrors names each (file, row or line, field). They are in no
	// table, and every format says so.
	UnreadableRows      int      `json:"unreadable_rows"`
	RejectedPredictions int      `json:"rejected_predictions"`
	InputErrors         []string `json:"input_errors,omitempty"`
}

// inputLines is the headline's account of the task rows and prediction
// rows that could not be read (at most 20 named), nil when there are none.
func (rep nfiReportJSON) inputLines() []string {
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

// unreadableLines is the headline's account of the record files that
// could not be read, nil when there are none.
func (rep nfiReportJSON) unreadableLines() []string {
	if len(rep.UnreadableRecords) == 0 {
		return nil
	}
	lines := []string{fmt.Sprintf("%d record files could not be read (left out of every table; re-run eval to evaluate them again):", len(rep.UnreadableRecords))}
	for _, u := range rep.UnreadableRecords {
		lines = append(lines, fmt.Sprintf("  unreadable record %s: %s", u.Path, u.Error))
	}
	return lines
}

func buildNFIReport(dir string, records []nfisuite.Record, catalog string) nfiReportJSON {
	out := nfiReportJSON{Kind: "nfi_suite", Catalog: catalog, Grading: "strict", Records: len(records),
		Invalid: map[string]int{}, Tests: map[string]int{}, Version: polynfiVersion()}
	for _, r := range records {
		if !r.Valid {
			out.Invalid[r.InvalidReason]++
		}
		if r.TestStatus != "" {
			out.Tests[r.TestStatus]++
		}
		if r.Model == "gold" && !r.FunctionallyCorrect {
			out.GoldFailures++
		}
	}
	if m, ok, err := harness.ReadManifest(dir); err == nil && ok {
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
	}
	out.Report = report.BuildNFI(records)
	out.Tables = out.Report.Tables()
	return out
}

// renderNFI writes an NFI report in one of the formats.
func renderNFI(w io.Writer, rep nfiReportJSON, format string) error {
	switch format {
	case "json":
		return writeJSON(w, rep)
	case "markdown":
		fmt.Fprintf(w, "## SWE-NFI suite: %d tasks, %d agents, %d runs\n\n", rep.Report.Tasks, len(rep.Report.Agents), rep.Records)
		if rep.Notice != "" {
			fmt.Fprintf(w, "**%s**\n\n", rep.Notice)
		}
		if rep.GoldFailures > 0 {
			fmt.Fprintf(w, "**warning: the human reference (gold) failed its tests in %d runs: check those tasks' environments**\n\n", rep.GoldFailures)
		}
		if lines := append(rep.inputLines(), rep.unreadableLines()...); len(lines) > 0 {
			for _, l := range lines {
				fmt.Fprintf(w, "- %s\n", strings.TrimSpace(l))
			}
			fmt.Fprintln(w)
		}
		if err := report.WriteMarkdown(w, rep.Tables...); err != nil {
			return err
		}
		_, err := fmt.Fprintf(w, "\n<sub>%s</sub>\n", report.Provenance(rep.Version, rep.EvaluatedWith))
		return err
	case "html":
		var lines []string
		if rep.GoldFailures > 0 {
			lines = append(lines, fmt.Sprintf("warning: the human reference (gold) failed its tests in %d runs: check those tasks' environments", rep.GoldFailures))
		}
		lines = append(lines, rep.inputLines()...)
		lines = append(lines, rep.unreadableLines()...)
		return report.WriteHTML(w, report.Page{Title: "SWE-NFI suite report", Notice: rep.Notice, Lines: lines, Charts: rep.Report.Charts(rep.Tables), Tables: rep.Tables,
			Footer: report.Provenance(rep.Version, rep.EvaluatedWith)})
	}
	if rep.Notice != "" {
		fmt.Fprintln(w, rep.Notice)
	}
	fmt.Fprintf(w, "SWE-NFI suite: %d tasks, %d agents, %d runs (strict grading)\n", rep.Report.Tasks, len(rep.Report.Agents), rep.Records)
	for _, l := range append(rep.inputLines(), rep.unreadableLines()...) {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintf(w, "invalid runs by reason: %s; test runs by status: %s\n", countsText(rep.Invalid), countsText(rep.Tests))
	if rep.GoldFailures > 0 {
		fmt.Fprintf(w, "warning: the human reference (gold) failed its tests in %d runs: check those tasks' environments\n", rep.GoldFailures)
	}
	fmt.Fprintln(w)
	if err := report.WriteText(w, rep.Tables...); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s\n", report.Provenance(rep.Version, rep.EvaluatedWith))
	return err
}

// writeNFIRunReport writes report.json, report.md and report.html into dir.
func writeNFIRunReport(dir string, rep nfiReportJSON) error {
	for name, format := range map[string]string{"report.json": "json", "report.md": "markdown", "report.html": "html"} {
		if err := atomicfile.WriteFunc(filepath.Join(dir, name), func(w io.Writer) error { return renderNFI(w, rep, format) }); err != nil {
			return err
		}
	}
	return nil
}

func newReportCmd(e *env) *cobra.Command {
	var format, bundle string
	var instances bool
	cmd := &cobra.Command{
		Use:   "report RUN_DIR...",
		Short: "Render the report of finished runs from their stored records",
		Long: `Re-render the report of each RUN_DIR from the records polynfi eval stored in it
(nothing is re-evaluated). A run directory is one polynfi eval wrote: it holds
polynfi-run.json (runs written before that file existed are recognised by
their report.json). Anything else is refused: records found below a directory
do not make it a run.

The report covers every record stored in RUN_DIR, over every eval call into
it. A run that was interrupted says so in every format ("interrupted, N not
evaluated, re-run to resume"); its not-evaluated units are incomplete.

For a repository-level run (SWE-PolyBench / SWE-bench dataset): the resolved
counts under the three grading modes with 95% Wilson intervals, the pass rate
and the file- and node-level retrieval means by language, task category and
complexity class with their denominators and bootstrap intervals, the mean NFI
improvement of the changed .py files, and the per-instance drill-down (always
in Markdown and HTML; in text with --instances). A --metrics-only run gives
its retrieval tables. For an SWE-NFI suite run: the paper's Table 3 (Valid %,
Func. Pass %, mean I_p per aspect with +/- against the Human Reference and
which of them the intervals support), Table 4, consistency, pass@k and cost.
The same records always give the same output, byte for byte.

--bundle DIR writes a SWE-PolyBench leaderboard-style submission bundle of a
harness run: predictions, per-instance results (<instance_id>_result.json
in SWE-PolyBench's shape) and logs, and metadata.

Formats: text, markdown, json, html (tables and SVG charts).
Exit status: 0, 2 for bad arguments or a directory that is not a run, 3 when
nothing in a run could be evaluated.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "markdown", "json", "html"); err != nil {
				return err
			}
			if bundle != "" && len(args) != 1 {
				return usagef("--bundle takes one run directory")
			}
			var errs []error
			for i, dir := range args {
				if i > 0 && format != "json" {
					fmt.Fprintln(e.stdout)
				}
				if err := reportRunDir(e, dir, format, instances, bundle); err != nil {
					var u usageError
					if errors.As(err, &u) {
						return err
					}
					errs = append(errs, err)
				}
			}
			return errors.Join(errs...)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, markdown, json, html")
	cmd.Flags().BoolVar(&instances, "instances", false, "text: add the per-instance table (status, reason, modes, retrieval, I_p, log/patch/command paths)")
	cmd.Flags().StringVar(&bundle, "bundle", "", "also write a SWE-PolyBench-style submission bundle of the run into this directory")
	return cmd
}

// reportRunDir renders one run directory.
func reportRunDir(e *env, dir, format string, instances bool, bundle string) error {
	kind, legacy, err := harness.RunDirKind(dir)
	if err != nil {
		if st, serr := os.Stat(dir); serr != nil || !st.IsDir() {
			return usagef("report: %s: %v", dir, err)
		}
		// A run directory whose manifest cannot be read: an input error
		// naming the file (exit 3).
		return fmt.Errorf("report: %w", err)
	}
	switch kind {
	case harness.KindNFISuite:
		records, bad, err := nfisuite.ReadRecords(dir)
		if err != nil {
			return err
		}
		rep := buildNFIReport(dir, records, catalogOf(dir))
		rep.UnreadableRecords = bad
		if len(records) == 0 {
			for _, l := range rep.unreadableLines() {
				fmt.Fprintln(e.stderr, "polynfi: "+strings.TrimSpace(l))
			}
			return fmt.Errorf("%s: nothing could be evaluated: the run has no readable records", dir)
		}
		return renderNFI(e.stdout, rep, format)
	case harness.KindMetricsOnly:
		return renderMetricsOnly(e.stdout, dir, format)
	case harness.KindHarness:
		rep, err := loadHarnessRun(dir, legacy)
		if err != nil {
			return err
		}
		if err := renderHarness(e.stdout, rep, format, instances); err != nil {
			return err
		}
		if bundle != "" {
			if err := writeBundle(dir, bundle, rep); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "polynfi: submission bundle written to %s\n", bundle)
		}
		if rep.Polynfi.Recorded == 0 {
			return fmt.Errorf("%s: nothing could be evaluated: no unit has a record", dir)
		}
		return nil
	}
	return usagef("report: %s is not a polynfi run directory (no %s; give the --out directory of a polynfi eval)", dir, harness.ManifestFile)
}

// renderHarness writes a harness (SWE-PolyBench / SWE-bench) run report
// in one of the formats (report.HarnessPage): text gives the notice,
// headline and tables (the per-instance table with instances), Markdown
// and HTML add the per-instance table with links, HTML the charts; json is
// the report itself.
func renderHarness(w io.Writer, rep *report.Harness, format string, instances bool) error {
	switch format {
	case "json":
		return writeJSON(w, rep)
	case "markdown":
		return report.WritePageMarkdown(w, report.HarnessPage(rep, true))
	case "html":
		return report.WriteHTML(w, report.HarnessPage(rep, true))
	}
	return report.WritePageText(w, report.HarnessPage(rep, instances))
}

// loadHarnessRun builds a harness run's report from its manifest and the
// records stored in it; a legacy run (no manifest) from its records alone
// (report.LegacyManifest).
func loadHarnessRun(dir string, legacy bool) (*report.Harness, error) {
	rep, err := loadHarnessRunRecords(dir, legacy)
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// loadHarnessRunRecords is loadHarnessRun's body: the report of the
// records that could be read, naming every record file that could not
// (Extras.UnreadableRecords).
func loadHarnessRunRecords(dir string, legacy bool) (rep *report.Harness, err error) {
	recs, bad, err := harness.ReadRecords(dir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if rep != nil {
			rep.Polynfi.UnreadableRecords = bad
		}
	}()
	if legacy {
		m := report.LegacyManifest(recs)
		// The inputs come from the old report.json, the numbers from the records.
		if b, err := os.ReadFile(filepath.Join(dir, "report.json")); err == nil {
			var old report.Harness
			if json.Unmarshal(b, &old) == nil {
				m.Dataset, m.DatasetSchema, m.Predictions = old.Polynfi.Dataset, string(old.Polynfi.DatasetSchema), old.Polynfi.Predictions
				if old.Polynfi.NativeMode != "" {
					m.NativeMode = old.Polynfi.NativeMode
				}
			}
		}
		rep = report.HarnessFromRun(m, recs)
		rep.Polynfi.Version = polynfiVersion()
		return rep, nil
	}
	m, _, err := harness.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	rep = report.HarnessFromRun(m, recs)
	rep.Polynfi.Version = polynfiVersion()
	return rep, nil
}

// renderMetricsOnly renders a --metrics-only run from its metrics.json.
func renderMetricsOnly(w io.Writer, dir, format string) error {
	p := filepath.Join(dir, "metrics.json")
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	var mj struct {
		Summary retrieval.Summary `json:"summary"`
	}
	if err := json.Unmarshal(b, &mj); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if format == "json" {
		_, err := w.Write(b)
		return err
	}
	var versions []string
	if m, ok, err := harness.ReadManifest(dir); err == nil && ok {
		versions = m.PolynfiVersions
	}
	page := report.Page{Title: "polynfi eval --metrics-only: " + filepath.Base(dir), Tables: report.RetrievalTables(mj.Summary),
		Footer: report.Provenance(polynfiVersion(), versions)}
	switch format {
	case "markdown":
		return report.WritePageMarkdown(w, page)
	case "html":
		return report.WriteHTML(w, page)
	}
	return report.WritePageText(w, page)
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

// catalogOf reads the catalog version a run recorded in its report.json ("" when unknown).
func catalogOf(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
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
