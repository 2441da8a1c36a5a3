// Package bundle writes a harness run's leaderboard submission bundle in
// the layouts SWE-PolyBench's and SWE-bench's leaderboards publish
// (report --bundle): the report it serializes is package report's.
package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
)

// The submission layout, as published by the two leaderboards. A
// submission is one directory, evaluation/<split>/<date>_<name>/ in the
// leaderboard's repository:
//
//   - SWE-PolyBench, branch "submission", README.md ("SWE-PolyBench
//     Submission"): all_preds.jsonl (model predictions); logs/ with one
//     <instance_id>_result.json per instance (the file its evaluation
//     writes; published submissions also carry its
//     <instance_id>_metrics.json); metadata.yaml with name, oss, site and
//     pass_rate ("XX.XX% (123/500)"); trajs/ with one reasoning trace per
//     instance whose file name holds the instance id; README.md.
//     Shapes read from evaluation/PB/20260201_iswe_agent/ and
//     evaluation/PBVerified/20251208_atlassian-rovo-dev/ of that branch,
//     and src/poly_bench_evaluation/polybench_data.py (PolyBenchOutput,
//     PolyBenchRetrievalMetrics).
//   - SWE-bench, repository SWE-bench/experiments (README.md,
//     checklist.md): all_preds.jsonl, metadata.yaml, README.md,
//     logs/<instance_id>/ with the harness's per-instance files (eval.sh,
//     patch.diff, report.json, test_output.txt, run_instance.log), trajs/;
//     results/results.json, which the repository's
//     analysis/get_results.py writes from logs/ (no_generation: no
//     logs/<id>/ or no patch.diff in it; no_logs: no test_output.txt;
//     resolved: get_eval_report of test_output.txt; each sorted,
//     json.dump(indent=2)). Per instance, swebench/harness/run_evaluation.py
//     run_instance writes run_instance.log (its logger), patch.diff,
//     eval.sh, test_output.txt (once the eval script ran) and report.json
//     (once the output was graded: none when the patch did not apply or
//     the tests timed out), and runs no empty prediction (no directory).
//     report.json's shape: swebench/harness/grading.py get_eval_report.
const (
	bundlePredsFile  = "all_preds.jsonl"
	bundleMetaYAML   = "metadata.yaml"
	bundleReadme     = "README.md"
	bundleLogsDir    = "logs"
	bundleResultsDir = "results" // SWE-bench-schema runs: results/results.json
	bundleTrajsDir   = "trajs"
	bundleExtrasDir  = "polynfi"       // polynfi's own files, apart from the published ones
	bundleExtrasMeta = "metadata.json" // in bundleExtrasDir
)

// bundleGenerator is the "generator" a bundle's polynfi/metadata.json
// carries; it marks a directory as one --bundle may replace.
const bundleGenerator = "polynfi report --bundle"

// polyBenchResult is SWE-PolyBench's per-instance result file,
// <instance_id>_result.json: its PolyBenchOutput dataclass written with
// json.dump(asdict(...), indent=4), fields in declaration order.
// Source: SWE-PolyBench polybench_data.py PolyBenchOutput; e.g.
// evaluation/PB/20260201_iswe_agent/logs/apache__dubbo-10846_result.json.
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

// polyBenchMetrics is SWE-PolyBench's per-instance retrieval file,
// <instance_id>_metrics.json (PolyBenchRetrievalMetrics): file-level
// recall, precision and F1 in [0, 1]; node-level the same or null when the
// instance is out of node means (node metrics off, no reference nodes, or
// the reference failed); the reference and predicted node keys.
// Source: polybench_data.py PolyBenchRetrievalMetrics; e.g.
// evaluation/PB/20260201_iswe_agent/logs/apache__dubbo-10846_metrics.json.
type polyBenchMetrics struct {
	InstanceID     string           `json:"instance_id"`
	File           polyBenchScores  `json:"file_retrieval_metrics"`
	Node           *polyBenchScores `json:"node_retrieval_metrics"`
	ReferenceNodes []string         `json:"reference_nodes"`
	PredictedNodes []string         `json:"predicted_nodes"`
}

