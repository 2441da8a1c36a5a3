package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/polynfi/polynfi/internal/textesc"
)

// aliases maps each canonical field name to the names accepted for it, the
// canonical (SWE-bench) name first. Source: polynfi evaluation spec §1.1.
var aliases = []struct {
	name  string
	names []string
}{
	{"instance_id", []string{"instance_id"}},
	{"repo", []string{"repo"}},
	{"base_commit", []string{"base_commit"}},
	{"patch", []string{"patch"}},
	{"test_patch", []string{"test_patch"}},
	{"language", []string{"language"}},
	{"test_command", []string{"test_command", "test_cmd"}},
	{"FAIL_TO_PASS", []string{"FAIL_TO_PASS", "F2P"}},
	{"PASS_TO_PASS", []string{"PASS_TO_PASS", "P2P"}},
	{"task_category", []string{"task_category"}},
	{"modified_nodes", []string{"modified_nodes"}},
	{"Dockerfile", []string{"Dockerfile", "dockerfile"}},
	{"problem_statement", []string{"problem_statement"}},
	{"created_at", []string{"created_at"}},
	// SWE-bench harness 5.x (swebench/harness/utils.py make_test_spec).
	{"image", []string{"image"}},
	{"eval_script", []string{"eval_script"}},
	{"log_parser", []string{"log_parser"}},
	{"eval_type", []string{"eval_type"}},
	{"version", []string{"version"}},
}

var knownField = func() map[string]bool {
	m := map[string]bool{"polynfi_schema": true}
	for _, a := range aliases {
		for _, n := range a.names {
			m[n] = true
		}
	}
	return m
}()

// fieldError is a problem with one field of a row.
type fieldError struct {
	field string
	err   error
}

// lookup returns the value of canonical field name under any of its
// aliases, and the name it was found under.
func lookup(row map[string]any, name string) (any, string, bool) {
	for _, a := range aliases {
		if a.name != name {
			continue
		}
		for _, n := range a.names {
			if v, ok := row[n]; ok {
				return v, n, true
			}
		}
	}
	return nil, name, false
}

