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
	"github.com/spf13/pflag"

	"github.com/polynfi/polynfi/agent"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfisuite"
	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/report/bundle"
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
	// decoded (nfisuite.ReadRecords); every format names them.
	UnreadableRecords []nfisuite.UnreadableRecord `json:"unreadable_records,omitempty"`
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
	DuplicateRows []harness.DatasetRow `json:"duplicate_rows,omitempty"`
	// RejectedRows names the rejected prediction rows one by one (file,
	// row, line, instance id, field, reason); IgnoredPredictions the
	// predictions for tasks the dataset does not have (in no table).
	RejectedRows       []harness.PredictionRow `json:"rejected_rows,omitempty"`
	IgnoredPredictions []harness.PredictionRow `json:"ignored_predictions,omitempty"`
	// Runs is the per-run drill-down: one entry per record (task, agent,
	// run) with validity, functional correctness and why, I_p per aspect
	// and the paths of its stored log and record (report.NFIRun).
	Runs []report.NFIRun `json:"runs"`
}

// inputLines is the headline's account of the task rows and prediction
// rows that could not be read (at most 20 named), nil when there are none.
func (rep nfiReportJSON) inputLines() []string {
	lines := rep.inputErrorLines()
	lines = append(lines, report.DuplicateLines(rep.DuplicateRows)...)
	if len(rep.IgnoredPredictions) > 0 {
		lines = append(lines, fmt.Sprintf("%d predictions name tasks not in the dataset (ignored, in no table):", len(rep.IgnoredPredictions)))
		for i, p := range rep.IgnoredPredictions {
			if i == report.MaxNamed {
				lines = append(lines, fmt.Sprintf("  ... and %d more (report --format json lists them all)", len(rep.IgnoredPredictions)-report.MaxNamed))
				break
			}
			lines = append(lines, "  "+p.String())
		}
	}
	return lines
}

func (rep nfiReportJSON) inputErrorLines() []string {
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
			out.GoldFailureRuns++
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
		out.RejectedRows, out.IgnoredPredictions = m.RejectedRows, m.IgnoredPredictions
		out.DuplicateRows = m.DuplicateRows
	}
	var units []report.NFIUnit
	if m, ok, err := harness.ReadManifest(dir); err == nil && ok {
		for _, u := range m.Units {
			units = append(units, report.NFIUnit{Task: u.InstanceID, Agent: u.Model, Run: u.Run})
		}
	}
	out.Report = report.BuildNFIUnits(records, units)
	out.GoldFailures = out.Report.GoldFailures
	out.Tables = out.Report.Tables()
	out.Runs = report.NFIRuns(records)
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

// nfiPage is the page of an NFI suite report: the notice, the summary
// line, the input rows and record files that could not be read, the
// invalid runs and test statuses, the gold warning, the charts and tables,
// and with runs the per-run drill-down table (report.NFIRunsTable).
func nfiPage(rep nfiReportJSON, runs bool) report.Page {
	head := fmt.Sprintf("SWE-NFI suite: %s, %s, %s (strict grading)", plural(rep.Report.Tasks, "task"), plural(len(rep.Report.Agents), "agent"), plural(rep.Records, "run"))
	if rep.NotEvaluated > 0 {
		head = fmt.Sprintf("SWE-NFI suite: %s, %s, %s evaluated, %d not evaluated (strict grading)", plural(rep.Report.Tasks, "task"), plural(len(rep.Report.Agents), "agent"), plural(rep.Records, "run"), rep.NotEvaluated)
	}
	lines := []string{head}
	lines = append(lines, rep.inputLines()...)
	lines = append(lines, rep.unreadableLines()...)
	lines = append(lines, fmt.Sprintf("invalid runs by reason: %s; test runs by status: %s", countsText(rep.Invalid), countsText(rep.Tests)))
	if rep.GoldFailureRuns > 0 {
		lines = append(lines, fmt.Sprintf("warning: the human reference (gold) failed its tests in %d runs, on %s: check those tasks' environments (left out of the Human Reference's mean I_p(h))",
			rep.GoldFailureRuns, strings.Join(rep.GoldFailures, ", ")))
	}
	tables := rep.Tables
	if runs {
		tables = append(append([]report.Table(nil), rep.Tables...), report.NFIRunsTable(rep.Runs))
	}
	return report.Page{Title: "SWE-NFI suite report", Notice: rep.Notice, Lines: lines, Charts: rep.Report.Charts(rep.Tables), Tables: tables,
		Footer: report.Provenance(rep.Version, rep.EvaluatedWith)}
}