// polyBenchScores is one level's scores in the order SWE-PolyBench writes
// them.
type polyBenchScores struct {
	Recall    pyFloat `json:"recall"`
	Precision pyFloat `json:"precision"`
	F1        pyFloat `json:"f1"`
}

func newPolyBenchScores(s retrieval.Scores) polyBenchScores {
	return polyBenchScores{pyFloat(s.Recall), pyFloat(s.Precision), pyFloat(s.F1)}
}

// pyFloat is a float64 written as Python's json module writes a float: an
// integral value keeps ".0" (1.0, not 1), others the shortest repr.
type pyFloat float64

func (f pyFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("pyFloat: %v is not JSON", v)
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e16 {
		return []byte(strconv.FormatFloat(v, 'f', 1, 64)), nil
	}
	return []byte(strconv.FormatFloat(v, 'g', -1, 64)), nil
}

// sweBenchReport is SWE-bench's per-instance report.json: one key, the
// instance id, holding whether the patch was given and applied, whether
// it resolved the instance (SWE-bench's rules), and, once it applied, the
// tests of each list that succeeded and failed (FAIL_TO_FAIL and
// PASS_TO_FAIL stay empty: the harness fills them only on request).
// Source: swebench/harness/grading.py get_eval_report and
// get_eval_tests_report; written by run_evaluation.py with indent=4.
type sweBenchReport struct {
	PatchIsNone  bool                `json:"patch_is_None"`
	PatchExists  bool                `json:"patch_exists"`
	PatchApplied bool                `json:"patch_successfully_applied"`
	Resolved     bool                `json:"resolved"`
	TestsStatus  *sweBenchTestStatus `json:"tests_status,omitempty"`
}

type sweBenchTestStatus struct {
	FailToPass grading.TestsStatus `json:"FAIL_TO_PASS"`
	PassToPass grading.TestsStatus `json:"PASS_TO_PASS"`
	FailToFail grading.TestsStatus `json:"FAIL_TO_FAIL"`
	PassToFail grading.TestsStatus `json:"PASS_TO_FAIL"`
}

// pyJSON writes v as Python's json.dump(v, indent=4) lays it out: four
// spaces, "<>&" unescaped, non-ASCII as \uXXXX (ensure_ascii), no final
// newline.
func pyJSON(v any) ([]byte, error) {
	return pyJSONIndent(v, 4)
}

// pyJSONIndent is pyJSON with indent spaces per level (json.dump(v,
// indent=n)).
func pyJSONIndent(v any, indent int) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", strings.Repeat(" ", indent))
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return asciiJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// asciiJSON escapes every non-ASCII character of encoded JSON as Python's
// ensure_ascii does: \uXXXX, lowercase hex, a UTF-16 surrogate pair above
// U+FFFF. Non-ASCII bytes only occur inside strings, so the value is
// unchanged.
func asciiJSON(b []byte) []byte {
	if !slices.ContainsFunc(b, func(c byte) bool { return c >= utf8.RuneSelf }) {
		return b
	}
	var o bytes.Buffer
	for _, r := range string(b) {
		switch {
		case r < utf8.RuneSelf:
			o.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&o, "\\u%04x\\u%04x", r1, r2)
		default:
			fmt.Fprintf(&o, "\\u%04x", r)
		}
	}
	return o.Bytes()
}

// Options tune Write.
type Options struct {
	// AllowIncomplete bundles a run in which some units were not
	// evaluated (interrupted, unreadable records); the README and
	// metadata then say so. Without it such a run is refused.
	AllowIncomplete bool
	// Trajs is the directory `polynfi run` wrote (OUT with runs/ and
	// predictions.jsonl) whose trajectories go into trajs/; "" looks
	// beside the run's predictions file and in RUN/agent-runs.
	Trajs string
	// Meta is what the submitter says of the system (--bundle-* flags),
	// written into metadata.yaml; checked (bundleMeta.check) before.
	Meta Meta
	// Version is the polynfi version that writes the bundle (README.md,
	// polynfi/metadata.json).
	Version string
	// TrajectoryDir returns where `polynfi run` (writing to root) kept the
	// trajectory files of an agent run; nil bundles no trajectories.
	TrajectoryDir func(root, model, instanceID string, run int) string
}

