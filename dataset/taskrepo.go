package dataset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"go.yaml.in/yaml/v3"

	"github.com/polynfi/polynfi/internal/regfile"
)

// FormatTaskRepo is a SWE-bench 5.x task repository read as a dataset: a
// directory with tasks/<instance_id>/ holding one instance each.
const FormatTaskRepo Format = "task_repo"

// The files of a task directory of a SWE-bench 5.x task repository, and
// the dataset columns they hold. Source: SWE-bench 5.0.2
// swebench/task/repo.py (TASK_FILE, TESTS_FILE, AS_FILE, OPTIONAL_FILE)
// and swebench/task/checks.py (REQUIRED_FILES).
const (
	TaskFile       = "task.yaml"  // metadata: instance_id, repo, version, base_commit, image, log_parser, eval_type, split, datasets, ...
	TaskTestsFile  = "tests.json" // {"FAIL_TO_PASS": [...], "PASS_TO_PASS": [...]}
	TaskDockerfile = "Dockerfile" // built with the task directory as context
)

// taskFiles maps dataset columns to the task files that hold them; all
// are required but hints.md.
var taskFiles = []struct{ column, file string }{
	{"patch", "gold.patch"},
	{"test_patch", "test.patch"},
	{"eval_script", "eval.sh"},
	{"problem_statement", "problem_statement.md"},
	{"hints_text", "hints.md"},
}

// IsTaskRepo reports whether path is a directory with a tasks/
// subdirectory (a SWE-bench 5.x task repository).
func IsTaskRepo(path string) bool {
	st, err := os.Stat(filepath.Join(path, "tasks"))
	return err == nil && st.IsDir()
}