// decodeInstance turns one decoded row into an Instance. It collects every
// field error rather than stopping at the first.
func decodeInstance(row map[string]any) (Instance, []fieldError) {
	if isMultiSWERow(row) {
		return decodeMultiSWE(row)
	}
	if isProRow(row) {
		return decodePro(row)
	}
	var in Instance
	var errs []fieldError
	str := func(name string, dst *string) {
		v, n, ok := lookup(row, name)
		if !ok {
			return
		}
		s, err := toString(v)
		if err != nil {
			errs = append(errs, fieldError{n, err})
			return
		}
		*dst = s
	}
	list := func(name string, dst *[]string) {
		v, n, ok := lookup(row, name)
		if !ok {
			*dst = []string{}
			return
		}
		l, err := toList(v)
		if err != nil {
			errs = append(errs, fieldError{n, err})
			return
		}
		*dst = l
	}
	str("instance_id", &in.InstanceID)
	str("repo", &in.Repo)
	str("base_commit", &in.BaseCommit)
	str("patch", &in.Patch)
	str("test_patch", &in.TestPatch)
	str("language", &in.Language)
	str("test_command", &in.TestCommand)
	list("FAIL_TO_PASS", &in.FailToPass)
	list("PASS_TO_PASS", &in.PassToPass)
	str("task_category", &in.TaskCategory)
	list("modified_nodes", &in.ModifiedNodes)
	str("Dockerfile", &in.Dockerfile)
	str("problem_statement", &in.ProblemStatement)
	str("created_at", &in.CreatedAt)
	str("image", &in.Image)
	str("eval_script", &in.EvalScript)
	str("log_parser", &in.LogParser)
	str("eval_type", &in.EvalType)
	str("version", &in.Version)

	in.InstanceID = strings.TrimSpace(in.InstanceID)
	in.Repo = strings.TrimSpace(in.Repo)
	in.BaseCommit = strings.TrimSpace(in.BaseCommit)
	in.Language = CanonicalLanguage(in.Language)
	if in.Language == "" {
		// SWE-bench and SWE-bench Multilingual rows carry no language:
		// name it from the files the patches change, so that the
		// language's container defaults, timeout, canaries and report
		// group apply.
		if l := InferLanguage(in.Patch, in.TestPatch); l != "" {
			in.Language, in.LanguageInferred = l, true
		}
	}
	in.TaskCategory = strings.TrimSpace(in.TaskCategory)
	if len(in.ModifiedNodes) == 0 {
		in.ModifiedNodes = nil
	}
	in.Image = strings.TrimSpace(in.Image)
	in.LogParser = strings.TrimSpace(in.LogParser)
	in.EvalType = strings.ToLower(strings.TrimSpace(in.EvalType))
	in.Version = strings.TrimSpace(in.Version)
	switch in.EvalType {
	case "", EvalTypePassAndFail, EvalTypeFailOnly:
	default:
		_, n, _ := lookup(row, "eval_type")
		errs = append(errs, fieldError{n, fmt.Errorf("%q: want %s or %s", in.EvalType, EvalTypePassAndFail, EvalTypeFailOnly)})
	}
	if strings.HasPrefix(in.Image, "-") || strings.ContainsAny(in.Image, " \t\n") {
		_, n, _ := lookup(row, "image")
		errs = append(errs, fieldError{n, fmt.Errorf("%q is not an image name", in.Image)})
	}
	if err := checkInstanceID(in.InstanceID); err != nil {
		errs = append(errs, fieldError{"instance_id", err})
	}
	// Names shown on terminals and in reports: a control character (a
	// newline, an escape sequence) could forge or hide a line.
	for _, f := range []struct {
		name string
		v    string
	}{{"repo", in.Repo}, {"base_commit", in.BaseCommit}, {"language", in.Language}, {"task_category", in.TaskCategory},
		{"image", in.Image}, {"log_parser", in.LogParser}, {"eval_type", in.EvalType}, {"version", in.Version}, {"created_at", strings.TrimSpace(in.CreatedAt)}} {
		if err := textesc.CheckName(f.v); err != nil {
			_, n, ok := lookup(row, f.name)
			if !ok {
				n = f.name
			}
			if !hasFieldError(errs, n) {
				errs = append(errs, fieldError{n, fmt.Errorf("%q %w", f.v, err)})
			}
		}
	}
	if in.Repo == "" {
		errs = append(errs, fieldError{"repo", errors.New("missing")})
	} else if parts := strings.Split(in.Repo, "/"); len(parts) != 2 || parts[0] == "" || parts[1] == "" ||
		parts[0] == ".." || parts[1] == ".." || parts[0] == "." || parts[1] == "." {
		errs = append(errs, fieldError{"repo", fmt.Errorf("%q: want owner/name", in.Repo)})
	}
	// Without FAIL_TO_PASS tests every run would count as resolving the
	// instance (F2P ⊆ passed holds for an empty set): the field is required
	// and may not be empty. PASS_TO_PASS may be empty.
	if _, name, ok := lookup(row, "FAIL_TO_PASS"); !ok {
		errs = append(errs, fieldError{"FAIL_TO_PASS", errors.New("missing (also read as F2P)")})
	} else if len(in.FailToPass) == 0 && !hasFieldError(errs, name) {
		errs = append(errs, fieldError{name, errors.New("empty: an instance needs at least one test that must go from failing to passing")})
	}
	if in.BaseCommit == "" {
		errs = append(errs, fieldError{"base_commit", errors.New("missing")})
	} else if strings.HasPrefix(in.BaseCommit, "-") || strings.ContainsAny(in.BaseCommit, " \t\n:") {
		errs = append(errs, fieldError{"base_commit", fmt.Errorf("%q is not a commit", in.BaseCommit)})
	}
	for k, v := range row {
		if knownField[k] {
			continue
		}
		if in.Extra == nil {
			in.Extra = map[string]any{}
		}
		in.Extra[k] = v
	}
	return in, errs
}

// checkInstanceID rejects ids that cannot name a result file.
func checkInstanceID(id string) error {
	switch {
	case id == "":
		return errors.New("missing")
	case id == "." || id == "..":
		return fmt.Errorf("%q is not a valid id", id)
	case strings.ContainsAny(id, "/\\"):
		return fmt.Errorf("%q contains a path separator", id)
	case textesc.CheckName(id) != nil:
		return fmt.Errorf("%q %v", id, textesc.CheckName(id))
	case len(id) > 200:
		return fmt.Errorf("longer than 200 bytes")
	}
	return nil
}

// toString converts a decoded scalar to its text.
func toString(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case []byte:
		return string(x), nil
	case json.Number:
		return x.String(), nil
	case bool:
		return strconv.FormatBool(x), nil
	case float64:
		if math.IsNaN(x) { // pandas writes missing cells as NaN
			return "", nil
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32), nil
	case int, int32, int64, uint32, uint64:
		return fmt.Sprint(x), nil
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano), nil
	}
	return "", fmt.Errorf("want a string, got %s", jsonKind(v))
}

// toList converts a decoded value to a list of strings: a real list, or a
// string holding a JSON array or a Python repr list.
func toList(v any) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return []string{}, nil
	case string:
		return ParseStringList(x)
	case []byte:
		return ParseStringList(string(x))
	case []string:
		return append([]string{}, x...), nil
	case []any:
		out := make([]string, 0, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				if b, isBytes := e.([]byte); isBytes {
					s, ok = string(b), true
				}
			}
			if !ok {
				return nil, fmt.Errorf("element %d: want a string, got %s", i, jsonKind(e))
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w, got %s", errNotList, jsonKind(v))
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64, int, int64:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func hasFieldError(errs []fieldError, field string) bool {
	for _, e := range errs {
		if e.field == field {
			return true
		}
	}
	return false
}