// Write writes a leaderboard submission bundle of a harness run of
// one model and one run into out, in the layout both leaderboards publish
// (see the constants above):
//
//	all_preds.jsonl                    instance_id, model_name_or_path, model_patch (as applied), one per evaluated instance
//	metadata.yaml                      name, oss, site, pass_rate (SWE-PolyBench's leaderboard fields)
//	README.md                          what produced the bundle (polynfi version, grading), headline, what to fill in
//	logs/<instance_id>_result.json     SWE-PolyBench's per-instance result (polyBenchResult)
//	logs/<instance_id>_metrics.json    SWE-PolyBench's per-instance retrieval (when the run computed it)
//	logs/<instance_id>/                patch.diff, test_output.txt, eval.sh and SWE-bench's report.json
//	trajs/<instance_id>.<file>         the agent's trajectory files, when the run's predictions came from `polynfi run`
//	polynfi/metadata.json              polynfi's extras: run, dataset, modes, intervals, not-evaluated and missing instances
//	polynfi/result.json                SWE-PolyBench's aggregate result.json of the run, its totals over pass_rate's denominator (polynfi_* fields name the unread dataset rows)
//
// pass_rate is resolved/total under SWE-PolyBench's grading, total being
// the model's instances (those without a prediction count unresolved, as
// SWE-PolyBench counts them; not-evaluated ones are in no total), and
// each dataset row that could not be read or cannot run, unresolved, as
// the report counts it. polynfi/result.json's total_instances and
// total_unresolved and polynfi/metadata.json's total_instances use that
// same denominator; both name the unread rows and give the number of
// instances read beside it.
//
// A run with units that were not evaluated (interrupted, or a record that
// cannot be read) is refused with an error naming how many, unless
// opts.AllowIncomplete: then README.md, metadata.yaml (a comment) and
// polynfi/metadata.json say the bundle is incomplete. Instances without a
// prediction get no files (SWE-PolyBench writes none either) and are
// listed in polynfi/metadata.json.
//
// out is written afresh: the bundle is built in a new directory beside it
// and renamed into place, so that no file of an earlier bundle of another
// run survives. out must be absent, an empty directory, or an earlier
// polynfi bundle; anything else is refused, untouched.
func Write(runDir, out string, rep *report.Harness, opts Options) error {
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
	if err := buildBundle(runDir, tmp, out, rep, opts); err != nil {
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

// checkBundleDir refuses a bundle destination that exists and is neither
// an empty directory nor an earlier polynfi bundle (polynfi/metadata.json,
// or metadata.json for bundles of earlier versions, naming bundleGenerator).
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
	for _, p := range []string{filepath.Join(out, bundleExtrasDir, bundleExtrasMeta), filepath.Join(out, "metadata.json")} {
		b, err := os.ReadFile(p)
		var meta struct {
			Generator string `json:"generator"`
		}
		if err == nil && json.Unmarshal(b, &meta) == nil && meta.Generator == bundleGenerator {
			return nil
		}
	}
	return usagef("--bundle %s: the directory is not empty and is not a polynfi bundle (no %s/%s from %s): refusing to replace it; give a new directory", out, bundleExtrasDir, bundleExtrasMeta, bundleGenerator)
}

// bundleUnit is one instance of the bundle: its record and its files in
// the run directory (runDir/relDir, relDir slash separated).
type bundleUnit struct {
	rec            *runrecord.Record
	runDir, relDir string
}

// buildBundle writes the bundle's files into the new directory out, to be
// renamed to dest (the --bundle directory its errors name).
func buildBundle(runDir, out, dest string, rep *report.Harness, opts Options) error {
	models := report.HarnessModels(rep)
	if len(models) != 1 {
		return usagef("--bundle: the run holds %d models (%v): a submission bundle is of one model", len(models), models)
	}
	model := models[0]
	x := &rep.Polynfi
	if err := opts.Meta.checkSchema(x.DatasetSchema); err != nil {
		return err
	}
	// Unreadable records are units not evaluated (the report says which).
	recs, _, err := runrecord.ReadRecords(runDir)
	if err != nil {
		return err
	}
	byUnit := map[string]*runrecord.Record{}
	runs := map[int]bool{}
	for _, r := range recs {
		if r.Model == model {
			byUnit[r.InstanceID] = r
			runs[r.Run] = true
		}
	}
	if len(runs) > 1 {
		return usagef("--bundle: the run holds %d repeated runs of %s: a submission bundle is of one run", len(runs), model)
	}
	var units []bundleUnit
	var notEvaluated, noPrediction []string
	sorted := append([]report.UnitResult(nil), rep.Polynfi.UnitResults...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].InstanceID < sorted[j].InstanceID })
	for _, u := range sorted {
		switch u.Outcome {
		case "missing":
			noPrediction = append(noPrediction, u.InstanceID)
			continue
		case "incomplete":
			notEvaluated = append(notEvaluated, u.InstanceID)
			continue
		}
		rec := byUnit[u.InstanceID]
		if rec == nil || u.Dir == "" {
			notEvaluated = append(notEvaluated, u.InstanceID)
			continue
		}
		units = append(units, bundleUnit{rec, runDir, u.Dir})
	}
	incomplete := len(notEvaluated) > 0 || x.Interrupted
	if incomplete && !opts.AllowIncomplete {
		why := "the run was interrupted"
		if !x.Interrupted {
			why = "their records are missing or unreadable"
		}
		return fmt.Errorf("--bundle: %s is incomplete: %d of %d instances of %s are not evaluated (%s; first: %s): re-run the same polynfi eval to finish it, or give --allow-incomplete to bundle the %d evaluated (the bundle then says it is incomplete); nothing written to %s",
			runDir, len(notEvaluated), len(sorted), model, why, strings.Join(firstN(notEvaluated, 3), ", "), len(units), dest)
	}
	for _, d := range []string{filepath.Join(out, bundleLogsDir), filepath.Join(out, bundleExtrasDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	trajRoot := findTrajectories(runDir, x.Predictions, opts.Trajs)
	var preds bytes.Buffer
	var withTrajs []string
	for _, u := range units {
		if err := writeBundleUnit(out, u, &preds, x.EvaluatedWith); err != nil {
			return err
		}
		if trajRoot != "" {
			n, err := copyTrajectory(trajRoot, out, u.rec, opts.TrajectoryDir)
			if err != nil {
				return err
			}
			if n > 0 {
				withTrajs = append(withTrajs, u.rec.InstanceID)
			}
		}
	}
	if err := atomicfile.Write(filepath.Join(out, bundlePredsFile), preds.Bytes()); err != nil {
		return err
	}
	if x.DatasetSchema == dataset.SchemaSWEBench {
		ids := make([]string, len(sorted))
		for i, u := range sorted {
			ids[i] = u.InstanceID
		}
		if err := writeSWEBenchResults(out, ids); err != nil {
			return err
		}
	}
	// One denominator throughout: the dataset rows that could not be read
	// or cannot run count unresolved in pass_rate (the report's), so they
	// do in result.json's totals too, and are named there.
	unread := x.UnreadableRows + x.NotRunnable
	aggOut := struct {
		report.PolyBenchAggregate
		TotalReadInstances int                    `json:"polynfi_total_read_instances"`
		TotalUnreadRows    int                    `json:"polynfi_total_unread_rows"`
		UnreadRows         []runrecord.DatasetRow `json:"polynfi_unread_rows"`
		Note               string                 `json:"polynfi_note,omitempty"`
	}{PolyBenchAggregate: rep.PolyBench, TotalReadInstances: rep.PolyBench.TotalInstances, TotalUnreadRows: unread,
		UnreadRows: append([]runrecord.DatasetRow{}, x.UnreadRows...)}
	if unread > 0 {
		aggOut.TotalInstances += unread
		aggOut.TotalUnresolved += unread
		aggOut.Note = fmt.Sprintf("total_instances (%d) and total_unresolved (%d) count the %d dataset rows that could not be read or cannot run (polynfi_unread_rows) as unresolved, as pass_rate does; resolved and not_resolved list the %d instances read (polynfi_total_read_instances)",
			aggOut.TotalInstances, aggOut.TotalUnresolved, unread, aggOut.TotalReadInstances)
	}
	agg, err := pyJSON(aggOut)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(out, bundleExtrasDir, "result.json"), agg); err != nil {
		return err
	}
	pb := x.Modes[grading.ModePolyBench]
	if pb == nil {
		pb = &report.ModeSummary{}
	}
	passRate := fmt.Sprintf("%.2f%% (%d/%d)", 100*pb.Rate, pb.Resolved, pb.Total)
	created := time.Now().UTC().Format(time.RFC3339)
	meta := map[string]any{
		"model_name_or_path": model, "run_id": x.RunID, "dataset": x.Dataset, "dataset_schema": x.DatasetSchema,
		"predictions": x.Predictions, "grading_mode": "polybench", "native_mode": x.NativeMode,
		"total_instances": pb.Total, "total_read_instances": pb.Total - unread, "total_unread_rows": unread, "unread_rows": append([]runrecord.DatasetRow{}, x.UnreadRows...),
		"resolved_polybench": pb.Resolved, "total_polybench": pb.Total,
		"pass_rate": passRate, "resolved_native": x.Modes[x.NativeMode].Resolved, "resolved_native_ci95": x.Modes[x.NativeMode].CI,
		"bundled_instances": len(units), "not_evaluated": nonNil(notEvaluated), "no_prediction": nonNil(noPrediction),
		"interrupted": x.Interrupted, "incomplete": incomplete, "trajectories_from": trajRoot, "trajectories": nonNil(withTrajs),
		"created_at": created, "generator": bundleGenerator,
		"polynfi_version": opts.Version, "evaluated_with": nonNil(x.EvaluatedWith),
	}
	mb, _ := json.MarshalIndent(meta, "", "  ")
	if err := atomicfile.Write(filepath.Join(out, bundleExtrasDir, bundleExtrasMeta), append(mb, '\n')); err != nil {
		return err
	}
	// metadata.yaml: the leaderboard's fields only, in the shape of the
	// leaderboard of the run's dataset (bundleMeta.metadataYAML).
	head := ""
	if incomplete {
		head = fmt.Sprintf("INCOMPLETE: %d of %d instances not evaluated; pass_rate is over the %d evaluated or without a prediction.", len(notEvaluated), len(sorted), pb.Total)
	}
	y, err := opts.Meta.metadataYAML(x.DatasetSchema, model, passRate, head)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(out, bundleMetaYAML), y); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(out, bundleReadme), bundleReadmeText(rep, opts.Version, model, passRate, created, len(units), notEvaluated, noPrediction, withTrajs, incomplete, opts.Meta.missing(x.DatasetSchema)))
}

