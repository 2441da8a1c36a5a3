package runrecord

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/atomicfile"
	"github.com/polynfi/polynfi/internal/regfile"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/retrieval"
)

// ManifestFile marks a run directory: `polynfi eval` writes it into OUT
// before evaluating anything and rewrites it when the run ends. A
// directory without it is not a run directory (see RunDirKind for runs
// written before it existed).
const ManifestFile = "polynfi-run.json"

// ManifestSchema is the version of the Manifest layout.
const ManifestSchema = 1

// Kinds of run directory.
const (
	KindHarness     = "harness"      // repository-level instances (SWE-PolyBench / SWE-bench)
	KindNFISuite    = "nfi_suite"    // SWE-NFI tasks (records under records/)
	KindMetricsOnly = "metrics_only" // retrieval metrics only (metrics.json)
)

// ManifestInstance is one instance of the evaluated set: the fields the
// report groups by, and, for an instance no prediction covered, the
// localization metrics of an empty prediction (SWE-PolyBench counts a
// missing prediction as an empty one).
type ManifestInstance struct {
	InstanceID     string                     `json:"instance_id"`
	Repo           string                     `json:"repo,omitempty"`
	Language       string                     `json:"language"`
	TaskCategory   string                     `json:"task_category,omitempty"`
	EmptyRetrieval *retrieval.InstanceMetrics `json:"empty_prediction_retrieval,omitempty"`
	// ComplexityClass is the complexity class of the reference change
	// (retrieval.Classify; "" when retrieval was off or the class could
	// not be computed): the report counts a unit that was not evaluated
	// in its class's group.
	ComplexityClass retrieval.Complexity `json:"reference_complexity_class,omitempty"`
}

// ManifestUnit is one submitted prediction: its record key and whether it
// is empty (blank after trimming).
type ManifestUnit struct {
	Key
	Empty bool `json:"empty"`
	// Missing: the unit has no prediction (none given, or its row was
	// rejected) and was scored as an empty one. Set (true or false) by
	// --metrics-only runs; nil in other runs and in metrics-only runs of
	// polynfi versions before it, which do not tell a missing prediction
	// from an empty one.
	Missing *bool `json:"missing,omitempty"`
}

// Manifest describes a run directory: what was asked of it over every
// eval call into it (the union of the evaluated sets and of the submitted
// predictions; a later call's prediction of a unit replaces an earlier
// one), and whether the last call finished. Complete is false while a call
// runs and after one that was interrupted or killed.
type Manifest struct {
	Schema        int    `json:"schema_version"`
	Kind          string `json:"kind"`
	RunID         string `json:"run_id"`
	Dataset       string `json:"dataset"`
	DatasetSchema string `json:"dataset_schema,omitempty"`
	// DatasetSHA256 is DatasetDigest of the dataset the last eval call
	// read ("" in runs written before it existed): compare refuses two
	// runs whose digests differ.
	DatasetSHA256 string             `json:"dataset_sha256,omitempty"`
	Predictions   string             `json:"predictions"`
	NativeMode    grading.Mode       `json:"native_mode,omitempty"`
	Retrieval     string             `json:"retrieval,omitempty"` // compatible, extended or "" (off)
	Instances     []ManifestInstance `json:"instances,omitempty"`
	Units         []ManifestUnit     `json:"units,omitempty"`
	InputErrors   []string           `json:"input_errors,omitempty"`
	// UnreadableRows counts dataset rows that could not be read,
	// NotRunnable rows that cannot run, Rejected prediction rows that could
	// not be read or name no instance: the report keeps the first two in
	// every mode's denominator (unresolved) and names all three.
	UnreadableRows int `json:"unreadable_rows,omitempty"`
	NotRunnable    int `json:"not_runnable_rows,omitempty"`
	Rejected       int `json:"rejected_predictions,omitempty"`
	// UnreadRows names each dataset row UnreadableRows and NotRunnable
	// count (Kind RowUnreadable or RowNotRunnable), with its instance id,
	// language and task category as far as they could be read, so that
	// the report counts it in its groups; DuplicateRows each row whose
	// instance_id an earlier row has (RowDuplicate: named, in no count).
	// Runs written before these existed have the counts only.
	UnreadRows    []DatasetRow `json:"unread_rows,omitempty"`
	DuplicateRows []DatasetRow `json:"duplicate_rows,omitempty"`
	// RejectedRows names each prediction row that could not be read (one
	// entry per problem; Rejected counts the rows), IgnoredPredictions each
	// prediction for an instance id the dataset does not have. Each eval
	// call replaces the entries of the predictions files it read.
	RejectedRows       []PredictionRow `json:"rejected_rows,omitempty"`
	IgnoredPredictions []PredictionRow `json:"ignored_predictions,omitempty"`
	Started            time.Time       `json:"started_at"`
	Finished           time.Time       `json:"finished_at,omitzero"`
	Complete           bool            `json:"complete"`
	Workers            int             `json:"workers,omitempty"`
	// PolynfiVersions lists the polynfi versions whose eval calls wrote
	// into the run, in the order first used (a run resumed by another
	// version has records of both).
	PolynfiVersions []string `json:"polynfi_versions,omitempty"`
	// Regrades lists every `polynfi regrade --apply` that replaced verdicts
	// of the run's records, oldest first: every report of the run says so.
	Regrades []RegradeNote `json:"regrades,omitempty"`
}

