package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

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
	fmt.Fprintf(w, "SWE-NFI suite: %d tasks, %d agents, %d runs (strict grading)\n\n", rep.Report.Tasks, len(rep.Report.Agents), rep.Records)
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
and cost. The same records always give the same output, byte for byte.

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