// writeBundleUnit writes one instance's files and its all_preds.jsonl
// line; versions are the polynfi versions that wrote the run's records.
// logs/<instance_id>/ is laid out as SWE-bench's run_instance leaves it
// (see the constants above): none for an empty prediction (not run);
// patch.diff and run_instance.log (polynfi's own log of the evaluation,
// runInstanceLog); eval.sh and test_output.txt once the tests ran; and
// report.json once their output was graded (the tests ran to the end).
func writeBundleUnit(out string, u bundleUnit, preds *bytes.Buffer, versions []string) error {
	rec := u.rec
	// Ids name files: one that could leave the bundle (a hand-edited run)
	// is refused.
	if id := rec.InstanceID; id == "" || id == "." || id == ".." || strings.ContainsAny(id, "/\\\x00") {
		return fmt.Errorf("--bundle: %s: instance id %q cannot name a file", filepath.Join(u.runDir, filepath.FromSlash(u.relDir)), id)
	}
	// A record's files are read without following links: a run directory
	// is not trusted, and a bundle is published.
	read := func(name string) ([]byte, error) {
		b, err := safepath.ReadFileIn(u.runDir, u.relDir+"/"+name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return b, err
	}
	patch, err := read(runrecord.PatchFile)
	if err != nil {
		return err
	}
	// all_preds.jsonl: SWE-bench's prediction keys in its order.
	line, err := pyJSONLine(struct {
		InstanceID string `json:"instance_id"`
		Model      string `json:"model_name_or_path"`
		Patch      string `json:"model_patch"`
	}{rec.InstanceID, rec.Model, string(patch)})
	if err != nil {
		return err
	}
	preds.Write(append(line, '\n'))
	logs := filepath.Join(out, bundleLogsDir)
	res := polyBenchResult{InstanceID: rec.InstanceID, PatchApplied: rec.PatchApplied, Generation: rec.Generation,
		WithLogs: rec.WithLogs, AllF2PPassed: rec.AllF2PPassed, NoP2PFailed: rec.NoP2PFailed, Resolved: rec.Verdicts.PolyBench.Resolved,
		PassedTests: nonNil(rec.PassedTests), FailedTests: nonNil(rec.FailedTests)}
	b, err := pyJSON(res)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(logs, rec.InstanceID+"_result.json"), b); err != nil {
		return err
	}
	if m := rec.Retrieval; m != nil {
		pm := polyBenchMetrics{InstanceID: rec.InstanceID, File: newPolyBenchScores(m.File),
			ReferenceNodes: nonNil(m.ReferenceNodes), PredictedNodes: nonNil(m.PredictedNodes)}
		if m.Node != nil {
			s := newPolyBenchScores(*m.Node)
			pm.Node = &s
		}
		b, err := pyJSON(pm)
		if err != nil {
			return err
		}
		if err := atomicfile.Write(filepath.Join(logs, rec.InstanceID+"_metrics.json"), b); err != nil {
			return err
		}
	}
	// SWE-bench does not run an empty prediction: no directory, which
	// its get_results.py counts under no_generation.
	if strings.TrimSpace(string(patch)) == "" {
		return nil
	}
	dir := filepath.Join(logs, rec.InstanceID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, "patch.diff"), patch); err != nil {
		return err
	}
	// The test log and the script exist once the tests ran (a record
	// whose tests never ran keeps them empty).
	testLog, err := read(runrecord.LogFile)
	if err != nil {
		return err
	}
	script, err := read(runrecord.CommandFile)
	if err != nil {
		return err
	}
	ran := rec.Test != nil && len(testLog) > 0
	if len(script) > 0 && rec.Test != nil {
		if err := atomicfile.Write(filepath.Join(dir, "eval.sh"), script); err != nil {
			return err
		}
	}
	if ran {
		if err := atomicfile.Write(filepath.Join(dir, "test_output.txt"), testLog); err != nil {
			return err
		}
	}
	if err := atomicfile.Write(filepath.Join(dir, runInstanceLogFile), runInstanceLog(rec, versions, ran)); err != nil {
		return err
	}
	// report.json: written by SWE-bench once the output was graded, so
	// not when the patch did not apply or the tests timed out.
	if !ran || rec.Test.TimedOut {
		return nil
	}
	v := rec.Verdicts.SWEBench
	r := sweBenchReport{PatchExists: true, PatchApplied: rec.PatchApplied, Resolved: v.Resolved}
	if rec.PatchApplied {
		r.TestsStatus = &sweBenchTestStatus{FailToPass: testsStatus(v.FailToPass), PassToPass: testsStatus(v.PassToPass),
			FailToFail: testsStatus(grading.TestsStatus{}), PassToFail: testsStatus(grading.TestsStatus{})}
	}
	b, err = pyJSON(map[string]sweBenchReport{rec.InstanceID: r})
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "report.json"), b)
}