// Kinds of DatasetRow.
const (
	RowUnreadable  = "unreadable"   // the row could not be read
	RowNotRunnable = "not_runnable" // read, but it cannot run (what it lacks is the reason)
	RowDuplicate   = "duplicate"    // its instance_id is an earlier row's: that row is kept, this one counted nowhere
)

// DatasetRow is a dataset row that was not evaluated: its file, 1-based
// row (and line, where known), the instance id when it could be read (""
// otherwise), the language and task category when they could be read
// (LanguageUnknown / TaskCategoryUnknown when not; "" with Unknown false:
// the dataset has no such field), its kind (RowUnreadable, RowNotRunnable
// or RowDuplicate) and why.
type DatasetRow struct {
	Kind                string `json:"kind"`
	File                string `json:"file"`
	Row                 int    `json:"row"`
	Line                int    `json:"line,omitempty"`
	InstanceID          string `json:"instance_id,omitempty"`
	Language            string `json:"language,omitempty"`
	LanguageUnknown     bool   `json:"language_unknown,omitempty"`
	TaskCategory        string `json:"task_category,omitempty"`
	TaskCategoryUnknown bool   `json:"task_category_unknown,omitempty"`
	Reason              string `json:"reason"`
}

// String is the row's reason, which names file, row and field (as
// dataset.RowError prints them); for a row that cannot run, "FILE: row R
// [ID]: REASON".
func (r DatasetRow) String() string {
	if r.Kind == RowNotRunnable {
		re := dataset.RowError{File: r.File, Row: r.Row, Line: r.Line, InstanceID: r.InstanceID, Err: errors.New(r.Reason)}
		return re.Error()
	}
	return r.Reason
}

// UnreadDatasetRow is the DatasetRow of a row dataset.Load could not read.
func UnreadDatasetRow(u dataset.UnreadRow) DatasetRow {
	return DatasetRow{Kind: RowUnreadable, File: u.File, Row: u.Row, Line: u.Line, InstanceID: u.InstanceID,
		Language: u.Language, LanguageUnknown: !u.LanguageRead, TaskCategory: u.TaskCategory, TaskCategoryUnknown: !u.TaskCategoryRead,
		Reason: u.Reason()}
}

// RegradeNote is one `polynfi regrade --apply` of a run: when, by which
// polynfi version, how many units' verdicts changed, and the dataset it
// graded against (its DatasetDigest). PreviousDataset and its digest are
// set when that dataset differs from the one the run had named (the
// regrade was allowed with --allow-different-dataset); the run then names
// the new dataset.
type RegradeNote struct {
	At                    time.Time `json:"at"`
	Version               string    `json:"polynfi_version"`
	Changed               int       `json:"changed"`
	Dataset               string    `json:"dataset"`
	DatasetSHA256         string    `json:"dataset_sha256,omitempty"`
	PreviousDataset       string    `json:"previous_dataset,omitempty"`
	PreviousDatasetSHA256 string    `json:"previous_dataset_sha256,omitempty"`
}

