package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/nfirecord"
	"github.com/polynfi/polynfi/runrecord"
)

// CompareInput names the two run directories polynfi compare pairs.
type CompareInput struct {
	DirA, DirB     string // run directories (eval --out), possibly the same
	ModelA, ModelB string // the agent of each side; "" when its run holds one
	// AllowDifferentDatasets pairs only the instances both runs have
	// when their datasets differ, instead of failing.
	AllowDifferentDatasets bool
	Version                string // polynfi's version, for legacy run reports
}

// CompareUsageError is an error in what compare was asked (runs of
// different kinds or datasets, a missing or unknown --model-a/--model-b):
// IsUsage reports true (the command line's exit code 2).
type CompareUsageError struct{ err error }

func (e CompareUsageError) Error() string { return e.err.Error() }
func (e CompareUsageError) Unwrap() error { return e.err }

// IsUsage reports true: the error is in what was asked.
func (e CompareUsageError) IsUsage() bool { return true }

func compareUsagef(format string, args ...any) error {
	return CompareUsageError{fmt.Errorf(format, args...)}
}

// CompareRuns loads the runs of in (two harness runs or two SWE-NFI suite
// runs), picks each side's agent, checks that they were evaluated on the
// same dataset and pairs their units with Compare. warn receives each
// notice for the user (a record not read; the different-datasets warning,
// which the Comparison also carries). Errors: a CompareUsageError for what
// was asked wrong, else the error reading a run, or one saying no unit
// pairs.
func CompareRuns(in CompareInput, warn func(string)) (*Comparison, error) {
	dirA, dirB := in.DirA, in.DirB
	dirs := []string{dirA, dirB}
	ka, _, err := runrecord.RunDirKind(dirA)
	if err != nil {
		return nil, compareUsagef("%s (RUN_A): %v", dirA, pathlessErr(dirA, err))
	}
	kb, _, err := runrecord.RunDirKind(dirB)
	if err != nil {
		return nil, compareUsagef("%s (RUN_B): %v", dirB, pathlessErr(dirB, err))
	}
	for i, k := range []string{ka, kb} {
		if k == runrecord.KindMetricsOnly {
			return nil, compareUsagef("compare: %s is a --metrics-only run (retrieval metrics only, no test verdicts): compare needs two full eval runs (resolved verdicts to pair)", dirs[i])
		}
		if k != runrecord.KindHarness && k != runrecord.KindNFISuite {
			return nil, compareUsagef("compare: %s is not a polynfi run directory with records (no %s of an eval run)", dirs[i], runrecord.ManifestFile)
		}
	}
	if ka != kb {
		return nil, compareUsagef("compare: %s is a %s run and %s a %s run", dirA, ka, dirB, kb)
	}
	var ua, ub []CompareUnit
	var la, lb string
	var interrupted [2]bool
	if ka == runrecord.KindNFISuite {
		ra, err := nfirecord.LoadRecords(dirA)
		if err != nil {
			return nil, err
		}
		rb, err := nfirecord.LoadRecords(dirB)
		if err != nil {
			return nil, err
		}
		// The manifests' units: an interrupted run's units without a
		// record are not evaluated, as a harness run's incomplete
		// instances are.
		unitsA, intrA, err := nfiManifestUnits(dirA)
		if err != nil {
			return nil, err
		}
		unitsB, intrB, err := nfiManifestUnits(dirB)
		if err != nil {
			return nil, err
		}
		ma, err := pickModel(dirA, in.ModelA, NFIModels(ra, unitsA), "--model-a")
		if err != nil {
			return nil, err
		}
		mb, err := pickModel(dirB, in.ModelB, NFIModels(rb, unitsB), "--model-b")
		if err != nil {
			return nil, err
		}
		ua, ub = NFICompareUnits(ra, unitsA, ma), NFICompareUnits(rb, unitsB, mb)
		interrupted = [2]bool{intrA, intrB}
		la, lb = filepath.Base(dirA)+" "+ma, filepath.Base(dirB)+" "+mb
	} else {
		var reps [2]*Harness
		for i, d := range dirs {
			_, legacy, _ := runrecord.RunDirKind(d)
			if reps[i], err = LoadHarnessRun(d, legacy, in.Version); err != nil {
				return nil, err
			}
			// A record not read (corrupt, or a link, which is never
			// followed) is named, not silently left out.
			for _, u := range reps[i].Polynfi.UnreadableRecords {
				warn(fmt.Sprintf("%s: record not read: %s", u.Path, u.Error))
			}
		}
		ma, err := pickModel(dirA, in.ModelA, HarnessModels(reps[0]), "--model-a")
		if err != nil {
			return nil, err
		}
		mb, err := pickModel(dirB, in.ModelB, HarnessModels(reps[1]), "--model-b")
		if err != nil {
			return nil, err
		}
		ua, ub = HarnessCompareUnits(reps[0], ma), HarnessCompareUnits(reps[1], mb)
		interrupted = [2]bool{reps[0].Polynfi.Interrupted, reps[1].Polynfi.Interrupted}
		la, lb = filepath.Base(dirA)+" "+ma, filepath.Base(dirB)+" "+mb
	}
	warning, keep, err := checkSameDataset(dirA, dirB, in.AllowDifferentDatasets)
	if err != nil {
		return nil, err
	}
	if keep != nil {
		ua, ub = onlyInstances(ua, keep), onlyInstances(ub, keep)
		warn(warning)
	}
	c := Compare(la, ua, lb, ub)
	c.DatasetWarning = warning
	c.SetInterrupted(interrupted[0], interrupted[1])
	if c.Paired == 0 {
		for i, s := range []CompareSide{c.A, c.B} {
			if s.Units == 0 && s.NotEvaluated > 0 {
				return nil, fmt.Errorf("compare: %s has no evaluated unit of %s to pair: %s", dirs[i], s.Label, strings.Join(c.NotEvaluatedLines(), "; "))
			}
		}
		return nil, fmt.Errorf("compare: no unit of %s pairs with one of %s (same instance ids and runs needed)", dirA, dirB)
	}
	return &c, nil
}

