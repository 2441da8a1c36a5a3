package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/polynfi/polynfi/agent"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfirecord"
	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/report/bundle"
	"github.com/polynfi/polynfi/runrecord"
)

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
		return report.WritePage(w, rr.page(instances), format)
	}
	return report.WritePage(w, rr.page(true), format)
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
	doc := report.Sections("polynfi report: "+plural(len(runs), "run"), []string{"run directories: " + strings.Join(dirs, ", ") +
		" (one section each; file links are relative to the directory polynfi report ran in)"}, pages...)
	doc.Footer = footer
	return report.WritePage(w, doc, format)
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
	kind, legacy, err := runrecord.RunDirKind(dir)
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
	case runrecord.KindNFISuite:
		records, bad, err := nfirecord.ReadRecords(dir)
		if err != nil {
			return nil, err
		}
		rep := report.BuildNFISuite(dir, records, report.CatalogOf(dir), polynfiVersion())
		rep.UnreadableRecords = bad
		if len(records) == 0 {
			for _, l := range rep.UnreadableLines() {
				fmt.Fprintln(e.stderr, "polynfi: "+textesc.Terminal(strings.TrimSpace(l)))
			}
			return nil, fmt.Errorf("%s: nothing could be evaluated: the run has no readable records", dir)
		}
		rr.json, rr.page = rep, func(instances bool) report.Page { return report.NFISuitePage(rep, instances) }
		return rr, nil
	case runrecord.KindMetricsOnly:
		mo, err := report.LoadMetricsOnly(dir, polynfiVersion())
		if err != nil {
			return nil, err
		}
		rr.json = mo
		rr.page = func(instances bool) report.Page {
			return report.MetricsOnlyPage(mo, "polynfi eval --metrics-only: "+filepath.Base(dir), instances)
		}
		return rr, nil
	case runrecord.KindHarness:
		rep, err := report.LoadHarnessRun(dir, legacy, polynfiVersion())
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
	return nil, usagef("report: %s is not a polynfi run directory (no %s; give the --out directory of a polynfi eval)", dir, runrecord.ManifestFile)
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
