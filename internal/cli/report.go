package cli

import (
	"encoding/json"
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
}

func buildNFIReport(records []nfisuite.Record, catalog string) nfiReportJSON {
	out := nfiReportJSON{Kind: "nfi_suite", Catalog: catalog, Grading: "strict", Records: len(records),
		Invalid: map[string]int{}, Tests: map[string]int{}}
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
		return report.WriteMarkdown(w, rep.Tables...)
	case "html":
		svg, err := rep.Report.NFIChart()
		if err != nil {
			return err
		}
		var names []string
		for _, row := range rep.Report.Table3 {
			names = append(names, row.Agent)
		}
		return report.WriteHTML(w, "SWE-NFI suite report", []report.Chart{{SVG: svg, Series: names}}, rep.Tables)
	}
	fmt.Fprintf(w, "SWE-NFI suite: %d tasks, %d agents, %d runs (strict grading)\n", rep.Report.Tasks, len(rep.Report.Agents), rep.Records)
	fmt.Fprintf(w, "invalid runs by reason: %s; test runs by status: %s\n", countsText(rep.Invalid), countsText(rep.Tests))
	if rep.GoldFailures > 0 {
		fmt.Fprintf(w, "warning: the human reference (gold) failed its tests in %d runs: check those tasks' environments\n", rep.GoldFailures)
	}
	fmt.Fprintln(w)
	return report.WriteText(w, rep.Tables...)
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
	var format string
	cmd := &cobra.Command{
		Use:   "report RUN_DIR",
		Short: "Render the tables of a finished run from its stored records",
		Long: `Re-render a run's report from the per-run records that polynfi eval stored in
RUN_DIR (nothing is re-evaluated). For an SWE-NFI suite run: the paper's
Table 3 (Valid %, Func. Pass %, mean I_p per aspect with +/- against the Human
Reference), Table 4 (single- vs multi-file), consistency over repeated runs
and cost. For a repository-level run (SWE-PolyBench / SWE-bench dataset):
the resolved counts under the three grading modes, the pass rate and the
file- and node-level retrieval means by language, task category and
complexity class with their denominators, and the mean NFI improvement of
the changed .py files; read from RUN_DIR/report.json, or rebuilt from the
records when the run stopped before writing it. The same records always
give the same output, byte for byte.

Formats: text, markdown, json, html (tables and an SVG chart).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "markdown", "json", "html"); err != nil {
				return err
			}
			dir := args[0]
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return usagef("report: %s is not a run directory", dir)
			}
			if rep, ok, err := loadHarnessRun(dir); err != nil {
				return err
			} else if ok {
				return renderHarness(e.stdout, rep, format)
			}
			records, err := nfisuite.LoadRecords(dir)
			if err != nil {
				return err
			}
			if len(records) == 0 {
				return fmt.Errorf("%s: the run has no records yet", dir)
			}
			return renderNFI(e.stdout, buildNFIReport(records, catalogOf(dir)), format)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, markdown, json, html")
	return cmd
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

// renderHarness writes a harness (SWE-PolyBench / SWE-bench) run report in
// one of the formats: text and markdown give the headline and the tables of
// report.HarnessTables, html adds the chart of report.HarnessChart, json is
// the report itself.
func renderHarness(w io.Writer, rep *report.Harness, format string) error {
	switch format {
	case "json":
		return writeJSON(w, rep)
	case "markdown":
		fmt.Fprintf(w, "## %s run %s\n\n", rep.Polynfi.DatasetSchema, rep.Polynfi.RunID)
		for _, l := range report.HarnessHeadline(rep) {
			fmt.Fprintf(w, "- %s\n", l)
		}
		fmt.Fprintln(w)
		return report.WriteMarkdown(w, report.HarnessTables(rep)...)
	case "html":
		chart, err := report.HarnessChart(rep)
		if err != nil {
			return err
		}
		tables := append([]report.Table{{Title: "Run", Header: []string{"summary"}, Rows: headlineRows(rep)}}, report.HarnessTables(rep)...)
		return report.WriteHTML(w, fmt.Sprintf("polynfi eval: %s", rep.Polynfi.RunID), []report.Chart{chart}, tables)
	}
	for _, l := range report.HarnessHeadline(rep) {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
	return report.WriteText(w, report.HarnessTables(rep)...)
}

func headlineRows(rep *report.Harness) [][]string {
	var rows [][]string
	for _, l := range report.HarnessHeadline(rep) {
		rows = append(rows, []string{l})
	}
	return rows
}

// loadHarnessRun reads a harness run directory: its report.json when it
// is a harness report, else (a run killed before writing one) a report
// rebuilt from the records under DIR/<model>/<instance_id>/run-<k>/. ok is
// false when dir holds neither.
func loadHarnessRun(dir string) (rep *report.Harness, ok bool, err error) {
	if b, err := os.ReadFile(filepath.Join(dir, "report.json")); err == nil {
		var probe struct {
			Kind      string          `json:"kind"`
			PolyBench json.RawMessage `json:"polybench"`
			Polynfi   json.RawMessage `json:"polynfi"`
		}
		if json.Unmarshal(b, &probe) == nil && probe.Kind == "" && probe.PolyBench != nil && probe.Polynfi != nil {
			rep = &report.Harness{}
			if err := json.Unmarshal(b, rep); err != nil {
				return nil, false, fmt.Errorf("%s: %w", filepath.Join(dir, "report.json"), err)
			}
			return rep, true, nil
		}
		return nil, false, nil
	}
	recs, err := harness.LoadRecords(dir)
	if err != nil || len(recs) == 0 {
		return nil, false, err
	}
	return report.HarnessFromRecords(recs), true, nil
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
