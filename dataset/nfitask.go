// This file was written by the lead for the NFI suite (issue #5); the
// dataset-building work (issue #6, `polynfi tasks build`) extends it: add
// fields and helpers, keep the names and JSON spelling.

package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/internal/textesc"
	"strings"

	"github.com/polynfi/polynfi/nfi/aspect"
)

// NFITask is one SWE-NFI task: a real non-functional improvement made by a
// human, given to an agent as a natural-language request with the code
// before. Source: polynfi evaluation spec §1.2; SWE-NFI §3.
//
// Files are the task's target files: the code before and the human
// reference after (Before "" means the file is new; After "" means the human
// deleted it). Tests are the test files the suite writes next to the output
// before running TestCommand (cwd = the task workspace). Environment holds
// support files written into the workspace as well (unchanged modules the
// targets import, configuration).
type NFITask struct {
	InstanceID  string        `json:"instance_id"`
	Repo        string        `json:"repo"`
	Description string        `json:"description"`
	Aspect      aspect.Aspect `json:"aspect"`
	Scope       string        `json:"scope"` // "single" | "multi"
	Files       []NFIFile     `json:"files"`
	Tests       []FileContent `json:"tests,omitempty"`
	// TestPatch is an alternative to Tests: a unified diff applied to the
	// workspace (targets at their code before plus Environment) before the
	// output is written.
	TestPatch   string          `json:"test_patch,omitempty"`
	TestCommand string          `json:"test_command"`
	Environment *NFIEnvironment `json:"environment,omitempty"`
	BaseCommit  string          `json:"base_commit,omitempty"`
	CreatedAt   string          `json:"created_at,omitempty"`
	// DescriptionStatus is "draft" while a person still has to write the
	// request (tasks built by `polynfi tasks build`), "" or "final" otherwise.
	DescriptionStatus string `json:"description_status,omitempty"`
	// Provenance from mining (`polynfi tasks build`): the merged change
	// that is the human reference, its PR number and title, the human
	// reference's I_p per aspect code as fractions in [−1, 1] (multi-file:
	// from the mean S_p over the files), and the candidate ids it came from.
	Commit      string             `json:"commit,omitempty"`
	PRNumber    int                `json:"pr_number,omitempty"`
	Subject     string             `json:"subject,omitempty"`
	Improvement map[string]float64 `json:"improvement,omitempty"`
	Candidates  []string           `json:"candidates,omitempty"`
	// Row is the 1-based row of the file the task came from.
	Row int `json:"-"`
}