// nfiManifestUnits returns the (task, agent, run) units an SWE-NFI suite
// run's manifest asks for and whether its last eval call was interrupted
// (did not finish); nil and false for a run without a manifest.
func nfiManifestUnits(dir string) ([]NFIUnit, bool, error) {
	m, ok, err := runrecord.ReadManifest(dir)
	if err != nil || !ok {
		return nil, false, err
	}
	units := make([]NFIUnit, 0, len(m.Units))
	for _, u := range m.Units {
		units = append(units, NFIUnit{Task: u.InstanceID, Agent: u.Model, Run: u.Run})
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
		return "", compareUsagef("compare: %s %q: %s holds %s", name, flag, dir, strings.Join(models, ", "))
	}
	if len(models) == 1 {
		return models[0], nil
	}
	return "", compareUsagef("compare: %s holds %d agents (%s): choose one with %s", dir, len(models), strings.Join(models, ", "), name)
}

// checkSameDataset checks that runs a and b were evaluated on the same
// dataset: equal dataset digests when both manifests record one, else
// equal evaluated instance sets (else, for runs without a manifest, equal
// dataset paths in their reports). Different datasets are a usage error
// unless allow; then warning says so and keep holds the instances both
// runs evaluated (nil when the datasets are the same).
func checkSameDataset(a, b string, allow bool) (warning string, keep map[string]bool, err error) {
	ma, oka, err := runrecord.ReadManifest(a)
	if err != nil {
		return "", nil, err
	}
	mb, okb, err := runrecord.ReadManifest(b)
	if err != nil {
		return "", nil, err
	}
	var why string
	insts := func(m *runrecord.Manifest) map[string]bool {
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
		return "", nil, compareUsagef("compare: %s and %s were not evaluated on the same dataset: %s; give --allow-different-datasets to compare the instances both have", a, b, why)
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
// without one, its json's.
func legacyDataset(dir string, m *runrecord.Manifest, ok bool) string {
	if ok {
		return m.Dataset
	}
	b, err := safepath.ReadFileIn(dir, "json")
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
func onlyInstances(us []CompareUnit, keep map[string]bool) []CompareUnit {
	var out []CompareUnit
	for _, u := range us {
		if keep[u.Instance] {
			out = append(out, u)
		}
	}
	return out
}

// pathlessErr is err without its path when it is a *fs.PathError about
// path itself (the message names path first already), else err.
func pathlessErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && filepath.Clean(pe.Path) == filepath.Clean(path) {
		return pe.Err
	}
	return err
}