// renderNFI writes an NFI report in one of the formats: the per-run
// drill-down is always in Markdown, HTML and JSON, in text with instances.
func renderNFI(w io.Writer, rep nfiReportJSON, format string, instances bool) error {
	if format == "json" {
		return writeJSON(w, rep)
	}
	return writePage(w, nfiPage(rep, format != "text" || instances), format)
}

// writePage writes p in format (text, markdown or html).
func writePage(w io.Writer, p report.Page, format string) error {
	switch format {
	case "markdown":
		return report.WritePageMarkdown(w, p)
	case "html":
		return report.WriteHTML(w, p)
	}
	return report.WritePageText(w, p)
}

// writeNFIRunReport writes report.json, report.md and report.html into dir.
func writeNFIRunReport(dir string, rep nfiReportJSON) error {
	for name, format := range map[string]string{"report.json": "json", "report.md": "markdown", "report.html": "html"} {
		if err := atomicfile.WriteFunc(filepath.Join(dir, name), func(w io.Writer) error { return renderNFI(w, rep, format, true) }); err != nil {
			return err
		}
	}
	return nil
}

func newReportCmd(e *env) *cobra.Command {
	var format, bundleDir, bundleModel string
	var instances bool
	var bopts bundle.Options
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
A run directory holding the predictions of several models (eval calls with
different predictions into one --out) is reported with one section per
model, each with its own headline, tables and denominators. Prediction rows
that were rejected and predictions for instances not in the dataset are
named (file, row, line, instance id, field, reason) in every format.

For a repository-level run (SWE-PolyBench / SWE-bench dataset): the resolved
counts under the three grading modes with 95% Wilson intervals, the pass rate
and the file- and node-level retrieval means by language, task category and
complexity class with their denominators and bootstrap intervals, the mean NFI
improvement of the changed source files, and the per-instance drill-down (always
in Markdown and HTML; in text with --instances). A --metrics-only run gives
its retrieval tables, with the same intervals. For an SWE-NFI suite run: the
paper's Table 3 (Valid %, Func. Pass %, mean I_p per aspect with +/- against
the Human Reference and which of them the intervals support), Table 4,
consistency, pass@k and cost. The same records always give the same output,
byte for byte.

Several RUN_DIRs give one document: JSON {"runs": [{"dir", "kind",
"report"}, ...]}, one HTML page, one Markdown or text document, with one
section per run directory.

