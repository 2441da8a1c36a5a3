package harness

// `polynfi regrade` of a run directory (moved from internal/cli, #25 item
// 7c): every record's stored log graded again, the records rewritten with
// --apply, regrade.json and regrades/<time>.json written.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runrecord"
)

// RegradeOptions say how RegradeRunDir re-grades.
type RegradeOptions struct {
	// Dataset is the dataset to grade against ("": the one the run's
	// manifest names).
	Dataset string
	// Apply replaces the records' verdicts (keeping the old ones in
	// their regrade_history); AllowDifferent grades against a dataset
	// whose digest differs from the run's (else a usage error).
	Apply, AllowDifferent bool
	// Version is polynfi's, noted in every record and document.
	Version string
	// Log receives the warnings.
	Log io.Writer
	// NotEvaluated names the run's units without a record (the report's
	// account); Rewrite writes the run's reports again after an applied
	// regrade (legacy: the run has no manifest).
	NotEvaluated func() []string
	Rewrite      func(legacy bool) error
	// Out is the file the document is written to (atomically) instead of
	// dir/regrade.json; "" for dir/regrade.json. The snapshot under
	// dir/regrades/ is written either way.
	Out string
}

// RegradeResult is what a regrade did: each record's old and new
// verdicts, how many changed, the units not evaluated, and the document
// written to regrade.json.
type RegradeResult struct {
	Units        []RegradeUnit
	Changed      int
	NotEvaluated []string
	Doc          []byte
}

// RegradeUnit is one re-graded record: the verdicts stored and the ones the
// current parsers and modes give from the same log.
type RegradeUnit struct {
	Unit       string           `json:"unit"`
	Dir        string           `json:"record_dir"`
	OldParser  string           `json:"old_parser"`
	NewParser  string           `json:"new_parser"`
	Old        grading.Verdicts `json:"old_verdicts"`
	New        grading.Verdicts `json:"new_verdicts"`
	Changed    bool             `json:"changed"`
	NotRegrade string           `json:"not_regraded,omitempty"` // why the record was kept as it is
	// Earlier are the verdicts earlier `regrade --apply` calls replaced
	// (the record's regrade_history), oldest first.
	Earlier []runrecord.RegradeEntry `json:"earlier_verdicts,omitempty"`
}

