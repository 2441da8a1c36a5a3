package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfisuite"
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
			ka, _, err := harness.RunDirKind(args[0])
			if err != nil {
				return usagef("compare: %s: %v", args[0], err)
			}
			kb, _, err := harness.RunDirKind(args[1])
			if err != nil {
				return usagef("compare: %s: %v", args[1], err)
			}
			for i, k := range []string{ka, kb} {
				if k == harness.KindMetricsOnly {
					return usagef("compare: %s is a --metrics-only run (retrieval metrics only, no test verdicts): compare needs two full eval runs (resolved verdicts to pair)", args[i])
				}
				if k != harness.KindHarness && k != harness.KindNFISuite {
					return usagef("compare: %s is not a polynfi run directory with records (no %s of an eval run)", args[i], harness.ManifestFile)
				}
			}
			if ka != kb {
				return usagef("compare: %s is a %s run and %s a %s run", args[0], ka, args[1], kb)
			}
			var ua, ub []report.CompareUnit
			var la, lb string
			var interrupted [2]bool
			if ka == harness.KindNFISuite {
				ra, err := nfisuite.LoadRecords(args[0])
				if err != nil {
					return err
				}
				rb, err := nfisuite.LoadRecords(args[1])
				if err != nil {
					return err
				}
				// The manifests' units: an interrupted run's units without a
				// record are not evaluated, as a harness run's incomplete
				// instances are.
				unitsA, intrA, err := nfiManifestUnits(args[0])
				if err != nil {
					return err
				}
				unitsB, intrB, err := nfiManifestUnits(args[1])
				if err != nil {
					return err
				}
				ma, err := pickModel(args[0], modelA, report.NFIModels(ra, unitsA), "--model-a")
				if err != nil {
					return err
				}
				mb, err := pickModel(args[1], modelB, report.NFIModels(rb, unitsB), "--model-b")
				if err != nil {
					return err
				}
				ua, ub = report.NFICompareUnits(ra, unitsA, ma), report.NFICompareUnits(rb, unitsB, mb)
				interrupted = [2]bool{intrA, intrB}
				la, lb = filepath.Base(args[0])+" "+ma, filepath.Base(args[1])+" "+mb
			} else {
				var reps [2]*report.Harness
				for i, d := range args {
					_, legacy, _ := harness.RunDirKind(d)
					if reps[i], err = report.LoadHarnessRun(d, legacy, polynfiVersion()); err != nil {
						return err
					}
					// A record not read (corrupt, or a link, which is never
					// followed) is named, not silently left out.
					for _, u := range reps[i].Polynfi.UnreadableRecords {
						fmt.Fprintf(e.stderr, "polynfi: %s: record not read: %s\n", u.Path, u.Error)
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
				ua, ub = report.HarnessCompareUnits(reps[0], ma), report.HarnessCompareUnits(reps[1], mb)
				interrupted = [2]bool{reps[0].Polynfi.Interrupted, reps[1].Polynfi.Interrupted}
				la, lb = filepath.Base(args[0])+" "+ma, filepath.Base(args[1])+" "+mb
			}
			warning, keep, err := checkSameDataset(args[0], args[1], allowDifferent)
			if err != nil {
				return err
			}
			if keep != nil {
				ua, ub = onlyInstances(ua, keep), onlyInstances(ub, keep)
				fmt.Fprintf(e.stderr, "polynfi: %s\n", textesc.Terminal(warning))
			}
			c := report.Compare(la, ua, lb, ub)
			c.DatasetWarning = warning
			c.SetInterrupted(interrupted[0], interrupted[1])
			if c.Paired == 0 {
				for i, s := range []report.CompareSide{c.A, c.B} {
					if s.Units == 0 && s.NotEvaluated > 0 {
						return fmt.Errorf("compare: %s has no evaluated unit of %s to pair: %s", args[i], s.Label, strings.Join(c.NotEvaluatedLines(), "; "))
					}
				}
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
	cmd.Flags().BoolVar(&allowDifferent, "allow-different-datasets", false, "compare runs evaluated on different datasets: only the instances both runs have are paired and counted, and every format says so")
	cmd.Flags().StringVar(&modelA, "model-a", "", "the agent (model_name_or_path) of RUN_A, when it holds several")
	cmd.Flags().StringVar(&modelB, "model-b", "", "the agent (model_name_or_path) of RUN_B, when it holds several")
	return withResultFile(e, cmd)
}

// nfiManifestUnits returns the (task, agent, run) units an SWE-NFI suite
// run's manifest asks for and whether its last eval call was interrupted
// (did not finish); nil and false for a run without a manifest.
func nfiManifestUnits(dir string) ([]report.NFIUnit, bool, error) {
	m, ok, err := harness.ReadManifest(dir)
	if err != nil || !ok {
		return nil, false, err
	}
	units := make([]report.NFIUnit, 0, len(m.Units))
	for _, u := range m.Units {
		units = append(units, report.NFIUnit{Task: u.InstanceID, Agent: u.Model, Run: u.Run})
	}
	return units, !m.Complete, nil
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

// checkSameDataset checks that runs a and b were evaluated on the same
// dataset: equal dataset digests when both manifests record one, else
// equal evaluated instance sets (else, for runs without a manifest, equal
// dataset paths in their reports). Different datasets are a usage error
// unless allow; then warning says so and keep holds the instances both
// runs evaluated (nil when the datasets are the same).
func checkSameDataset(a, b string, allow bool) (warning string, keep map[string]bool, err error) {
	ma, oka, err := harness.ReadManifest(a)
	if err != nil {
		return "", nil, err
	}
	mb, okb, err := harness.ReadManifest(b)
	if err != nil {
		return "", nil, err
	}
	var why string
	insts := func(m *harness.Manifest) map[string]bool {
		out := map[string]bool{}
		for _, x := range m.Instances {
			out[x.InstanceID] = true
		}
		return out
	}
	var ia, ib map[string]bool
	switch {
	case oka && okb:
		ia, ib = insts(ma), insts(mb)
		if ma.DatasetSHA256 != "" && mb.DatasetSHA256 != "" {
			if ma.DatasetSHA256 != mb.DatasetSHA256 {
				why = fmt.Sprintf("dataset contents differ (%s sha256 %.12s, %s sha256 %.12s)", ma.Dataset, ma.DatasetSHA256, mb.Dataset, mb.DatasetSHA256)
			}
		} else if !sameSet(ia, ib) {
			why = fmt.Sprintf("the evaluated instance sets differ (%s: %d instances, %s: %d)", ma.Dataset, len(ia), mb.Dataset, len(ib))
		}
	default:
		da, db := legacyDataset(a, ma, oka), legacyDataset(b, mb, okb)
		if da != db {
			why = fmt.Sprintf("the runs name different datasets (%s, %s)", da, db)
		}
	}
	if why == "" {
		return "", nil, nil
	}
	if !allow {
		return "", nil, usagef("compare: %s and %s were not evaluated on the same dataset: %s; give --allow-different-datasets to compare the instances both have", a, b, why)
	}
	keep = map[string]bool{}
	for id := range ia {
		if ib[id] {
			keep[id] = true
		}
	}
	if ia == nil {
		keep = nil
	}
	n := "the instances both runs have"
	if keep != nil {
		n = fmt.Sprintf("the %d instances both runs have", len(keep))
	}
	return fmt.Sprintf("WARNING: DIFFERENT DATASETS (--allow-different-datasets): %s; only %s are paired and counted", why, n), keep, nil
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// legacyDataset is the dataset a run names: its manifest's, or for a run
// without one, its report.json's.
func legacyDataset(dir string, m *harness.Manifest, ok bool) string {
	if ok {
		return m.Dataset
	}
	b, err := safepath.ReadFileIn(dir, "report.json")
	if err != nil {
		return ""
	}
	var r struct {
		Dataset string `json:"dataset"`
		Polynfi struct {
			Dataset string `json:"dataset"`
		} `json:"polynfi"`
	}
	if json.Unmarshal(b, &r) != nil {
		return ""
	}
	if r.Polynfi.Dataset != "" {
		return r.Polynfi.Dataset
	}
	return r.Dataset
}

// onlyInstances keeps the units of the given instances.
func onlyInstances(us []report.CompareUnit, keep map[string]bool) []report.CompareUnit {
	var out []report.CompareUnit
	for _, u := range us {
		if keep[u.Instance] {
			out = append(out, u)
		}
	}
	return out
}