// sweBenchResults is SWE-bench experiments' results/results.json: the
// instances without a generation (no logs/<id>/ directory or no
// patch.diff in it), without logs (no test_output.txt) and resolved, each
// sorted. Source: SWE-bench/experiments analysis/get_results.py.
type sweBenchResults struct {
	NoGeneration []string `json:"no_generation"`
	NoLogs       []string `json:"no_logs"`
	Resolved     []string `json:"resolved"`
}

// writeSWEBenchResults writes out/results/results.json for the instances
// ids (every instance of the run's dataset for the bundled model, with or
// without a prediction, evaluated or not) as get_results.py computes it
// from the bundle's logs/: the lists follow from the files written
// (writeBundleUnit), and resolved is an instance whose report.json says
// so (SWE-bench's grading of its test_output.txt, which get_results.py
// repeats). Laid out as json.dump(indent=2).
func writeSWEBenchResults(out string, ids []string) error {
	r := sweBenchResults{NoGeneration: []string{}, NoLogs: []string{}, Resolved: []string{}}
	for _, id := range ids {
		dir := filepath.Join(out, bundleLogsDir, id)
		switch {
		case !exists(filepath.Join(dir, "patch.diff")):
			r.NoGeneration = append(r.NoGeneration, id)
		case !exists(filepath.Join(dir, "test_output.txt")):
			r.NoLogs = append(r.NoLogs, id)
		default:
			b, err := os.ReadFile(filepath.Join(dir, "report.json"))
			var rep map[string]sweBenchReport
			if err == nil && json.Unmarshal(b, &rep) == nil && rep[id].Resolved {
				r.Resolved = append(r.Resolved, id)
			}
		}
	}
	for _, l := range [][]string{r.NoGeneration, r.NoLogs, r.Resolved} {
		sort.Strings(l)
	}
	b, err := pyJSONIndent(r, 2)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, bundleResultsDir), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(out, bundleResultsDir, "results.json"), b)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func testsStatus(s grading.TestsStatus) grading.TestsStatus {
	return grading.TestsStatus{Success: nonNil(s.Success), Failure: nonNil(s.Failure)}
}