--bundle DIR writes a leaderboard submission bundle of a harness run of one
model (--model picks one of a run holding several), in the layout of
SWE-PolyBench's submission branch and SWE-bench's experiments repository:
all_preds.jsonl, metadata.yaml, README.md (the polynfi version and grading
that produced it), logs/<instance_id>_result.json and _metrics.json in
SWE-PolyBench's shapes, logs/<instance_id>/ as SWE-bench's harness leaves it
(patch.diff, run_instance.log: polynfi's log of the evaluation from the record;
eval.sh and test_output.txt once the tests ran; SWE-bench's report.json once
graded; nothing for an empty prediction), for a SWE-bench-schema run
results/results.json (no_generation, no_logs, resolved, as the experiments
repository's get_results.py computes them), trajs/ when the predictions came
from 'polynfi run' (found beside the predictions file, or --trajs DIR), and
polynfi's extras in polynfi/. metadata.yaml has the shape of the dataset's
leaderboard: SWE-PolyBench's name, oss, site, pass_rate (logo, authors), or
SWE-bench's info and tags; the --bundle-* flags give the values polynfi cannot
know (--bundle-oss true|false, --bundle-site URL, ...; a bad value exits 2),
and fields left unset are null with a comment. A run with instances not evaluated (interrupted,
unreadable records) is refused (exit 3, saying how many) unless
--allow-incomplete, and the bundle then says it is incomplete. DIR is written
afresh (built beside it, then renamed into place): it must be absent, empty,
or an earlier polynfi bundle, which is replaced. An SWE-NFI suite or
--metrics-only run has no such bundle: refused (exit 2).

Formats: text, markdown, json, html (tables and SVG charts).
Exit status: 0, 2 for bad arguments or a directory that is not a run, 3 when
nothing in a run could be evaluated or --bundle is refused (an incomplete run
without --allow-incomplete, an I/O error).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "markdown", "json", "html"); err != nil {
				return err
			}
			if bundleDir != "" && len(args) != 1 {
				return usagef("--bundle takes one run directory")
			}
			if bundleModel != "" && bundleDir == "" {
				return usagef("--model goes with --bundle")
			}
			if (bopts.AllowIncomplete || bopts.Trajs != "") && bundleDir == "" {
				return usagef("--allow-incomplete and --trajs go with --bundle")
			}
			if bopts.Meta.Given() && bundleDir == "" {
				return usagef("the --bundle-* flags (metadata.yaml's fields) go with --bundle")
			}
			if err := bopts.Meta.Check(); err != nil {
				return err
			}
			var errs []error
			var runs []*runReport
			args = dedupeRunDirs(e, args)
			for _, dir := range args {
				rr, err := loadRunReport(e, dir)
				if err != nil {
					var u usageError
					if errors.As(err, &u) {
						return err
					}
					errs = append(errs, err)
					continue
				}
				runs = append(runs, rr)
			}
			if bundleDir != "" && len(runs) == 1 {
				if err := runs[0].writeBundle(bundleDir, bundleModel, bopts); err != nil {
					return err
				}
				fmt.Fprintf(e.stderr, "polynfi: submission bundleDir written to %s\n", bundleDir)
			}
			if len(args) == 1 && len(runs) == 1 {
				if err := runs[0].render(e.stdout, format, instances); err != nil {
					return err
				}
			} else if len(runs) > 0 {
				if err := renderRuns(e.stdout, runs, format, instances); err != nil {
					return err
				}
			}
			for _, rr := range runs {
				if rr.err != nil {
					errs = append(errs, rr.err)
				}
			}
			return errors.Join(errs...)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, markdown, json, html")
	cmd.Flags().BoolVar(&instances, "instances", false, "text: add the per-instance table (harness run: status, reason, modes, retrieval, I_p, log/patch/command paths; SWE-NFI suite run: every task x agent x run with validity, functional pass/fail and why, I_p, log/record paths)")
	cmd.Flags().StringVar(&bundleDir, "bundle", "", "also write a leaderboard submission bundle (SWE-PolyBench / SWE-bench layout) of the run into this directory (replacing an earlier bundle there)")
	cmd.Flags().BoolVar(&bopts.AllowIncomplete, "allow-incomplete", false, "with --bundle: bundle a run with instances not evaluated (interrupted); the bundle says it is incomplete")
	cmd.Flags().StringVar(&bopts.Trajs, "trajs", "", "with --bundle: the 'polynfi run' output directory whose agent trajectories go into trajs/ (default: beside the run's predictions file, or RUN/agent-runs)")
	cmd.Flags().StringVar(&bundleModel, "model", "", "with --bundle: the model (model_name_or_path) to bundle, of a run holding several")
	addBundleMetaFlags(cmd.Flags(), &bopts.Meta)
	return withResultFile(e, cmd)
}

// dedupeRunDirs drops a run directory given more than once (the same
// directory after cleaning the path and resolving symbolic links), saying
// so on stderr: one run is reported once.
func dedupeRunDirs(e *env, dirs []string) []string {
	seen := map[string]string{}
	var out []string
	for _, d := range dirs {
		key := filepath.Clean(d)
		if abs, err := filepath.Abs(key); err == nil {
			key = abs
		}
		if real, err := filepath.EvalSymlinks(key); err == nil {
			key = real
		}
		if first, ok := seen[key]; ok {
			fmt.Fprintf(e.stderr, "polynfi: report: %s is the same run directory as %s: reported once\n", d, first)
			continue
		}
		seen[key] = d
		out = append(out, d)
	}
	return out
}

