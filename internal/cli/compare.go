package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/report"
)

func newCompareCmd(e *env) *cobra.Command {
	var format, modelA, modelB string
	var allowDifferent bool
	cmd := &cobra.Command{
		Use:   "compare RUN_A RUN_B",
		Short: "Compare two runs of the same dataset, unit by unit, with significance tests",
		Long: `Pair the units of two run directories of the same dataset (two agents, or two
versions of one) by instance id and run, and report: each side's resolved
rate with its 95% Wilson interval; McNemar's exact test on the discordant
pairs (resolved by A only vs by B only); the paired difference of mean I_p
per aspect (B − A) with a seeded paired bootstrap interval; the units that
flip either way; and the paired per-instance table.

Both runs must have been evaluated on the same dataset: the dataset digests
their manifests record (dataset_sha256) must be equal, or for runs without
one, the evaluated instance sets; otherwise compare exits 2, unless
--allow-different-datasets is given (then only the instances both runs have
are counted, and every format says so first).

Both runs must be of the same kind (repository-level harness runs, or SWE-NFI
suite runs, where success is functional correctness). A run holding several
agents needs --model-a / --model-b; RUN_A and RUN_B may be the same directory
(two agents of one suite run).

Units a side's run did not evaluate (its eval was interrupted or killed
before reaching them: instances of a harness run, (task, agent, run) units
of a suite run, as its manifest lists them) are left out of the pairs and
of that side's rate, and every format says so ("B interrupted: N not
evaluated"; JSON "notices" and the sides' not_evaluated).

Formats: text, markdown, json, html (tables and SVG charts).`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "markdown", "json", "html"); err != nil {
				return err
			}
			c, err := report.CompareRuns(report.CompareInput{DirA: args[0], DirB: args[1], ModelA: modelA, ModelB: modelB,
				AllowDifferentDatasets: allowDifferent, Version: polynfiVersion()}, func(s string) {
				fmt.Fprintf(e.stderr, "polynfi: %s\n", textesc.Terminal(s))
			})
			if err != nil {
				return err
			}
			page := c.Page(fmt.Sprintf("polynfi compare: %s vs %s", c.A.Label, c.B.Label))
			page.Footer = report.Provenance(polynfiVersion(), nil)
			switch format {
			case "json":
				return writeJSON(e.stdout, c)
			case "markdown":
				return report.WritePageMarkdown(e.stdout, page)
			case "html":
				return report.WriteHTML(e.stdout, page)
			}
			return report.WritePageText(e.stdout, page)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, markdown, json, html")
	cmd.Flags().BoolVar(&allowDifferent, "allow-different-datasets", false, "compare runs evaluated on different datasets: only the instances both runs have are paired and counted, and every format says so")
	cmd.Flags().StringVar(&modelA, "model-a", "", "the agent (model_name_or_path) of RUN_A, when it holds several")
	cmd.Flags().StringVar(&modelB, "model-b", "", "the agent (model_name_or_path) of RUN_B, when it holds several")
	return withResultFile(e, cmd)
}
