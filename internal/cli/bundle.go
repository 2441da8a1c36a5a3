package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/report"
)

// polyBenchResult is SWE-PolyBench's per-instance result file,
// <instance_id>_result.json: its PolyBenchOutput dataclass written with
// json.dump(asdict(...)), fields in declaration order.
// Source: SWE-PolyBench polybench_data.py PolyBenchOutput, scoring.py
// store_instance_level_output.
type polyBenchResult struct {
	InstanceID   string   `json:"instance_id"`
	PatchApplied bool     `json:"patch_applied"`
	Generation   bool     `json:"generation"`
	WithLogs     bool     `json:"with_logs"`
	AllF2PPassed bool     `json:"all_f2p_passed"`
	NoP2PFailed  bool     `json:"no_p2p_failed"`
	Resolved     bool     `json:"resolved"`
	PassedTests  []string `json:"passed_tests"`
	FailedTests  []string `json:"failed_tests"`
}

// writeBundle writes a SWE-PolyBench leaderboard-style submission bundle
// of a harness run of one model and one run into out:
//
//	predictions.jsonl                 instance_id, model_name_or_path, model_patch (as applied)
//	results/<instance_id>_result.json SWE-PolyBench's per-instance result (polyBenchResult)
//	results/result.json               SWE-PolyBench's aggregate (report.PolyBenchAggregate)
//	logs/<instance_id>/test_output.txt, patch.diff, command.sh
//	metadata.json                     run, model, dataset, grading, counts, what is left out
//	README.md                         the headline of the report
//
// Units that were not evaluated have no result file and are listed in
// metadata.json (not_evaluated); instances without a prediction are
// listed there too (no_prediction), as SWE-PolyBench writes no file for
// them either.
//
// out is written afresh: the bundle is built in a new directory beside it
// and renamed into place, so that no file of an earlier bundle of another
// run survives. out must be absent, an empty directory, or an earlier
// polynfi bundle (its metadata.json says "generator": "polynfi report
// --bundle"); anything else is refused, untouched.
func writeBundle(runDir, out string, rep *report.Harness) error {
	if err := checkBundleDir(out); err != nil {
		return err
	}
	parent := filepath.Dir(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".polynfi-bundle-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := buildBundle(runDir, tmp, rep); err != nil {
		return err
	}
	// Move an earlier bundle aside, put the new one in place, then remove
	// the old one.
	old := ""
	if _, err := os.Lstat(out); err == nil {
		old = tmp + ".old"
		if err := os.Rename(out, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, out); err != nil {
		if old != "" {
			os.Rename(old, out)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// bundleGenerator is the "generator" a bundle's metadata.json carries.
const bundleGenerator = "polynfi report --bundle"

// checkBundleDir refuses a bundle destination that exists and is neither
// an empty directory nor an earlier polynfi bundle.
func checkBundleDir(out string) error {
	st, err := os.Lstat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return usagef("--bundle %s: exists and is not a directory: give a new directory (or an earlier polynfi bundle, which is replaced)", out)
	}
	ents, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	if len(ents) == 0 {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(out, "metadata.json"))
	var meta struct {
		Generator string `json:"generator"`
	}
	if err == nil && json.Unmarshal(b, &meta) == nil && meta.Generator == bundleGenerator {
		return nil
	}
	return usagef("--bundle %s: the directory is not empty and is not a polynfi bundle (no metadata.json from %s): refusing to replace it; give a new directory", out, bundleGenerator)
}

// buildBundle writes the bundle's files into the new directory out.
func buildBundle(runDir, out string, rep *report.Harness) error {
	models := report.HarnessModels(rep)
	if len(models) != 1 {
		return usagef("--bundle: the run holds %d models (%v): a submission bundle is of one model", len(models), models)
	}
	recs, err := harness.LoadRecords(runDir)
	if err != nil {
		return err
	}
	byUnit := map[string]*harness.Record{}
	runs := map[int]bool{}
	for _, r := range recs {
		if r.Model == models[0] {
			byUnit[r.InstanceID] = r
			runs[r.Run] = true
		}
	}
	if len(runs) > 1 {
		return usagef("--bundle: the run holds %d repeated runs of %s: a submission bundle is of one run", len(runs), models[0])
	}
	for _, d := range []string{out, filepath.Join(out, "results"), filepath.Join(out, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	var preds bytes.Buffer
	var notEvaluated, noPrediction []string
	units := append([]report.UnitResult(nil), rep.Polynfi.UnitResults...)
	sort.Slice(units, func(i, j int) bool { return units[i].InstanceID < units[j].InstanceID })
	for _, u := range units {
		switch u.Outcome {
		case "missing":
			noPrediction = append(noPrediction, u.InstanceID)
			continue
		case "incomplete":
			notEvaluated = append(notEvaluated, u.InstanceID)
			continue
		}
		rec := byUnit[u.InstanceID]
		if rec == nil {
			notEvaluated = append(notEvaluated, u.InstanceID)
			continue
		}
		recDir := filepath.Join(runDir, filepath.FromSlash(u.Dir))
		patch, _ := os.ReadFile(filepath.Join(recDir, harness.PatchFile))
		line, _ := json.Marshal(map[string]string{"instance_id": rec.InstanceID, "model_name_or_path": rec.Model, "model_patch": string(patch)})
		preds.Write(append(line, '\n'))
		res := polyBenchResult{InstanceID: rec.InstanceID, PatchApplied: rec.PatchApplied, Generation: rec.Generation,
			WithLogs: rec.WithLogs, AllF2PPassed: rec.AllF2PPassed, NoP2PFailed: rec.NoP2PFailed, Resolved: rec.Verdicts.PolyBench.Resolved,
			PassedTests: nonNil(rec.PassedTests), FailedTests: nonNil(rec.FailedTests)}
		b, _ := json.MarshalIndent(res, "", "    ")
		if err := harness.WriteFileAtomic(filepath.Join(out, "results", rec.InstanceID+"_result.json"), append(b, '\n')); err != nil {
			return err
		}
		logDir := filepath.Join(out, "logs", rec.InstanceID)
		if err := os.MkdirAll(logDir, 0o755); err != nil {
			return err
		}
		for src, dst := range map[string]string{harness.LogFile: "test_output.txt", harness.PatchFile: "patch.diff", harness.CommandFile: "command.sh"} {
			if b, err := os.ReadFile(filepath.Join(recDir, src)); err == nil {
				if err := harness.WriteFileAtomic(filepath.Join(logDir, dst), b); err != nil {
					return err
				}
			}
		}
	}
	if err := harness.WriteFileAtomic(filepath.Join(out, "predictions.jsonl"), preds.Bytes()); err != nil {
		return err
	}
	agg, _ := json.MarshalIndent(rep.PolyBench, "", "    ")
	if err := harness.WriteFileAtomic(filepath.Join(out, "results", "result.json"), append(agg, '\n')); err != nil {
		return err
	}
	x := &rep.Polynfi
	meta := map[string]any{
		"model_name_or_path": models[0], "run_id": x.RunID, "dataset": x.Dataset, "dataset_schema": x.DatasetSchema,
		"predictions": x.Predictions, "grading_mode": "polybench", "native_mode": x.NativeMode,
		"total_instances": rep.TotalInstances, "resolved_polybench": rep.PolyBench.TotalResolved,
		"resolved_native": x.Modes[x.NativeMode].Resolved, "resolved_native_ci95": x.Modes[x.NativeMode].CI,
		"not_evaluated": nonNil(notEvaluated), "no_prediction": nonNil(noPrediction), "interrupted": x.Interrupted,
		"created_at": time.Now().UTC().Format(time.RFC3339), "generator": bundleGenerator,
		"polynfi_version": polynfiVersion(), "evaluated_with": nonNil(x.EvaluatedWith),
	}
	mb, _ := json.MarshalIndent(meta, "", "  ")
	if err := harness.WriteFileAtomic(filepath.Join(out, "metadata.json"), append(mb, '\n')); err != nil {
		return err
	}
	var readme bytes.Buffer
	fmt.Fprintf(&readme, "# %s on %s\n\n", models[0], filepath.Base(x.Dataset))
	if x.Notice != "" {
		fmt.Fprintf(&readme, "**%s**\n\n", x.Notice)
	}
	for _, l := range report.HarnessHeadline(rep) {
		fmt.Fprintf(&readme, "- %s\n", l)
	}
	fmt.Fprintf(&readme, "\nFiles: predictions.jsonl, results/<instance_id>_result.json (SWE-PolyBench's per-instance result), results/result.json (aggregate), logs/<instance_id>/, metadata.json.\n")
	return harness.WriteFileAtomic(filepath.Join(out, "README.md"), readme.Bytes())
}