// runReport is one run directory's report, ready to render: its kind,
// what --format json writes, its page, and err when nothing in it could be
// evaluated (the report is still rendered; the exit status is not 0).
type runReport struct {
	dir, kind string
	json      any
	page      func(instances bool) report.Page
	harness   *report.Harness // a harness run's report (--bundle)
	err       error
}

func (rr *runReport) render(w io.Writer, format string, instances bool) error {
	switch format {
	case "json":
		return writeJSON(w, rr.json)
	case "text":
		return writePage(w, rr.page(instances), format)
	}
	return writePage(w, rr.page(true), format)
}

// renderRuns writes the reports of several run directories as one
// document: JSON {"runs": [{"dir", "kind", "report"}]}, or one page with a
// section per run, titled by its directory.
func renderRuns(w io.Writer, runs []*runReport, format string, instances bool) error {
	if format == "json" {
		type runJSON struct {
			Dir    string `json:"dir"`
			Kind   string `json:"kind"`
			Report any    `json:"report"`
		}
		doc := struct {
			Runs []runJSON `json:"runs"`
		}{}
		for _, rr := range runs {
			doc.Runs = append(doc.Runs, runJSON{rr.dir, rr.kind, rr.json})
		}
		return writeJSON(w, doc)
	}
	footer := report.Provenance(polynfiVersion(), nil)
	var pages []report.Page
	var dirs []string
	for _, rr := range runs {
		p := rr.page(instances || format != "text").WithLinkBase(rr.dir)
		p.Title = "run " + rr.dir + ": " + p.Title
		if p.Footer == footer {
			p.Footer = ""
		}
		pages = append(pages, p)
		dirs = append(dirs, rr.dir)
	}
	doc := report.Sections(fmt.Sprintf("polynfi report: %d runs", len(runs)), []string{"run directories: " + strings.Join(dirs, ", ") +
		" (one section each; file links are relative to the directory polynfi report ran in)"}, pages...)
	doc.Footer = footer
	return writePage(w, doc, format)
}

// writeBundle writes the submission bundle of rr (of model, when the run
// holds several) into out.
func (rr *runReport) writeBundle(out, model string, opts bundle.Options) error {
	if rr.harness == nil {
		return usagef("--bundle: %s is a %s run: a submission bundle (SWE-PolyBench's predictions, per-instance _result.json and logs) is of a repository-level (SWE-PolyBench / SWE-bench) run; nothing written to %s",
			rr.dir, strings.ReplaceAll(rr.kind, "_", "-"), out)
	}
	rep := rr.harness
	if len(rep.Polynfi.Models) > 1 || model != "" {
		var names []string
		var pick *report.Harness
		for _, m := range rep.Polynfi.Models {
			names = append(names, m.Model)
			if m.Model == model {
				pick = m.Report
			}
		}
		if len(names) == 0 {
			names = report.HarnessModels(rep)
			if len(names) == 1 && names[0] == model {
				pick = rep
			}
		}
		if pick == nil {
			return usagef("--bundle: %s holds the predictions of %s: a submission bundle is of one model: pick it with --model", rr.dir, strings.Join(names, ", "))
		}
		rep = pick
	}
	opts.Version = polynfiVersion()
	opts.TrajectoryDir = func(root, model, id string, run int) string {
		return filepath.Join(agent.RunDir(root, model, id, run), agent.TrajectoryDir)
	}
	return bundle.Write(rr.dir, out, rep, opts)
}