// pyJSONLine is v as one line of JSON, as json.dumps(v) writes it (", "
// and ": " separators; "<>&" unescaped; non-ASCII as \uXXXX).
func pyJSONLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	// Re-space the compact encoding: only separators outside strings.
	var o bytes.Buffer
	inStr, esc := false, false
	for _, c := range bytes.TrimSuffix(b.Bytes(), []byte("\n")) {
		o.WriteByte(c)
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && (c == ',' || c == ':'):
			o.WriteByte(' ')
		}
	}
	return asciiJSON(o.Bytes()), nil
}

// yamlString quotes s as a YAML double-quoted scalar (JSON's string
// syntax is one).
func yamlString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(append([]string(nil), s[:n]...), "...")
	}
	return s
}

// findTrajectories returns the directory `polynfi run` wrote the run's
// predictions into (it holds runs/<agent>/<instance>/run-<k>/trajectory/),
// or "": explicit when given, else RUN/agent-runs (polynfi eval --agent),
// else the directory of each predictions file the run was given.
func findTrajectories(runDir, predictions, explicit string) string {
	var cands []string
	if explicit != "" {
		cands = []string{explicit}
	} else {
		cands = append(cands, filepath.Join(runDir, "agent-runs"))
		for _, p := range strings.Split(predictions, ",") {
			if p != "" && p != "gold" {
				cands = append(cands, filepath.Dir(p))
			}
		}
	}
	for _, c := range cands {
		if st, err := os.Stat(filepath.Join(c, "runs")); err == nil && st.IsDir() {
			return c
		}
	}
	return ""
}

