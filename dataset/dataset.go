// Package dataset owns the inputs of an evaluation: repository-level
// instances (SWE-PolyBench / SWE-bench style), agents' predictions, and the
// loaders for the files they come in (CSV, JSON, JSONL, Parquet), with the
// field aliases between the two schemas and validation that names the file,
// row and field of every malformed value.
//
// A loader never drops a row silently: it returns the good instances together
// with one RowError per bad row, so that a run can go on with the rest. The
// package does no I/O beyond reading the files it is given, and never prints.
//
// Source: polynfi evaluation spec §1.1 and §1.3; SWE-PolyBench
// polybench_data.py (column names); SWE-bench harness (FAIL_TO_PASS as JSON).
package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Schema is the field-naming convention a dataset file follows. It decides
// the dataset's native grading mode.
type Schema string

// The schemas polynfi reads.
const (
	// SchemaPolyBench: SWE-PolyBench columns (F2P, P2P, Dockerfile,
	// task_category). Native grading: polybench.
	SchemaPolyBench Schema = "polybench"
	// SchemaSWEBench: SWE-bench fields (FAIL_TO_PASS, PASS_TO_PASS).
	// Native grading: swebench.
	SchemaSWEBench Schema = "swebench"
	// SchemaPolynfi: polynfi's own JSONL, rows carrying "polynfi_schema".
	// Native grading: strict.
	SchemaPolynfi Schema = "polynfi"
)

// Format is the container format of a dataset or predictions file.
type Format string

// Formats, chosen by file extension (.csv, .json, .jsonl, .parquet); a .json
// file whose first value is not an array is read as JSONL.
const (
	FormatCSV     Format = "csv"
	FormatJSON    Format = "json"
	FormatJSONL   Format = "jsonl"
	FormatParquet Format = "parquet"
)

// Languages of SWE-PolyBench, as its `language` column spells them.
const (
	Python     = "Python"
	Java       = "Java"
	JavaScript = "JavaScript"
	TypeScript = "TypeScript"
)

// Instance is one repository-level task: a real change to one repository,
// with the tests that decide whether a patch resolves it. JSON names follow
// SWE-bench; the SWE-PolyBench names (F2P, P2P) are accepted on input.
type Instance struct {
	InstanceID  string `json:"instance_id"` // owner__repo-PR; never contains '/'
	Repo        string `json:"repo"`        // owner/name
	BaseCommit  string `json:"base_commit"` // commit to check out
	Patch       string `json:"patch"`       // gold code patch (unified diff), tests excluded
	TestPatch   string `json:"test_patch"`  // test changes, applied before the model patch
	Language    string `json:"language"`    // Python, Java, JavaScript, TypeScript (others kept as given)
	TestCommand string `json:"test_command,omitempty"`
	// FailToPass lists the tests that must go from failing to passing, in
	// dataset order (duplicates kept).
	FailToPass []string `json:"FAIL_TO_PASS"`
	// PassToPass lists the tests that must keep passing.
	PassToPass       []string `json:"PASS_TO_PASS"`
	TaskCategory     string   `json:"task_category,omitempty"` // Bug Fix, Feature, Refactoring
	ModifiedNodes    []string `json:"modified_nodes,omitempty"`
	Dockerfile       string   `json:"Dockerfile,omitempty"`
	ProblemStatement string   `json:"problem_statement,omitempty"`
	CreatedAt        string   `json:"created_at,omitempty"`
	// Extra holds every other field of the row, untouched (values as
	// decoded: strings for CSV, JSON values for JSON).
	Extra map[string]any `json:"-"`
	// Row is the 1-based data row (CSV record after the header, JSONL line,
	// JSON array element, Parquet row) the instance came from.
	Row int `json:"-"`
}

// RowError is a malformed row or value. File is the path as given to the
// loader, Row the 1-based data row, Line the 1-based line in the file where
// known (0 otherwise), Field the offending field ("" for the whole row).
type RowError struct {
	File       string
	Row        int
	Line       int
	InstanceID string
	Field      string
	Err        error
}

func (e *RowError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: row %d", e.File, e.Row)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", e.Line)
	}
	if e.InstanceID != "" {
		fmt.Fprintf(&b, " [%s]", e.InstanceID)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": field %s", e.Field)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

func (e *RowError) Unwrap() error { return e.Err }

// Dataset is a loaded dataset file: the good instances in file order and one
// error per malformed row.
type Dataset struct {
	Path      string
	Format    Format
	Schema    Schema
	Instances []Instance
	Errors    []*RowError
}

// NativeMode is the grading mode the dataset's own harness uses: "polybench"
// for SWE-PolyBench data, "swebench" for SWE-bench data, "strict" for
// polynfi's own. Source: polynfi evaluation spec §2.5.
func (d *Dataset) NativeMode() string {
	switch d.Schema {
	case SchemaPolyBench:
		return "polybench"
	case SchemaSWEBench:
		return "swebench"
	}
	return "strict"
}

// CanonicalLanguage spells a language name as SWE-PolyBench does (case and
// common abbreviations folded: "python", "py" → "Python"). Other names come
// back trimmed but otherwise unchanged.
func CanonicalLanguage(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "python", "py":
		return Python
	case "java":
		return Java
	case "javascript", "js":
		return JavaScript
	case "typescript", "ts":
		return TypeScript
	}
	return strings.TrimSpace(s)
}

// EvalSHA256 fingerprints everything about the instance that an evaluation
// depends on (repository, base commit, patches, test command, test lists,
// language, reference nodes), as hex SHA-256. Result records keep it, so that
// a re-run re-evaluates instances whose dataset row changed.
func (in *Instance) EvalSHA256() string {
	h := sha256.New()
	for _, f := range []string{in.InstanceID, in.Repo, in.BaseCommit, in.Patch, in.TestPatch, in.TestCommand, in.Language} {
		fmt.Fprintf(h, "%d:%s", len(f), f)
	}
	for _, l := range [][]string{in.FailToPass, in.PassToPass, in.ModifiedNodes} {
		fmt.Fprintf(h, "[%d]", len(l))
		for _, f := range l {
			fmt.Fprintf(h, "%d:%s", len(f), f)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
