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
	"errors"
	"fmt"
	"strings"

	"github.com/polynfi/polynfi/internal/textesc"
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

// The other languages of SWE-bench Multilingual and Multi-SWE-bench, spelled
// as polynfi's datasets and reports spell them (SWE-bench Multilingual's
// rows carry no language: InferLanguage names it; Multi-SWE-bench's `language` field says "go",
// "rust", "c", "cpp"; CanonicalLanguage folds those).
const (
	Go   = "Go"
	Rust = "Rust"
	C    = "C"
	CPP  = "C++"
	PHP  = "PHP"
	Ruby = "Ruby"
)

// Instance is one repository-level task: a real change to one repository,
// with the tests that decide whether a patch resolves it. JSON names follow
// SWE-bench; the SWE-PolyBench names (F2P, P2P) are accepted on input.
type Instance struct {
	InstanceID string `json:"instance_id"` // owner__repo-PR; never contains '/'
	Repo       string `json:"repo"`        // owner/name
	BaseCommit string `json:"base_commit"` // commit to check out
	Patch      string `json:"patch"`       // gold code patch (unified diff), tests excluded
	TestPatch  string `json:"test_patch"`  // test changes, applied before the model patch
	Language   string `json:"language"`    // Python, Java, JavaScript, TypeScript, Go, Rust, C, C++, PHP, Ruby (others kept as given)
	// LanguageInferred is true when the row has no language (SWE-bench and
	// SWE-bench Multilingual rows) and Language was named by
	// InferLanguage from the files its patches change. An inferred
	// language does not enter EvalSHA256, so that records of such rows
	// made before inference keep their fingerprint.
	LanguageInferred bool   `json:"-"`
	TestCommand      string `json:"test_command,omitempty"`
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

	// The fields of a SWE-bench row of harness release 5.x, which carries
	// no test_command. Source: SWE-bench 5.0.2 swebench/harness/utils.py
	// make_test_spec (the columns it reads) and swebench/task/checks.py
	// REQUIRED_KEYS.

	// Image is the prebuilt per-instance image the row names
	// ("swebench/sweb.eval.x86_64.<id with __ as _1776_>:latest").
	Image string `json:"image,omitempty"`
	// EvalScript is the bash script SWE-bench copies into the container
	// and runs after the model patch: it applies the test patch itself,
	// prints the test output between EvalStartMarker and EvalEndMarker,
	// then resets the test files.
	EvalScript string `json:"eval_script,omitempty"`
	// LogParser names the SWE-bench log parser that reads the output
	// ("parse_log_pytest", "parse_log_django", "parse_log_maven", ...: the
	// keys of SWE-bench's PARSER_REGISTRY).
	LogParser string `json:"log_parser,omitempty"`
	// EvalType is EvalTypePassAndFail (also when empty) or
	// EvalTypeFailOnly (only FAILED results count, for suites whose parser
	// reads failures only).
	EvalType string `json:"eval_type,omitempty"`
	// Version is the repository's environment version ("3.0"), as text.
	Version string `json:"version,omitempty"`
	// MultiSWEBench holds what a Multi-SWE-bench row says beyond SWE-bench's
	// fields (the test transitions and the recorded runs its definition of
	// resolved reads); nil for other rows.
	MultiSWEBench *MultiSWEBench `json:"-"`
	// SWEBenchPro holds what a SWE-bench Pro row says beyond SWE-bench's
	// fields (its run_script.sh, parser.py and test file selection); nil
	// for other rows.
	SWEBenchPro *SWEBenchPro `json:"-"`
	// BuildContext is the directory an image is built from with
	// Dockerfile, for a task of a SWE-bench 5.x task repository (its
	// tasks/<instance_id>/ directory, absolute). Empty means SWE-PolyBench
	// semantics: the repository checked out at BaseCommit is the context.
	BuildContext string `json:"-"`
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
// ErrDuplicate is wrapped by the RowError of a row whose instance_id an
// earlier row already has ("duplicate of row N"): the instance is read
// from its first row, so the duplicate is named but not a row of its own.
var ErrDuplicate = errors.New("duplicate")

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
	fmt.Fprintf(&b, "%s: row %d", textesc.Terminal(e.File), e.Row)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", e.Line)
	}
	if e.InstanceID != "" {
		fmt.Fprintf(&b, " [%s]", textesc.Terminal(e.InstanceID))
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
	// Unread has one entry per row that is not in Instances because it
	// could not be read (a row with several bad fields is one entry; a
	// duplicate of an earlier row's instance_id is not unread: its
	// instance was read from that row), in file order.
	Unread []UnreadRow
}