// copyTrajectory copies the trajectory files `polynfi run` kept for rec's
// run into out/trajs/, each named <instance_id>.<its path with "/" as
// "__"> so that the instance id is in every trace file's name, as
// SWE-PolyBench asks. It returns how many files it copied.
func copyTrajectory(root, out string, rec *runrecord.Record, trajDir func(root, model, instanceID string, run int) string) (int, error) {
	if trajDir == nil {
		return 0, nil
	}
	src := trajDir(root, rec.Model, rec.InstanceID, rec.Run)
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		return 0, nil
	}
	n := 0
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		// Read without following a link anywhere below the runs' directory.
		fromRoot, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		b, err := safepath.ReadFileIn(root, fromRoot)
		if err != nil {
			return err
		}
		dst := filepath.Join(out, bundleTrajsDir, rec.InstanceID+"."+strings.ReplaceAll(filepath.ToSlash(rel), "/", "__"))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		n++
		return atomicfile.Write(dst, b)
	})
	return n, err
}

// bundleReadmeText is the bundle's README.md: what produced it, whether it
// is complete, the headline, the files and what the submitter fills in.
func bundleReadmeText(rep *report.Harness, version, model, passRate, created string, bundled int, notEvaluated, noPrediction, withTrajs []string, incomplete bool, unsetMeta []string) []byte {
	x := &rep.Polynfi
	var b bytes.Buffer
	md := textesc.Markdown
	mdList := func(ids []string) string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = md(id)
		}
		return strings.Join(out, ", ")
	}
	fmt.Fprintf(&b, "# %s on %s\n\n", md(model), md(filepath.Base(x.Dataset)))
	if incomplete {
		fmt.Fprintf(&b, "**INCOMPLETE: %d instances were not evaluated", len(notEvaluated))
		if x.Interrupted {
			b.WriteString(" (the run was interrupted)")
		}
		fmt.Fprintf(&b, "; bundled with --allow-incomplete. They have no files here and are in no pass rate: %s.**\n\n", mdList(notEvaluated))
	}
	fmt.Fprintf(&b, "Produced by polynfi %s (`%s`) on %s from run %s (dataset %s, %s schema; predictions %s).\n",
		version, bundleGenerator, created, md(x.RunID), md(x.Dataset), x.DatasetSchema, md(x.Predictions))
	if len(x.EvaluatedWith) > 0 {
		fmt.Fprintf(&b, "The run's records were written by polynfi %s.\n", strings.Join(x.EvaluatedWith, ", "))
	}
	b.WriteString("\nGrading: polynfi's own harness, not the leaderboards' official ones. ")
	b.WriteString("`logs/<instance_id>_result.json` and the pass rate follow SWE-PolyBench's rules (polybench mode: all FAIL_TO_PASS pass, no PASS_TO_PASS fails); ")
	b.WriteString("`logs/<instance_id>/report.json` follows SWE-bench's (swebench mode). ")
	fmt.Fprintf(&b, "The dataset's native mode is %s.\n\n", x.NativeMode)
	fmt.Fprintf(&b, "Pass rate (SWE-PolyBench): %s.\n\n", passRate)
	for _, l := range report.HarnessHeadline(rep) {
		if strings.HasPrefix(l, "  ") {
			b.WriteString("  ")
		}
		fmt.Fprintf(&b, "- %s\n", md(strings.TrimSpace(l)))
	}
	fmt.Fprintf(&b, "\n## Files\n\n")
	fmt.Fprintf(&b, "- `all_preds.jsonl`: %d predictions (instance_id, model_name_or_path, model_patch as applied)\n", bundled)
	if x.DatasetSchema == dataset.SchemaSWEBench {
		b.WriteString("- `metadata.yaml`: the leaderboard entry in SWE-bench's shape (info: name, site, report, authors, logo; tags: checked, model, org, os_model, os_system, system.attempts)\n")
	} else {
		b.WriteString("- `metadata.yaml`: the leaderboard entry (name, oss, site, pass_rate, and logo, authors when given)\n")
	}
	b.WriteString("- `logs/<instance_id>_result.json` (and `_metrics.json` when retrieval metrics were computed): SWE-PolyBench's per-instance files\n")
	b.WriteString("- `logs/<instance_id>/`: `test_output.txt`, `patch.diff`, `eval.sh` (the exact test script) and SWE-bench's `report.json`\n")
	if len(withTrajs) > 0 {
		fmt.Fprintf(&b, "- `trajs/`: the agent's trajectory files of %d instances, named `<instance_id>.<file>`\n", len(withTrajs))
	} else {
		b.WriteString("- no `trajs/`: the run's predictions did not come from `polynfi run` (give `--trajs DIR` if they did); add one reasoning trace per instance before submitting an agent\n")
	}
	b.WriteString("- `polynfi/`: polynfi's extras, not part of the leaderboards' layout (`metadata.json`: run, counts, intervals, not-evaluated and missing instances; `result.json`: SWE-PolyBench's aggregate)\n")
	if len(noPrediction) > 0 {
		fmt.Fprintf(&b, "\n%d instances had no prediction and have no files (unresolved in the pass rate): %s.\n", len(noPrediction), mdList(noPrediction))
	}
	b.WriteString("\n## Before submitting\n\n")
	if len(unsetMeta) > 0 {
		fmt.Fprintf(&b, "Fill in %s in `metadata.yaml` (or give them to `polynfi report --bundle` with the `--bundle-*` flags). ", strings.Join(unsetMeta, ", "))
	}
	b.WriteString("Describe the system in this README, ")
	b.WriteString("and put the directory (without `polynfi/` if unwanted) under `evaluation/<split>/<date>_<name>/` of the leaderboard's repository.\n")
	return b.Bytes()
}