// LoadTaskRepo reads a SWE-bench 5.x task repository at dir as a dataset:
// one instance per directory tasks/<instance_id>/, in name order, from
// task.yaml (its keys are dataset columns), tests.json (FAIL_TO_PASS and
// PASS_TO_PASS as JSON lists), gold.patch (patch), test.patch
// (test_patch), eval.sh (eval_script), problem_statement.md, hints.md
// (optional) and Dockerfile, whose text goes to Instance.Dockerfile and
// whose directory to Instance.BuildContext (absolute). Files are read
// byte for byte (CRLF inside a patch is kept). A task directory or task
// file that is a symbolic link is an error, not followed.
//
// A task directory with a missing or unreadable file, YAML or JSON that
// does not parse, or an instance_id other than its directory name is a
// RowError naming the file (Row is the task's 1-based position in name
// order); the other tasks load. The error is non-nil only when dir has no
// tasks/ directory or it cannot be listed. test_assets/ and other files
// are not read.
//
// Source: SWE-bench 5.0.2 swebench/task/repo.py load_task and task_paths.
func LoadTaskRepo(dir string) (*Dataset, error) {
	root := filepath.Join(dir, "tasks")
	entries, err := os.ReadDir(root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: not a task repository: no tasks/ directory", dir)
		}
		return nil, err
	}
	d := &Dataset{Path: dir, Format: FormatTaskRepo, Schema: SchemaSWEBench}
	var names []string
	for _, e := range entries {
		if e.IsDir() || e.Type()&fs.ModeSymlink != 0 {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	seen := map[string]int{}
	for i, name := range names {
		row := i + 1
		tdir := filepath.Join(root, name)
		var fields map[string]any
		var ferr *RowError
		if fi, err := os.Lstat(tdir); err != nil || !fi.IsDir() {
			ferr = &RowError{File: tdir, Err: errors.New("a symbolic link, not a task directory: not read")}
		} else {
			fields, ferr = readTask(tdir)
		}
		if ferr != nil {
			ferr.Row = row
			ferr.InstanceID = name
			d.Errors = append(d.Errors, ferr)
			u := UnreadRow{File: ferr.File, Row: row, Errors: []*RowError{ferr}}
			if checkInstanceID(name) == nil {
				u.InstanceID = name
			}
			d.Unread = append(d.Unread, u)
			continue
		}
		if _, ok := fields["instance_id"]; !ok {
			fields["instance_id"] = name
		}
		in, errs := decodeInstance(fields)
		in.Row = row
		taskYAML := filepath.Join(tdir, TaskFile)
		if in.InstanceID != name && len(errs) == 0 {
			errs = append(errs, fieldError{"instance_id", fmt.Errorf("%q differs from its directory name %q", in.InstanceID, name)})
		}
		first := len(d.Errors)
		for _, fe := range errs {
			file := taskYAML
			switch fe.field {
			case "FAIL_TO_PASS", "PASS_TO_PASS":
				file = filepath.Join(tdir, TaskTestsFile)
			}
			for _, tf := range taskFiles {
				if fe.field == tf.column {
					file = filepath.Join(tdir, tf.file)
				}
			}
			d.Errors = append(d.Errors, &RowError{File: file, Row: row, InstanceID: name, Field: fe.field, Err: fe.err})
		}
		if len(errs) > 0 {
			u := unreadRow(taskYAML, row, 0, in, fields, errs, d.Errors[first:])
			if u.InstanceID == "" && checkInstanceID(name) == nil {
				u.InstanceID = name
			}
			d.Unread = append(d.Unread, u)
			continue
		}
		if first, dup := seen[in.InstanceID]; dup {
			d.Errors = append(d.Errors, &RowError{File: taskYAML, Row: row, InstanceID: name, Field: "instance_id", Err: fmt.Errorf("%w of task %d", ErrDuplicate, first)})
			continue
		}
		seen[in.InstanceID] = row
		if abs, err := filepath.Abs(tdir); err == nil {
			in.BuildContext = abs
		} else {
			in.BuildContext = tdir
		}
		d.Instances = append(d.Instances, in)
	}
	return d, nil
}

// readTaskFile reads a regular file of a task directory; a symbolic link
// is refused (a task's files are its own, never another place's).
func readTaskFile(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, errors.New("a symbolic link: not read")
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	return regfile.ReadFile(path)
}

// readTask reads the files of one task directory into a row.
func readTask(tdir string) (map[string]any, *RowError) {
	bad := func(file, field string, err error) *RowError {
		return &RowError{File: filepath.Join(tdir, file), Field: field, Err: err}
	}
	b, err := readTaskFile(filepath.Join(tdir, TaskFile))
	if err != nil {
		return nil, bad(TaskFile, "", readErr(err))
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, bad(TaskFile, "", fmt.Errorf("not valid YAML: %w", err))
	}
	v, err := yamlValue(&doc)
	if err != nil {
		return nil, bad(TaskFile, "", err)
	}
	fields, ok := v.(map[string]any)
	if !ok {
		if v == nil {
			return nil, bad(TaskFile, "", errors.New("empty: want a mapping of dataset columns"))
		}
		return nil, bad(TaskFile, "", fmt.Errorf("want a mapping of dataset columns, got %s", jsonKind(v)))
	}
	for _, tf := range taskFiles {
		b, err := readTaskFile(filepath.Join(tdir, tf.file))
		if err != nil {
			if tf.file == "hints.md" && errors.Is(err, fs.ErrNotExist) {
				fields[tf.column] = ""
				continue
			}
			return nil, bad(tf.file, tf.column, readErr(err))
		}
		fields[tf.column] = string(b)
	}
	tb, err := readTaskFile(filepath.Join(tdir, TaskTestsFile))
	if err != nil {
		return nil, bad(TaskTestsFile, "", readErr(err))
	}
	tests, err := decodeObject(tb)
	if err != nil {
		return nil, bad(TaskTestsFile, "", fmt.Errorf("not a JSON object: %w", err))
	}
	for _, k := range []string{"FAIL_TO_PASS", "PASS_TO_PASS"} {
		v, ok := tests[k]
		if !ok {
			return nil, bad(TaskTestsFile, k, errors.New("missing"))
		}
		if _, isList := v.([]any); !isList {
			return nil, bad(TaskTestsFile, k, fmt.Errorf("want a JSON list of strings, got %s", jsonKind(v)))
		}
	}
	for k, v := range tests {
		fields[k] = v
	}
	df, err := readTaskFile(filepath.Join(tdir, TaskDockerfile))
	if err != nil {
		return nil, bad(TaskDockerfile, "Dockerfile", readErr(err))
	}
	fields["Dockerfile"] = string(df)
	return fields, nil
}

func readErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errors.New("missing")
	}
	return err
}

// yamlValue converts a YAML node to JSON-like values, keeping every
// scalar's text as written ("3.0" stays "3.0", not the number 3) so that a
// version or a test id is never retyped; null is nil.
func yamlValue(n *yaml.Node) (any, error) {
	switch n.Kind {
	case 0:
		return nil, nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlValue(n.Content[0])
	case yaml.AliasNode:
		return nil, fmt.Errorf("line %d: YAML aliases are not accepted", n.Line)
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil, nil
		}
		return n.Value, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlValue(c)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: want a text key", k.Line)
			}
			if _, dup := out[k.Value]; dup {
				return nil, fmt.Errorf("line %d: key %q appears twice", k.Line, k.Value)
			}
			v, err := yamlValue(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			out[k.Value] = v
		}
		return out, nil
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
}