// UnreadRow is a data row that could not be read into an Instance: where
// it is, what of it could still be read (for a report to count it in its
// language and task category), and its errors. InstanceID is "" when the
// row's instance_id could not be read or is not a valid id. LanguageRead
// is true when the row was split into fields and its language field, if
// it has one, is text: Language is then the row's language
// (CanonicalLanguage; "" when the row has no language field, as
// SWE-bench rows). TaskCategory and TaskCategoryRead likewise.
type UnreadRow struct {
	File             string
	Row              int
	Line             int
	InstanceID       string
	Language         string
	LanguageRead     bool
	TaskCategory     string
	TaskCategoryRead bool
	Errors           []*RowError
}

// Reason is the row's errors, each as RowError prints it, joined by "; ".
func (u UnreadRow) Reason() string {
	s := make([]string, len(u.Errors))
	for i, e := range u.Errors {
		s[i] = e.Error()
	}
	return strings.Join(s, "; ")
}

// NativeMode is the grading mode the dataset's own harness uses: "polybench"
// for SWE-PolyBench data, "swebench" for SWE-bench data (SWE-bench
// Multilingual included: its rows are SWE-bench 5.x rows),
// "multi-swe-bench" for Multi-SWE-bench data, "swe-bench-pro" for SWE-bench
// Pro data, "strict" for polynfi's own. Source: polynfi evaluation spec §2.5.
func (d *Dataset) NativeMode() string {
	switch d.Schema {
	case SchemaPolyBench:
		return "polybench"
	case SchemaSWEBench:
		return "swebench"
	case SchemaMultiSWEBench:
		return "multi-swe-bench"
	case SchemaSWEBenchPro:
		return "swe-bench-pro"
	}
	return "strict"
}

// SWE-bench's evaluation types (EvalType in swebench/harness/constants).
const (
	EvalTypePassAndFail = "pass_and_fail"
	EvalTypeFailOnly    = "fail_only"
)

// The markers a SWE-bench eval script prints around the test output, and
// the line SWE-bench adds after the end marker with the test command's
// exit status. Source: SWE-bench 5.0.2 swebench/harness/constants
// (START_TEST_OUTPUT, END_TEST_OUTPUT, TEST_EXIT_CODE).
const (
	EvalStartMarker    = ">>>>> Start Test Output"
	EvalEndMarker      = ">>>>> End Test Output"
	EvalExitCodeMarker = ">>>>> Test Exit Code"
)

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
	case "go", "golang":
		return Go
	case "rust", "rs":
		return Rust
	case "c":
		return C
	case "c++", "cpp", "cxx":
		return CPP
	case "php":
		return PHP
	case "ruby", "rb":
		return Ruby
	}
	return strings.TrimSpace(s)
}

