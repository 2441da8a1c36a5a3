package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/nfisuite"
	"github.com/polynfi/polynfi/report"
)

func newCompareCmd(e *env) *cobra.Command {
	var format, modelA, modelB string
	cmd := &cobra.Command{
		Use:   "compare RUN_A RUN_B",
		Short: "Compare two runs of the same dataset, unit by unit, with significance tests",
		Long: `Pair the units of two run directories of the same dataset (two agents, or two
versions of one) by instance id and run, and report: each side's resolved
rate with its 95% Wilson interval; McNemar's exact test on the discordant
pairs (resolved by A only vs by B only); the paired difference of mean I_p
per aspect (B − A) with a seeded paired bootstrap interval; the units that
flip either way; and the paired per-instance table.

Both runs must be of the same kind (repository-level harness runs, or SWE-NFI
suite runs, where success is functional correctness). A run holding several
agents needs --model-a / --model-b; RUN_A and RUN_B may be the same directory
(two agents of one suite run).

Formats: text, markdown, json, html (tables and SVG charts).`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "markdown", "json", "html"); err != nil {
				return err
			}
			ka, _, err := harness.RunDirKind(args[0])
			if err != nil {
				return usagef("compare: %s: %v", args[0], err)
			}
			kb, _, err := harness.RunDirKind(args[1])
			if err != nil {
				return usagef("compare: %s: %v", args[1], err)
			}
			for i, k := range []string{ka, kb} {
				if k != harness.KindHarness && k != harness.KindNFISuite {
					return usagef("compare: %s is not a polynfi run directory with records (no %s of an eval run)", args[i], harness.ManifestFile)
				}
			}
			if ka != kb {
				return usagef("compare: %s is a %s run and %s a %s run", args[0], ka, args[1], kb)
			}
			var ua, ub []report.CompareUnit
			var la, lb string
			if ka == harness.KindNFISuite {
				ra, err := nfisuite.LoadRecords(args[0])
				if err != nil {
					return err
				}
				rb, err := nfisuite.LoadRecords(args[1])
				if err != nil {
					return err
				}
				ma, err := pickModel(args[0], modelA, report.NFIModels(ra), "--model-a")
				if err != nil {
					return err
				}
				mb, err := pickModel(args[1], modelB, report.NFIModels(rb), "--model-b")
				if err != nil {
					return err
				}
				ua, ub = report.NFICompareUnits(ra, ma), report.NFICompareUnits(rb, mb)
				la, lb = filepath.Base(args[0])+" "+ma, filepath.Base(args[1])+" "+mb
			} else {
				var reps [2]*report.Harness
				for i, d := range args {
					_, legacy, _ := harness.RunDirKind(d)
					if reps[i], err = loadHarnessRun(d, legacy); err != nil {
						return err
					}
				}
				ma, err := pickModel(args[0], modelA, report.HarnessModels(reps[0]), "--model-a")
				if err != nil {
					return err
				}
				mb, err := pickModel(args[1], modelB, report.HarnessModels(reps[1]), "--model-b")
				if err != nil {
					return err
				}
				if a, b := reps[0].Polynfi.Dataset, reps[1].Polynfi.Dataset; a != b {
					fmt.Fprintf(e.stderr, "polynfi: warning: the runs name different datasets (%s, %s): only units of the same instance id are paired\n", a, b)
				}
				ua, ub = report.HarnessCompareUnits(reps[0], ma), report.HarnessCompareUnits(reps[1], mb)
				la, lb = filepath.Base(args[0])+" "+ma, filepath.Base(args[1])+" "+mb
			}
			c := report.Compare(la, ua, lb, ub)
			if c.Paired == 0 {
				return fmt.Errorf("compare: no unit of %s pairs with one of %s (same instance ids and runs needed)", args[0], args[1])
			}
			page := c.Page(fmt.Sprintf("polynfi compare: %s vs %s", la, lb))
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
	cmd.Flags().StringVar(&modelA, "model-a", "", "the agent (model_name_or_path) of RUN_A, when it holds several")
	cmd.Flags().StringVar(&modelB, "model-b", "", "the agent (model_name_or_path) of RUN_B, when it holds several")
	return cmd
}

// pickModel returns the model to compare in a run: the flag's, which must
// be one of the run's, or the run's only model.
func pickModel(dir, flag string, models []string, name string) (string, error) {
	if flag != "" {
		for _, m := range models {
			if m == flag {
				return m, nil
			}
		}
		return "", usagef("compare: %s %q: %s holds %s", name, flag, dir, strings.Join(models, ", "))
	}
	if len(models) == 1 {
		return models[0], nil
	}
	return "", usagef("compare: %s holds %d agents (%s): choose one with %s", dir, len(models), strings.Join(models, ", "), name)
}