// NFIFile is one target file of a task.
type NFIFile struct {
	Path   string `json:"path"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// FileContent is a file given by its content.
type FileContent struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// NFIEnvironment is what a task's tests need besides the target files:
// support files, or a base repository (owner/name) and commit to check out.
type NFIEnvironment struct {
	Files      []FileContent `json:"files,omitempty"`
	Repo       string        `json:"repo,omitempty"`
	BaseCommit string        `json:"base_commit,omitempty"`
}

// NFITasks is a loaded NFI task file: the good tasks in file order and one
// error per malformed row.
type NFITasks struct {
	Path   string
	Tasks  []NFITask
	Errors []*RowError
}

// TargetPaths returns the paths of the task's target files, in order.
func (t *NFITask) TargetPaths() []string {
	out := make([]string, len(t.Files))
	for i, f := range t.Files {
		out[i] = f.Path
	}
	return out
}

// GoldFiles returns the human reference output: path → after content.
func (t *NFITask) GoldFiles() map[string]string {
	out := map[string]string{}
	for _, f := range t.Files {
		out[f.Path] = f.After
	}
	return out
}

// Validate checks the task's fields; errors name the field.
func (t *NFITask) Validate() []fieldError {
	var errs []fieldError
	bad := func(field, format string, args ...any) {
		errs = append(errs, fieldError{field: field, err: fmt.Errorf(format, args...)})
	}
	if strings.TrimSpace(t.InstanceID) == "" {
		bad("instance_id", "missing")
	} else if err := textesc.CheckName(t.InstanceID); err != nil {
		bad("instance_id", "%q %v", t.InstanceID, err)
	}
	if t.Scope != "single" && t.Scope != "multi" {
		bad("scope", "%q: want single or multi", t.Scope)
	}
	if len(t.Files) == 0 {
		bad("files", "no target file")
	}
	if t.Scope == "single" && len(t.Files) > 1 {
		bad("scope", "single-file task with %d files", len(t.Files))
	}
	seen := map[string]bool{}
	for i, f := range t.Files {
		if err := CheckRelPath(f.Path); err != nil {
			bad(fmt.Sprintf("files[%d].path", i), "%v", err)
		}
		if seen[f.Path] {
			bad(fmt.Sprintf("files[%d].path", i), "duplicate path %q", f.Path)
		}
		seen[f.Path] = true
	}
	for i, f := range t.Tests {
		if err := CheckRelPath(f.Path); err != nil {
			bad(fmt.Sprintf("tests[%d].path", i), "%v", err)
		}
	}
	if t.Environment != nil {
		for i, f := range t.Environment.Files {
			if err := CheckRelPath(f.Path); err != nil {
				bad(fmt.Sprintf("environment.files[%d].path", i), "%v", err)
			}
		}
	}
	if strings.TrimSpace(t.TestCommand) == "" {
		bad("test_command", "missing")
	}
	return errs
}

// CheckRelPath accepts a clean relative slash path that stays inside its
// root: not empty, not absolute, no ".." element.
func CheckRelPath(p string) error {
	return safepath.Check(p)
}

// LoadNFITasks reads SWE-NFI tasks from path (JSONL, JSON list, CSV or
// Parquet; nested fields as JSON). A malformed row or field is a RowError
// naming the file, row and field; the other tasks are kept. The error is
// non-nil only when the file as a whole cannot be read.
func LoadNFITasks(file string) (*NFITasks, error) {
	_, rows, err := readRows(file)
	if err != nil && len(rows) == 0 {
		return nil, err
	}
	out := &NFITasks{Path: file}
	seen := map[string]int{}
	for i, r := range rows {
		rowNum := r.row
		if rowNum == 0 {
			rowNum = i + 1
		}
		if r.err != nil {
			out.Errors = append(out.Errors, &RowError{File: file, Row: rowNum, Line: r.line, Err: r.err})
			continue
		}
		t, ferrs := decodeNFITask(r.fields)
		t.Row = rowNum
		ferrs = append(ferrs, t.Validate()...)
		if prev, dup := seen[t.InstanceID]; dup && t.InstanceID != "" {
			ferrs = append(ferrs, fieldError{field: "instance_id", err: fmt.Errorf("%w of row %d", ErrDuplicate, prev)})
		}
		if len(ferrs) > 0 {
			for _, fe := range ferrs {
				out.Errors = append(out.Errors, &RowError{File: file, Row: rowNum, Line: r.line, InstanceID: t.InstanceID, Field: fe.field, Err: fe.err})
			}
			continue
		}
		seen[t.InstanceID] = rowNum
		out.Tasks = append(out.Tasks, t)
	}
	return out, nil
}

// decodeNFITask decodes one row's fields; nested fields may arrive as JSON
// strings (CSV, Parquet) or as decoded JSON values.
func decodeNFITask(fields map[string]any) (NFITask, []fieldError) {
	var t NFITask
	var errs []fieldError
	for name, v := range fields {
		// candidates (a list) and improvement (an object) too: a task file
		// converted to CSV or Parquet keeps them as JSON text.
		if s, ok := v.(string); ok && (name == "files" || name == "tests" || name == "environment" || name == "candidates" || name == "improvement") {
			var decoded any
			if err := json.Unmarshal([]byte(s), &decoded); err != nil {
				errs = append(errs, fieldError{field: name, err: fmt.Errorf("not JSON: %w", err)})
				delete(fields, name)
				continue
			}
			fields[name] = decoded
		}
	}
	for name, v := range fields {
		b, err := json.Marshal(map[string]any{name: v})
		if err != nil {
			errs = append(errs, fieldError{field: name, err: err})
			continue
		}
		if err := json.Unmarshal(b, &t); err != nil {
			errs = append(errs, fieldError{field: name, err: fmt.Errorf("wrong type: %v", unwrapJSON(err))})
		}
	}
	if _, ok := fields["aspect"]; !ok {
		errs = append(errs, fieldError{field: "aspect", err: fmt.Errorf("missing")})
	}
	return t, errs
}

func unwrapJSON(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s, want %s", te.Value, te.Type)
	}
	return err.Error()
}