// EvalSHA256 fingerprints everything about the instance that an evaluation
// depends on (repository, base commit, patches, test command, test lists,
// language, reference nodes, and the SWE-bench 5.x fields image,
// eval_script, log_parser, eval_type and version), as hex SHA-256. Result
// records keep it, so that a re-run re-evaluates instances whose dataset
// row changed. The SWE-bench 5.x fields enter the hash only when one is
// set, so rows without them keep the fingerprint they had before.
func (in *Instance) EvalSHA256() string {
	h := sha256.New()
	lang := in.Language
	if in.LanguageInferred {
		lang = ""
	}
	for _, f := range []string{in.InstanceID, in.Repo, in.BaseCommit, in.Patch, in.TestPatch, in.TestCommand, lang} {
		fmt.Fprintf(h, "%d:%s", len(f), f)
	}
	for _, l := range [][]string{in.FailToPass, in.PassToPass, in.ModifiedNodes} {
		fmt.Fprintf(h, "[%d]", len(l))
		for _, f := range l {
			fmt.Fprintf(h, "%d:%s", len(f), f)
		}
	}
	if sweb := []string{in.Image, in.EvalScript, in.LogParser, in.EvalType, in.Version}; strings.Join(sweb, "") != "" {
		fmt.Fprintf(h, "swebench5")
		for _, f := range sweb {
			fmt.Fprintf(h, "%d:%s", len(f), f)
		}
	}
	if in.SWEBenchPro != nil {
		// The run script is in TestCommand; the parser decides too.
		fmt.Fprintf(h, "swebenchpro%d:%s", len(in.SWEBenchPro.Parser), in.SWEBenchPro.Parser)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// RunProblem says what the instance lacks to be evaluated, "" when nothing:
// a test_command (run in a work tree or in the row's environment) or an
// eval_script (SWE-bench 5.x, run in a container); and for an eval_script
// row without a test_command, an environment to run it in (an image, a
// Dockerfile, or an image template given to the run: imageTemplate).
func (in *Instance) RunProblem(imageTemplate bool) string {
	hasCmd := strings.TrimSpace(in.TestCommand) != ""
	hasScript := strings.TrimSpace(in.EvalScript) != ""
	switch {
	case !hasCmd && !hasScript:
		return "no test_command and no eval_script"
	case !hasCmd && strings.TrimSpace(in.Image) == "" && strings.TrimSpace(in.Dockerfile) == "" && !imageTemplate:
		return "an eval_script but no image and no Dockerfile to run it in"
	}
	return ""
}

// Unrunnable is a group of instances that cannot be evaluated for the
// same reason (Instance.RunProblem).
type Unrunnable struct {
	Problem     string
	InstanceIDs []string
}

// SplitRunnable separates the instances that can be evaluated (in order)
// from those that cannot, grouped by what they lack (groups in order of
// first appearance).
func SplitRunnable(ins []Instance, imageTemplate bool) ([]Instance, []Unrunnable) {
	var ok []Instance
	var bad []Unrunnable
	idx := map[string]int{}
	for _, in := range ins {
		p := in.RunProblem(imageTemplate)
		if p == "" {
			ok = append(ok, in)
			continue
		}
		i, seen := idx[p]
		if !seen {
			i = len(bad)
			idx[p] = i
			bad = append(bad, Unrunnable{Problem: p})
		}
		bad[i].InstanceIDs = append(bad[i].InstanceIDs, in.InstanceID)
	}
	return ok, bad
}

// DescribeUnrunnable summarises groups of SplitRunnable in one line:
// "3 of 5 instances cannot run: 2 have no test_command and no eval_script
// (a-1, a-2); 1 has ... (b-3)", at most 5 ids named per group. total is
// the number of instances the groups were taken from.
func DescribeUnrunnable(groups []Unrunnable, total int) string {
	n := 0
	var parts []string
	for _, g := range groups {
		n += len(g.InstanceIDs)
		ids := g.InstanceIDs
		more := ""
		if len(ids) > 5 {
			more = fmt.Sprintf(", and %d more", len(ids)-5)
			ids = ids[:5]
		}
		verb := "have"
		if len(g.InstanceIDs) == 1 {
			verb = "has"
		}
		parts = append(parts, fmt.Sprintf("%d %s %s (%s%s)", len(g.InstanceIDs), verb, g.Problem, strings.Join(ids, ", "), more))
	}
	noun := "instances"
	if total == 1 {
		noun = "instance"
	}
	return fmt.Sprintf("%d of %d %s cannot run: %s", n, total, noun, strings.Join(parts, "; "))
}