// String is "re-graded <RFC 3339 time> by polynfi <version> (N verdicts
// changed)", with the dataset when it was not the run's.
func (n RegradeNote) String() string {
	s := fmt.Sprintf("re-graded %s by polynfi %s (%d verdicts changed)", n.At.UTC().Format(time.RFC3339), n.Version, n.Changed)
	if n.PreviousDataset != "" || n.PreviousDatasetSHA256 != "" {
		s += fmt.Sprintf(" against the dataset %s (sha256 %s), not the one the run was evaluated with (%s, sha256 %s)",
			n.Dataset, shortDigest(n.DatasetSHA256), n.PreviousDataset, shortDigest(n.PreviousDatasetSHA256))
	}
	return s
}

// shortDigest is a digest's first 12 hex digits ("unknown" when "").
func shortDigest(d string) string {
	if d == "" {
		return "unknown"
	}
	return d[:min(12, len(d))]
}

// PredictionRow names one row of a predictions file that was not
// evaluated: the file, its 1-based row (and line, for JSONL), the instance
// id and model it names when readable, the field at fault and why.
type PredictionRow struct {
	File       string `json:"file"`
	Row        int    `json:"row"`
	Line       int    `json:"line,omitempty"`
	InstanceID string `json:"instance_id,omitempty"`
	Model      string `json:"model_name_or_path,omitempty"`
	Field      string `json:"field,omitempty"`
	Reason     string `json:"reason"`
}

// String is "FILE: row R (line L) [ID]: field F: REASON", as a dataset
// row error prints.
func (p PredictionRow) String() string {
	re := dataset.RowError{File: p.File, Row: p.Row, Line: p.Line, InstanceID: p.InstanceID, Field: p.Field, Err: errors.New(p.Reason)}
	return re.Error()
}

// CountRows returns the number of distinct (file, row) among rows.
func CountRows(rows []PredictionRow) int {
	type fr struct {
		f string
		r int
	}
	seen := map[fr]bool{}
	for _, r := range rows {
		seen[fr{r.File, r.Row}] = true
	}
	return len(seen)
}

// MergePredictionRows replaces the entries of old that come from one of
// files by add (a later eval call re-read those files), keeping the rest.
func MergePredictionRows(old, add []PredictionRow, files []string) []PredictionRow {
	drop := map[string]bool{}
	for _, f := range files {
		drop[f] = true
	}
	var out []PredictionRow
	for _, r := range old {
		if !drop[r.File] {
			out = append(out, r)
		}
	}
	return append(out, add...)
}

// DatasetDigest is the hex SHA-256 identifying a dataset's content: of the
// file's bytes, or for a directory (an SWE-bench 5.x task repository) of
// the relative path and bytes of every regular file under its tasks/
// directory, in path order. It is "" when the dataset cannot be read.
func DatasetDigest(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	h := sha256.New()
	if !st.IsDir() {
		f, err := regfile.Open(path)
		if err != nil {
			return ""
		}
		defer f.Close()
		if _, err := io.Copy(h, f); err != nil {
			return ""
		}
		return hex.EncodeToString(h.Sum(nil))
	}
	root := filepath.Join(path, "tasks")
	var files []string
	if err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	}); err != nil {
		return ""
	}
	sort.Strings(files)
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			return ""
		}
		rel, _ := filepath.Rel(root, p)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// NoteVersion records that polynfi version v evaluates into the run.
func (m *Manifest) NoteVersion(v string) {
	for _, x := range m.PolynfiVersions {
		if x == v {
			return
		}
	}
	m.PolynfiVersions = append(m.PolynfiVersions, v)
}

// ReadManifest reads dir's manifest; ok is false when there is none.
func ReadManifest(dir string) (m *Manifest, ok bool, err error) {
	p := filepath.Join(dir, ManifestFile)
	b, err := safepath.ReadFileIn(dir, ManifestFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	m = &Manifest{}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, false, fmt.Errorf("%s: %w", p, err)
	}
	if m.Kind == "" {
		return nil, false, fmt.Errorf("%s: field kind: missing", p)
	}
	return m, true, nil
}