// RegradeRunDir re-parses the test log stored with every record of dir
// (a run of repository-level instances) and grades it again against the
// dataset's lists (Regrade), without running any test; records that
// cannot be re-graded are kept as they are and say why. A dir not a run,
// a dataset not named, or one whose digest differs from the run's
// without o.AllowDifferent is a usage error. The document is written to
// dir/regrade.json and dir/regrades/<UTC time>[-applied].json, never
// through a link below dir.
func RegradeRunDir(dir string, o RegradeOptions) (*RegradeResult, error) {
	kind, _, err := runrecord.RunDirKind(dir)
	if err != nil || kind != runrecord.KindHarness {
		return nil, usagef("regrade: %s is not a polynfi run directory of repository-level instances", dir)
	}
	man, hasMan, err := runrecord.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	dsPath := o.Dataset
	if dsPath == "" {
		if !hasMan || man.Dataset == "" {
			return nil, usagef("regrade: %s does not name its dataset: give --dataset", dir)
		}
		dsPath = man.Dataset
		if !filepath.IsAbs(dsPath) {
			// A manifest of an older polynfi holds the path as given,
			// relative to the directory eval ran in.
			if _, err := os.Stat(dsPath); err != nil {
				return nil, fmt.Errorf("regrade: %s names its dataset as %s, relative to the directory it was evaluated in, and there is no such file from here: give --dataset", dir, dsPath)
			}
		}
	}
	note := runrecord.RegradeNote{Dataset: dsPath, DatasetSHA256: runrecord.DatasetDigest(dsPath)}
	if hasMan && man.DatasetSHA256 != "" && note.DatasetSHA256 != man.DatasetSHA256 {
		what := fmt.Sprintf("the dataset %s (sha256 %s) is not the one %s was evaluated with (%s, sha256 %s)",
			dsPath, shortSHA(note.DatasetSHA256), dir, man.Dataset, shortSHA(man.DatasetSHA256))
		if !o.AllowDifferent {
			return nil, usagef("regrade: %s: its test lists may differ from the run's; give --allow-different-dataset to re-grade against it anyway", what)
		}
		fmt.Fprintf(o.Log, "polynfi: warning: %s; re-grading against it (--allow-different-dataset)\n", what)
		note.PreviousDataset, note.PreviousDatasetSHA256 = man.Dataset, man.DatasetSHA256
	}
	ds, err := dataset.Load(dsPath)
	if err != nil {
		return nil, fmt.Errorf("load dataset: %w", err)
	}
	byID := map[string]dataset.Instance{}
	for _, x := range ds.Instances {
		byID[x.InstanceID] = x
	}
	var store *Store
	if o.Apply {
		if store, err = OpenStore(dir); err != nil {
			return nil, err
		}
		defer store.Close()
	}
	recs, err := runrecord.LoadRecords(dir)
	if err != nil {
		return nil, err
	}
	var units []RegradeUnit
	changed := 0
	now := time.Now().UTC()
	for _, rec := range recs {
		u := RegradeUnit{Unit: fmt.Sprintf("%s@%s#%d", rec.InstanceID, rec.Model, rec.Run), Dir: runrecord.RecordRelDir(rec.Key), Old: rec.Verdicts, New: rec.Verdicts,
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
		log, err := safepath.ReadFileIn(dir, u.Dir+"/"+runrecord.LogFile)
		if err != nil && rec.Test != nil {
			u.NotRegrade = err.Error()
			units = append(units, u)
			continue
		}
		v, out, fw, why := Regrade(inst, rec, log)
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
		if o.Apply && u.Changed {
			// The old verdicts stay in the record, beside the new.
			rec.RegradeHistory = append(rec.RegradeHistory, runrecord.RegradeEntry{At: now, Version: o.Version,
				Parser: u.OldParser, Resolved: rec.Resolved, Status: rec.Status, Verdicts: rec.Verdicts})
			u.Earlier = rec.RegradeHistory
			rec.Verdicts, rec.PolyBenchOutput = v, out
			native := v.Get(rec.NativeMode)
			rec.Resolved, rec.Status = native.Resolved, native.Status
			rec.Test.Parser = fw
			if err := saveRecordOnly(store, rec); err != nil {
				return nil, err
			}
		}
	}
	// Units of the run without a record (an interrupted run) have
	// no log: they are named, not silently left out.
	var notEvaluated []string
	if hasMan && o.NotEvaluated != nil {
		notEvaluated = o.NotEvaluated()
	}
	if o.Apply {
		note.At, note.Version, note.Changed = now, o.Version, changed
		if err := recordRegrade(dir, man, hasMan, note, o.Rewrite); err != nil {
			return nil, err
		}
	}
	doc := map[string]any{"regraded_at": now, "polynfi_version": o.Version, "dataset": dsPath, "dataset_sha256": note.DatasetSHA256,
		"applied": o.Apply, "changed": changed, "units": units, "not_evaluated": notEvaluated}
	if note.PreviousDataset != "" || note.PreviousDatasetSHA256 != "" {
		doc["run_dataset"], doc["run_dataset_sha256"] = note.PreviousDataset, note.PreviousDatasetSHA256
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	// regrade.json is the last regrade; every regrade is also kept
	// under regrades/, named by its time, never overwritten.
	// Written without following a link below the run directory
	// (a regrades/ that is one is refused, naming it).
	snapshot := "regrades/" + now.Format("20060102T150405.000000000Z") + map[bool]string{true: "-applied", false: ""}[o.Apply] + ".json"
	if err := atomicfile.WriteFileIn(dir, snapshot, append(b, '\n')); err != nil {
		return nil, err
	}
	if o.Out != "" {
		if err := atomicfile.Write(o.Out, append(b, '\n')); err != nil {
			return nil, err
		}
	} else if err := atomicfile.WriteFileIn(dir, "regrade.json", append(b, '\n')); err != nil {
		return nil, err
	}
	return &RegradeResult{Units: units, Changed: changed, NotEvaluated: notEvaluated, Doc: append(b, '\n')}, nil
}

// recordRegrade notes an applied regrade in dir's manifest (the dataset
// it graded against becomes the run's when it differs) and writes the
// run's report.json and report.html again from its records (rewrite),
// as eval writes them.
func recordRegrade(dir string, man *runrecord.Manifest, hasMan bool, note runrecord.RegradeNote, rewrite func(legacy bool) error) error {
	if hasMan {
		man.Regrades = append(man.Regrades, note)
		if note.PreviousDataset != "" || note.PreviousDatasetSHA256 != "" {
			man.Dataset, man.DatasetSHA256 = runrecord.ManifestPath(note.Dataset), note.DatasetSHA256
		}
		if err := man.Write(dir); err != nil {
			return err
		}
	}
	if rewrite == nil {
		return nil
	}
	return rewrite(!hasMan)
}

// shortSHA is a digest's first 12 hex digits ("unknown" when "").
func shortSHA(d string) string {
	if d == "" {
		return "unknown"
	}
	return d[:min(12, len(d))]
}

// saveRecordOnly rewrites a record's result.json, keeping its artifacts.
func saveRecordOnly(s *Store, rec *runrecord.Record) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFileIn(s.Dir, runrecord.RecordRelDir(rec.Key)+"/"+runrecord.ResultFile, append(b, '\n'))
}

// verdictsDiffer says whether any mode's resolved flag or status differs.
func verdictsDiffer(a, b grading.Verdicts) bool {
	for _, m := range append(grading.ModesFor(grading.ModeMultiSWEBench), grading.ModeSWEBenchPro) {
		x, y := a.Get(m), b.Get(m)
		if x.Resolved != y.Resolved || x.Status != y.Status {
			return true
		}
	}
	return false
}
