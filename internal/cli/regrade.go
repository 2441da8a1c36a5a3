package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/report"
)

// regradeUnit is one re-graded record: the verdicts stored and the ones the
// current parsers and modes give from the same log.
type regradeUnit struct {
	Unit       string           `json:"unit"`
	Dir        string           `json:"record_dir"`
	OldParser  string           `json:"old_parser"`
	NewParser  string           `json:"new_parser"`
	Old        harness.Verdicts `json:"old_verdicts"`
	New        harness.Verdicts `json:"new_verdicts"`
	Changed    bool             `json:"changed"`
	NotRegrade string           `json:"not_regraded,omitempty"` // why the record was kept as it is
	// Earlier are the verdicts earlier `regrade --apply` calls replaced
	// (the record's regrade_history), oldest first.
	Earlier []harness.RegradeEntry `json:"earlier_verdicts,omitempty"`
}

func newRegradeCmd(e *env) *cobra.Command {
	var dsPath, format string
	var apply, allowDifferent bool
	cmd := &cobra.Command{
		Use:   "regrade RUN_DIR",
		Short: "Re-grade a run's stored test logs with the current parsers and grading modes",
		Long: `Re-parse the test log stored with every record of RUN_DIR and grade it again in
the polybench, swebench and strict modes against the dataset's FAIL_TO_PASS and
PASS_TO_PASS lists, without running any test (after a parser or grading fix).
The old verdicts are shown beside the new ones for every unit whose verdict
changed, and all of them are written to RUN_DIR/regrade.json (the last
regrade) and RUN_DIR/regrades/<UTC time>[-applied].json (every regrade, with
its time and polynfi version). With --apply the records' verdicts are replaced
by the new ones, so that polynfi report shows the re-graded run; each record
keeps the verdicts it replaced in its regrade_history (time, polynfi version,
parser), and later regrades list them beside the current ones.

Records that cannot be re-graded from their log are kept as they are and
listed: no test ran (empty or unapplied patch, harness error) or the log does
not read through run marks carrying the record's secret (written by an earlier
polynfi, or altered since). A log is read only through those marks: its streams,
exit status and the JUnit XML reports the run wrote are the harness's sections,
never text the tests printed.

The dataset is the one the run names in polynfi-run.json unless --dataset is given.
A dataset whose content (SHA-256) differs from the one the run was evaluated
with is refused (exit 2): its FAIL_TO_PASS/PASS_TO_PASS lists may not be the
run's; --allow-different-dataset re-grades against it anyway, with a warning,
and --apply then records both datasets.

With --apply, RUN_DIR/report.json and report.html are written again from the
re-graded records, and every report of the run names each applied regrade
("re-graded <time> by polynfi <version> (N verdicts changed)"). Units the run
did not evaluate (an interrupted run) have no log to re-grade: they are named,
and running the same eval again evaluates them.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			dir := args[0]
			kind, _, err := harness.RunDirKind(dir)
			if err != nil || kind != harness.KindHarness {
				return usagef("regrade: %s is not a polynfi run directory of repository-level instances", dir)
			}
			man, hasMan, err := harness.ReadManifest(dir)
			if err != nil {
				return err
			}
			if dsPath == "" {
				if !hasMan || man.Dataset == "" {
					return usagef("regrade: %s does not name its dataset: give --dataset", dir)
				}
				dsPath = man.Dataset
				if !filepath.IsAbs(dsPath) {
					// A manifest of an older polynfi holds the path as given,
					// relative to the directory eval ran in.
					if _, err := os.Stat(dsPath); err != nil {
						return fmt.Errorf("regrade: %s names its dataset as %s, relative to the directory it was evaluated in, and there is no such file from here: give --dataset", dir, dsPath)
					}
				}
			}
			note := harness.RegradeNote{Dataset: dsPath, DatasetSHA256: harness.DatasetDigest(dsPath)}
			if hasMan && man.DatasetSHA256 != "" && note.DatasetSHA256 != man.DatasetSHA256 {
				what := fmt.Sprintf("the dataset %s (sha256 %s) is not the one %s was evaluated with (%s, sha256 %s)",
					dsPath, shortSHA(note.DatasetSHA256), dir, man.Dataset, shortSHA(man.DatasetSHA256))
				if !allowDifferent {
					return usagef("regrade: %s: its test lists may differ from the run's; give --allow-different-dataset to re-grade against it anyway", what)
				}
				fmt.Fprintf(e.stderr, "polynfi: warning: %s; re-grading against it (--allow-different-dataset)\n", what)
				note.PreviousDataset, note.PreviousDatasetSHA256 = man.Dataset, man.DatasetSHA256
			}
			ds, err := dataset.Load(dsPath)
			if err != nil {
				return fmt.Errorf("load dataset: %w", err)
			}
			byID := map[string]dataset.Instance{}
			for _, x := range ds.Instances {
				byID[x.InstanceID] = x
			}
			var store *harness.Store
			if apply {
				if store, err = harness.OpenStore(dir); err != nil {
					return err
				}
				defer store.Close()
			}
			recs, err := harness.LoadRecords(dir)
			if err != nil {
				return err
			}
			var units []regradeUnit
			changed := 0
			now := time.Now().UTC()
			for _, rec := range recs {
				u := regradeUnit{Unit: fmt.Sprintf("%s@%s#%d", rec.InstanceID, rec.Model, rec.Run), Dir: harness.RecordRelDir(rec.Key), Old: rec.Verdicts, New: rec.Verdicts,
					Earlier: rec.RegradeHistory}
				if rec.Test != nil {
					u.OldParser = rec.Test.Parser
				}
				inst, ok := byID[rec.InstanceID]
				if !ok {
					u.NotRegrade = "instance not in " + dsPath
					units = append(units, u)
					continue
				}
				// Never through a link: the run directory is not trusted.
				log, err := safepath.ReadFileIn(dir, u.Dir+"/"+harness.LogFile)
				if err != nil && rec.Test != nil {
					u.NotRegrade = err.Error()
					units = append(units, u)
					continue
				}
				v, out, fw, why := harness.Regrade(inst, rec, log)
				if why != "" {
					u.NotRegrade = why
					units = append(units, u)
					continue
				}
				u.New, u.NewParser = v, fw
				u.Changed = verdictsDiffer(v, rec.Verdicts)
				if u.Changed {
					changed++
				}
				units = append(units, u)
				if apply && u.Changed {
					// The old verdicts stay in the record, beside the new.
					rec.RegradeHistory = append(rec.RegradeHistory, harness.RegradeEntry{At: now, Version: polynfiVersion(),
						Parser: u.OldParser, Resolved: rec.Resolved, Status: rec.Status, Verdicts: rec.Verdicts})
					u.Earlier = rec.RegradeHistory
					rec.Verdicts, rec.PolyBenchOutput = v, out
					native := v.Get(rec.NativeMode)
					rec.Resolved, rec.Status = native.Resolved, native.Status
					rec.Test.Parser = fw
					if err := saveRecordOnly(store, rec); err != nil {
						return err
					}
				}
			}
			// Units of the run without a record (an interrupted run) have
			// no log: they are named, not silently left out.
			var notEvaluated []string
			if hasMan {
				if rep, err := loadHarnessRun(dir, false); err == nil {
					notEvaluated = rep.Polynfi.NotRecordedIDs
				}
			}
			if apply {
				note.At, note.Version, note.Changed = now, polynfiVersion(), changed
				if err := recordRegrade(dir, man, hasMan, note); err != nil {
					return err
				}
			}
			doc := map[string]any{"regraded_at": now, "polynfi_version": polynfiVersion(), "dataset": dsPath, "dataset_sha256": note.DatasetSHA256,
				"applied": apply, "changed": changed, "units": units, "not_evaluated": notEvaluated}
			if note.PreviousDataset != "" || note.PreviousDatasetSHA256 != "" {
				doc["run_dataset"], doc["run_dataset_sha256"] = note.PreviousDataset, note.PreviousDatasetSHA256
			}
			b, _ := json.MarshalIndent(doc, "", "  ")
			// regrade.json is the last regrade; every regrade is also kept
			// under regrades/, named by its time, never overwritten.
			// Written without following a link below the run directory
			// (a regrades/ that is one is refused, naming it).
			snapshot := "regrades/" + now.Format("20060102T150405.000000000Z") + map[bool]string{true: "-applied", false: ""}[apply] + ".json"
			if err := atomicfile.WriteFileIn(dir, snapshot, append(b, '\n')); err != nil {
				return err
			}
			if err := atomicfile.WriteFileIn(dir, "regrade.json", append(b, '\n')); err != nil {
				return err
			}
			if format == "json" {
				_, err := e.stdout.Write(append(b, '\n'))
				return err
			}
			t := report.Table{Title: "Verdicts that change on re-grading (old → new)",
				Header: []string{"unit", "parser", string(harness.ModePolyBench), string(harness.ModeSWEBench), string(harness.ModeStrict)}}
			kept := 0
			for _, u := range units {
				if u.NotRegrade != "" {
					kept++
				}
				if !u.Changed {
					continue
				}
				arrow := func(m harness.Mode) string {
					o, n := u.Old.Get(m), u.New.Get(m)
					if o.Status == n.Status {
						return string(n.Status)
					}
					return string(o.Status) + " → " + string(n.Status)
				}
				t.Rows = append(t.Rows, []string{u.Unit, u.OldParser + " → " + u.NewParser, arrow(harness.ModePolyBench), arrow(harness.ModeSWEBench), arrow(harness.ModeStrict)})
			}
			fmt.Fprintf(e.stdout, "re-graded %d records of %s: %d changed, %d kept as they are (see regrade.json)%s\n",
				len(units)-kept, dir, changed, kept, map[bool]string{true: "; records updated, report.json and report.html written again", false: "; records unchanged (--apply to update them)"}[apply])
			if n := len(notEvaluated); n > 0 {
				fmt.Fprintf(e.stdout, "%d units were not evaluated (the run was interrupted): no log to re-grade; run the same eval again to evaluate them: %s\n", n, textesc.Terminal(strings.Join(notEvaluated, ", ")))
			}
			fmt.Fprintln(e.stdout)
			// Records an earlier --apply re-graded: their first verdicts
			// beside the current ones.
			h := report.Table{Title: "Verdicts replaced by an earlier regrade --apply (first → current)",
				Header: []string{"unit", "re-graded at", "by", string(harness.ModePolyBench), string(harness.ModeSWEBench), string(harness.ModeStrict)}}
			for _, u := range units {
				if len(u.Earlier) == 0 {
					continue
				}
				first, last := u.Earlier[0], u.Earlier[len(u.Earlier)-1]
				arrow := func(m harness.Mode) string {
					o, n := first.Verdicts.Get(m), u.Old.Get(m)
					if o.Status == n.Status {
						return string(n.Status)
					}
					return string(o.Status) + " → " + string(n.Status)
				}
				h.Rows = append(h.Rows, []string{u.Unit, last.At.Format(time.RFC3339), "polynfi " + last.Version, arrow(harness.ModePolyBench), arrow(harness.ModeSWEBench), arrow(harness.ModeStrict)})
			}
			if len(t.Rows) == 0 {
				fmt.Fprintln(e.stdout, "no verdict changes")
			} else if err := report.WriteText(e.stdout, t); err != nil {
				return err
			}
			if len(h.Rows) > 0 {
				fmt.Fprintln(e.stdout)
				return report.WriteText(e.stdout, h)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dsPath, "dataset", "", "dataset file (default: the one the run names)")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.Flags().BoolVar(&apply, "apply", false, "replace the records' verdicts with the new ones (and write the run's reports again)")
	cmd.Flags().BoolVar(&allowDifferent, "allow-different-dataset", false, "re-grade against a dataset whose content differs from the one the run was evaluated with")
	return cmd
}

// recordRegrade notes an applied regrade in dir's manifest (the dataset
// it graded against becomes the run's when it differs) and writes the
// run's report.json and report.html again from its records, as eval
// writes them.
func recordRegrade(dir string, man *harness.Manifest, hasMan bool, note harness.RegradeNote) error {
	if hasMan {
		man.Regrades = append(man.Regrades, note)
		if note.PreviousDataset != "" || note.PreviousDatasetSHA256 != "" {
			man.Dataset, man.DatasetSHA256 = manifestPath(note.Dataset), note.DatasetSHA256
		}
		if err := man.Write(dir); err != nil {
			return err
		}
	}
	rep, err := loadHarnessRun(dir, !hasMan)
	if err != nil {
		return err
	}
	return writeHarnessReports(dir, rep)
}

// writeHarnessReports writes a harness run's report.json and report.html
// into dir.
func writeHarnessReports(dir string, rep *report.Harness) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := harness.WriteFileAtomic(filepath.Join(dir, "report.json"), append(data, '\n')); err != nil {
		return err
	}
	return atomicfile.WriteFunc(filepath.Join(dir, "report.html"), func(w io.Writer) error { return renderHarness(w, rep, "html", false) })
}

// shortSHA is a digest's first 12 hex digits ("unknown" when "").
func shortSHA(d string) string {
	if d == "" {
		return "unknown"
	}
	return d[:min(12, len(d))]
}

// saveRecordOnly rewrites a record's result.json, keeping its artifacts.
func saveRecordOnly(s *harness.Store, rec *harness.Record) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFileIn(s.Dir, harness.RecordRelDir(rec.Key)+"/"+harness.ResultFile, append(b, '\n'))
}

// verdictsDiffer says whether any mode's resolved flag or status differs.
func verdictsDiffer(a, b harness.Verdicts) bool {
	for _, m := range harness.ModesFor(harness.ModeMultiSWEBench) {
		x, y := a.Get(m), b.Get(m)
		if x.Resolved != y.Resolved || x.Status != y.Status {
			return true
		}
	}
	return false
}