// loadRunReport reads one run directory's report. A path that exists and
// is not a run directory is a usage error (exit 2); one that does not
// exist or cannot be read is an input error (exit 3).
func loadRunReport(e *env, dir string) (*runReport, error) {
	kind, legacy, err := harness.RunDirKind(dir)
	if err != nil {
		st, serr := os.Stat(dir)
		if serr != nil {
			return nil, fmt.Errorf("report: %w", serr)
		}
		if !st.IsDir() {
			return nil, usagef("report: %s: %v", dir, err)
		}
		// A run directory whose manifest cannot be read: an input error
		// naming the file (exit 3).
		return nil, fmt.Errorf("report: %w", err)
	}
	rr := &runReport{dir: dir, kind: kind}
	switch kind {
	case harness.KindNFISuite:
		records, bad, err := nfisuite.ReadRecords(dir)
		if err != nil {
			return nil, err
		}
		rep := buildNFIReport(dir, records, catalogOf(dir))
		rep.UnreadableRecords = bad
		if len(records) == 0 {
			for _, l := range rep.unreadableLines() {
				fmt.Fprintln(e.stderr, "polynfi: "+textesc.Terminal(strings.TrimSpace(l)))
			}
			return nil, fmt.Errorf("%s: nothing could be evaluated: the run has no readable records", dir)
		}
		rr.json, rr.page = rep, func(instances bool) report.Page { return nfiPage(rep, instances) }
		return rr, nil
	case harness.KindMetricsOnly:
		mo, err := loadMetricsOnly(dir)
		if err != nil {
			return nil, err
		}
		rr.json = mo
		rr.page = func(instances bool) report.Page {
			return report.MetricsOnlyPage(mo, "polynfi eval --metrics-only: "+filepath.Base(dir), instances)
		}
		return rr, nil
	case harness.KindHarness:
		rep, err := loadHarnessRun(dir, legacy)
		if err != nil {
			return nil, err
		}
		rr.json, rr.harness = rep, rep
		rr.page = func(instances bool) report.Page { return report.HarnessPage(rep, instances) }
		if rep.Polynfi.Recorded == 0 {
			rr.err = fmt.Errorf("%s: nothing could be evaluated: no unit has a record", dir)
		}
		return rr, nil
	}
	return nil, usagef("report: %s is not a polynfi run directory (no %s; give the --out directory of a polynfi eval)", dir, harness.ManifestFile)
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
		if b, err := safepath.ReadFileIn(dir, "report.json"); err == nil {
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

// loadMetricsOnly reads a --metrics-only run's report from its
// metrics.json and manifest; the numbers are computed again from the
// per-instance metrics (report.BuildMetricsOnly), so that a run written by
// an older polynfi gets the same tables and intervals.
func loadMetricsOnly(dir string) (*report.MetricsOnly, error) {
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
	m, ok, err := harness.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if !ok {
		m = nil
	}
	mo := report.BuildMetricsOnly(m, mj.Instances)
	mo.Version = polynfiVersion()
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

// catalogOf reads the catalog version a run recorded in its report.json ("" when unknown).
func catalogOf(dir string) string {
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

// addBundleMetaFlags declares the --bundle-* flags into m.
func addBundleMetaFlags(f *pflag.FlagSet, m *bundle.Meta) {
	f.StringVar(&m.Name, "bundle-name", "", "with --bundle: metadata.yaml name, the leaderboard entry (default: the model_name_or_path)")
	f.StringVar(&m.OSS, "bundle-oss", "", "with --bundle: metadata.yaml oss (SWE-bench: tags.os_system): true if the system is open source, else false")
	f.StringVar(&m.Site, "bundle-site", "", "with --bundle: metadata.yaml site: an http(s) URL with more information about the system")
	f.StringArrayVar(&m.Logos, "bundle-logo", nil, "with --bundle: metadata.yaml logo: an http(s) URL of a logo image (repeatable; SWE-bench takes one)")
	f.StringVar(&m.Authors, "bundle-authors", "", "with --bundle: metadata.yaml authors: who made the submission, one line (\"A. Name, B. Name\")")
	f.StringVar(&m.Report, "bundle-report", "", "with --bundle, SWE-bench runs: info.report: an http(s) URL of the technical report or blog post")
	f.StringArrayVar(&m.Orgs, "bundle-org", nil, "with --bundle, SWE-bench runs: tags.org: an organisation behind the system (repeatable)")
	f.StringArrayVar(&m.LMs, "bundle-lm", nil, "with --bundle, SWE-bench runs: tags.model: a language model the system uses (repeatable)")
	f.StringVar(&m.OSModel, "bundle-os-model", "", "with --bundle, SWE-bench runs: tags.os_model: true if the models' weights are open, else false")
	f.StringVar(&m.Attempts, "bundle-attempts", "", `with --bundle, SWE-bench runs: tags.system.attempts: "1" (one attempt per instance) or "2+" (best@k: the system picks one of several attempts)`)
}