// Write writes the manifest into dir atomically, instances and units
// sorted.
func (m *Manifest) Write(dir string) error {
	m.Schema = ManifestSchema
	sort.Slice(m.Instances, func(i, j int) bool { return m.Instances[i].InstanceID < m.Instances[j].InstanceID })
	sort.Slice(m.Units, func(i, j int) bool { return unitLess(m.Units[i].Key, m.Units[j].Key) })
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, ManifestFile), append(b, '\n'))
}

// Merge adds a call's evaluated set and units to m: an instance or unit
// already present is replaced.
func (m *Manifest) Merge(instances []ManifestInstance, units []ManifestUnit) {
	ix := map[string]int{}
	for i, x := range m.Instances {
		ix[x.InstanceID] = i
	}
	for _, x := range instances {
		if i, ok := ix[x.InstanceID]; ok {
			m.Instances[i] = x
		} else {
			ix[x.InstanceID] = len(m.Instances)
			m.Instances = append(m.Instances, x)
		}
	}
	type uk struct {
		id, model string
		run       int
	}
	ux := map[uk]int{}
	for i, u := range m.Units {
		ux[uk{u.InstanceID, u.Model, u.Run}] = i
	}
	for _, u := range units {
		k := uk{u.InstanceID, u.Model, u.Run}
		if i, ok := ux[k]; ok {
			m.Units[i] = u
		} else {
			ux[k] = len(m.Units)
			m.Units = append(m.Units, u)
		}
	}
}

// InstancesMissingAUnit returns the instances of m's evaluated set that at
// least one (model, run) pair of m's units has no unit for: each has a
// missing unit in the report.
func (m *Manifest) InstancesMissingAUnit() map[string]bool {
	type pr struct {
		model string
		run   int
	}
	has := map[pr]map[string]bool{}
	for _, u := range m.Units {
		p := pr{u.Model, u.Run}
		if has[p] == nil {
			has[p] = map[string]bool{}
		}
		has[p][u.InstanceID] = true
	}
	out := map[string]bool{}
	for _, x := range m.Instances {
		if len(has) == 0 {
			out[x.InstanceID] = true
		}
		for _, ids := range has {
			if !ids[x.InstanceID] {
				out[x.InstanceID] = true
			}
		}
	}
	return out
}

func unitLess(a, b Key) bool {
	if a.InstanceID != b.InstanceID {
		return a.InstanceID < b.InstanceID
	}
	if a.Model != b.Model {
		return a.Model < b.Model
	}
	return a.Run < b.Run
}

// RunDirKind says what kind of run directory dir is: the manifest's kind,
// or for a run written before manifests existed, the kind its report.json
// shows (an NFI suite report has "kind": "nfi_suite", a harness report
// the "polybench" and "polynfi" sections). ok is false for anything else:
// records below dir alone do not make it a run directory.
func RunDirKind(dir string) (kind string, legacy bool, err error) {
	if st, err := os.Stat(dir); err != nil {
		return "", false, err
	} else if !st.IsDir() {
		return "", false, fmt.Errorf("%s: not a directory", dir)
	}
	if m, ok, err := ReadManifest(dir); err != nil {
		return "", false, err
	} else if ok {
		return m.Kind, false, nil
	}
	b, err := safepath.ReadFileIn(dir, "report.json")
	if err != nil {
		return "", false, nil
	}
	var probe struct {
		Kind      string          `json:"kind"`
		PolyBench json.RawMessage `json:"polybench"`
		Polynfi   json.RawMessage `json:"polynfi"`
	}
	if json.Unmarshal(b, &probe) != nil {
		return "", false, nil
	}
	switch {
	case probe.Kind == KindNFISuite:
		return KindNFISuite, true, nil
	case probe.Kind == "" && probe.PolyBench != nil && probe.Polynfi != nil:
		return KindHarness, true, nil
	}
	return "", false, nil
}

// UnreadableRecord is a record file that could not be read or decoded
// (truncated, corrupt, unreadable): its path and the error.
type UnreadableRecord struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// LoadRecords reads the records a harness.Store keeps directly in dir, at
// dir/<model>/<instance_id>/run-<k>/result.json, and nothing deeper or
// elsewhere (another run's directory below dir is not read). Sorted by
// instance id, model and run; a record that does not decode is an error
// naming its file (ReadRecords reads past it).
func LoadRecords(dir string) ([]*Record, error) {
	recs, bad, err := ReadRecords(dir)
	if err != nil {
		return nil, err
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("%s: %s", bad[0].Path, bad[0].Error)
	}
	return recs, nil
}

// ReadRecords is LoadRecords that does not stop at a record file it
// cannot read: it returns the records it read and lists every other one,
// sorted by path, so that a report can cover the rest and name them.
func ReadRecords(dir string) ([]*Record, []UnreadableRecord, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*", "run-*", ResultFile))
	if err != nil {
		return nil, nil, err
	}
	var out []*Record
	var bad []UnreadableRecord
	for _, p := range paths {
		rel, _ := filepath.Rel(dir, p)
		if strings.HasPrefix(rel, ".") {
			continue // scratch and cache directories
		}
		// Read without following links: a record replaced by one (or a
		// model or instance directory that is one) is unreadable, named.
		b, err := safepath.ReadFileIn(dir, rel)
		if err != nil {
			bad = append(bad, UnreadableRecord{Path: p, Error: err.Error()})
			continue
		}
		rec := &Record{}
		if err := json.Unmarshal(b, rec); err != nil {
			bad = append(bad, UnreadableRecord{Path: p, Error: err.Error()})
			continue
		}
		if rec.InstanceID != "" {
			out = append(out, rec)
		} else {
			bad = append(bad, UnreadableRecord{Path: p, Error: "field instance_id: missing"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return unitLess(out[i].Key, out[j].Key) })
	return out, bad, nil
}

// ManifestPath is how a run's manifest records an input path: absolute,
// so that regrade, report and compare find it from any working directory
// (p as given when it cannot be made absolute).
func ManifestPath(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// UnusedPredictions counts, by why, the predictions of an eval call that
// name nothing it evaluates: the exit-3 message of the instance and the
// SWE-NFI eval alike, in every mode.
type UnusedPredictions struct {
	Rejected    int  // prediction rows that could not be read
	Unknown     int  // predictions naming an id the dataset does not have
	Unreadable  int  // naming an instance whose dataset row could not be read
	NotRunnable int  // naming an instance that cannot run
	Filtered    int  // naming an instance of the dataset outside --instance-ids
	InstanceIDs bool // --instance-ids was given
	InputErrors int  // dataset rows not read or not runnable
}

// NothingEvaluated is the error (exit 3) of an eval in which no
// prediction names a unit it can evaluate: "nothing could be evaluated:
// no valid prediction for a(n) NOUN of DS in PREDS (R prediction rows
// rejected, U predictions for NOUNs not in the dataset[, W predictions
// for NOUNs whose dataset row could not be read][, C predictions for
// NOUNs that cannot run][, F predictions for NOUNs outside
// --instance-ids], E dataset input errors)"; the bracketed counts appear
// when not 0 (the last one whenever --instance-ids was given).
func (u UnusedPredictions) NothingEvaluated(noun, ds, preds string) error {
	parts := []string{fmt.Sprintf("%d prediction rows rejected", u.Rejected), fmt.Sprintf("%d predictions for %ss not in the dataset", u.Unknown, noun)}
	if u.Unreadable > 0 {
		parts = append(parts, fmt.Sprintf("%d predictions for %ss whose dataset row could not be read", u.Unreadable, noun))
	}
	if u.NotRunnable > 0 {
		parts = append(parts, fmt.Sprintf("%d predictions for %ss that cannot run", u.NotRunnable, noun))
	}
	if u.InstanceIDs {
		parts = append(parts, fmt.Sprintf("%d predictions for %ss outside --instance-ids", u.Filtered, noun))
	}
	parts = append(parts, fmt.Sprintf("%d dataset input errors", u.InputErrors))
	article := "a"
	if strings.ContainsRune("aeiou", rune(noun[0])) {
		article = "an"
	}
	return fmt.Errorf("nothing could be evaluated: no valid prediction for %s %s of %s in %s (%s)", article, noun, ds, preds, strings.Join(parts, ", "))
}
