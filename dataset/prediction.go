package dataset

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/internal/regfile"
	"github.com/polynfi/polynfi/internal/textesc"
)

// GoldModel is the model name given to the dataset's own reference patches
// (`--predictions gold`).
const GoldModel = "gold"

// DefaultModel is the model name of a prediction without a
// model_name_or_path field, SWE-bench's default
// (swebench/harness/run_evaluation.py: pred.get(KEY_MODEL, "None")).
const DefaultModel = "None"

// Prediction is one agent output for one instance: either a unified diff
// (ModelPatch) or the complete new contents of the files it changed (Files,
// SWE-NFI's "code_after"; path → content, paths relative to the repository
// root). Exactly one of the two is set for a non-empty prediction; both
// empty is an empty prediction (graded empty_patch).
type Prediction struct {
	InstanceID      string            `json:"instance_id"`
	ModelNameOrPath string            `json:"model_name_or_path"`
	ModelPatch      string            `json:"model_patch,omitempty"`
	Files           map[string]string `json:"files,omitempty"`
	// Run is the 0-based repeat index of this prediction (several runs of
	// the same agent on the same instance).
	Run int `json:"run"`
	// Optional cost fields, nil when absent. DurationS is agent wall time in
	// seconds; CostUSD in US dollars.
	DurationS *float64 `json:"duration_s,omitempty"`
	TokensIn  *int64   `json:"tokens_in,omitempty"`
	TokensOut *int64   `json:"tokens_out,omitempty"`
	CostUSD   *float64 `json:"cost_usd,omitempty"`
	// Row is the 1-based record the prediction came from (0 for gold),
	// Line its 1-based line in a JSONL file (0 otherwise), File the
	// predictions file ("" for gold).
	Row  int    `json:"-"`
	Line int    `json:"-"`
	File string `json:"-"`
}

// Empty reports whether the prediction carries no change at all (a blank
// diff and no files).
func (p *Prediction) Empty() bool {
	return strings.TrimSpace(p.ModelPatch) == "" && len(p.Files) == 0
}

// PatchSHA256 is the hex SHA-256 of what the prediction asks to apply: the
// model patch bytes, or for Files the canonical JSON of the sorted
// path→content map. It keys result records, so that a changed patch is
// evaluated again.
func (p *Prediction) PatchSHA256() string {
	h := sha256.New()
	if len(p.Files) == 0 {
		h.Write([]byte(p.ModelPatch))
	} else {
		keys := make([]string, 0, len(p.Files))
		for k := range p.Files {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		h.Write([]byte("files\x00"))
		for _, k := range keys {
			fmt.Fprintf(h, "%d:%s%d:%s", len(k), k, len(p.Files[k]), p.Files[k])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Predictions is a loaded predictions file: the good predictions in file
// order and one error per malformed record.
type Predictions struct {
	Path        string
	Predictions []Prediction
	Errors      []*RowError
}

// Gold returns one prediction per instance carrying the instance's own
// reference patch, model GoldModel, run 0.
func Gold(instances []Instance) []Prediction {
	out := make([]Prediction, len(instances))
	for i, in := range instances {
		out[i] = Prediction{InstanceID: in.InstanceID, ModelNameOrPath: GoldModel, ModelPatch: in.Patch}
	}
	return out
}

// LoadPredictions reads predictions from path: JSONL (one object a line), a
// JSON list of objects, or a JSON object keyed by instance_id (all three
// SWE-bench inputs). A record lacking instance_id in the keyed form takes its
// key. It returns an error only when the file as a whole cannot be read; a
// malformed record, or a second record for the same (instance_id, model,
// run), is a RowError and the others are kept.
func LoadPredictions(file string) (*Predictions, error) {
	data, err := regfile.ReadFile(file)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var rows []rawRow
	trimmed := bytes.TrimSpace(data)
	switch {
	case len(trimmed) == 0:
	case trimmed[0] == '[':
		rows, err = readJSONList(file, data)
		if err != nil && rows == nil {
			return nil, err
		}
	case isKeyedObject(trimmed):
		rows, err = readKeyed(file, trimmed)
		if err != nil {
			return nil, err
		}
	default:
		rows = readJSONL(data)
	}
	ps := &Predictions{Path: file}
	if err != nil {
		ps.Errors = append(ps.Errors, &RowError{File: file, Row: len(rows) + 1, Err: err})
	}
	type key struct {
		id, model string
		run       int
	}
	seen := map[key]int{}
	for _, r := range rows {
		if r.err != nil {
			ps.Errors = append(ps.Errors, &RowError{File: file, Row: r.row, Line: r.line, Err: r.err})
			continue
		}
		p, ferrs := decodePrediction(r.fields)
		p.Row, p.Line, p.File = r.row, r.line, file
		for _, fe := range ferrs {
			ps.Errors = append(ps.Errors, &RowError{File: file, Row: r.row, Line: r.line, InstanceID: p.InstanceID, Field: fe.field, Err: fe.err})
		}
		if len(ferrs) > 0 {
			continue
		}
		k := key{p.InstanceID, p.ModelNameOrPath, p.Run}
		if first, dup := seen[k]; dup {
			ps.Errors = append(ps.Errors, &RowError{File: file, Row: r.row, Line: r.line, InstanceID: p.InstanceID, Field: "instance_id",
				Err: fmt.Errorf("second prediction for the same model and run (first at row %d)", first)})
			continue
		}
		seen[k] = r.row
		ps.Predictions = append(ps.Predictions, p)
	}
	return ps, nil
}

// isKeyedObject tells a JSON object keyed by instance_id (a single JSON
// value whose members are objects) from JSONL.
func isKeyedObject(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	var v map[string]json.RawMessage
	if err := dec.Decode(&v); err != nil || dec.More() {
		return false
	}
	if _, ok := v["instance_id"]; ok {
		return false // a one-line JSONL file
	}
	for _, m := range v {
		if t := bytes.TrimSpace(m); len(t) == 0 || t[0] != '{' {
			return false
		}
	}
	return true
}

func readKeyed(file string, b []byte) ([]rawRow, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var rows []rawRow
	for n := 1; dec.More(); n++ {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		id, _ := tok.(string)
		line := 1 + bytes.Count(b[:dec.InputOffset()], []byte("\n"))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s: key %q: %w", file, id, err)
		}
		m, err := decodeObject(raw)
		if err == nil {
			if got, ok := m["instance_id"]; !ok {
				m["instance_id"] = id
			} else if s, _ := got.(string); s != id {
				err = fmt.Errorf("field instance_id %q differs from its key %q", s, id)
			}
		}
		rows = append(rows, rawRow{row: n, line: line, fields: m, err: err})
	}
	return rows, nil
}

func decodePrediction(m map[string]any) (Prediction, []fieldError) {
	var p Prediction
	var errs []fieldError
	if _, hasID := m["instance_id"]; !hasID && isMultiSWEPrediction(m) {
		var ferrs []fieldError
		if m, ferrs = fromMultiSWEPrediction(m); len(ferrs) > 0 {
			return p, ferrs
		}
	}
	// Predictions are JSON: instance_id and model_name_or_path must be
	// strings (or null); a number or boolean is a mistake in the file, not
	// a name (1 and 1.0 would be one model, 01 another).
	str := func(name string, dst *string) {
		v, ok := m[name]
		if !ok || v == nil {
			return
		}
		s, isStr := v.(string)
		if !isStr {
			errs = append(errs, fieldError{name, fmt.Errorf("want a string, got %s", jsonKind(v))})
			return
		}
		*dst = s
	}
	str("instance_id", &p.InstanceID)
	idBad := len(errs) > 0 // a non-string id is named once, not also as missing
	p.InstanceID = strings.TrimSpace(p.InstanceID)
	// model_name_or_path names the agent; every record, report row and
	// record directory is keyed by it. Missing entirely, it is
	// DefaultModel ("None"), as SWE-bench's harness does
	// (pred.get("model_name_or_path", "None")); present but null, blank
	// or not a string is a mistake (SWE-bench fails on null), never a
	// second, unnamed model.
	if v, ok := m["model_name_or_path"]; !ok {
		p.ModelNameOrPath = DefaultModel
	} else if s, isStr := v.(string); !isStr {
		errs = append(errs, fieldError{"model_name_or_path", fmt.Errorf("want the model's name as a string, got %s", jsonKind(v))})
	} else if strings.TrimSpace(s) == "" {
		errs = append(errs, fieldError{"model_name_or_path", errors.New("blank: name the model (omit the field for SWE-bench's default \"None\")")})
	} else if err := textesc.CheckName(s); err != nil {
		// printed in every headline and heading: a newline or an escape
		// sequence could forge a line of the report
		errs = append(errs, fieldError{"model_name_or_path", fmt.Errorf("%q %w", s, err)})
	} else {
		p.ModelNameOrPath = s
	}
	// model_patch must be a diff (a string) or null: a number or an object is
	// a mistake, not an empty patch.
	if v, ok := m["model_patch"]; ok && v != nil {
		if s, isStr := v.(string); isStr {
			p.ModelPatch = s
		} else {
			errs = append(errs, fieldError{"model_patch", fmt.Errorf("want a unified diff as a string, got %s", jsonKind(v))})
		}
	}
	_, hasPatch := m["model_patch"]
	_, hasFiles := m["files"]
	if !hasPatch && !hasFiles {
		errs = append(errs, fieldError{"model_patch", errors.New("missing: a prediction needs model_patch (a diff, \"\" for none) or files")})
	}
	if err := checkInstanceID(p.InstanceID); err != nil && !idBad {
		errs = append(errs, fieldError{"instance_id", err})
	}
	if v, ok := m["files"]; ok && v != nil {
		obj, isObj := v.(map[string]any)
		if !isObj {
			errs = append(errs, fieldError{"files", fmt.Errorf("want an object {path: content}, got %s", jsonKind(v))})
		} else {
			p.Files = make(map[string]string, len(obj))
			for k, c := range obj {
				s, isStr := c.(string)
				if !isStr {
					errs = append(errs, fieldError{"files", fmt.Errorf("%q: want the file content as a string, got %s", k, jsonKind(c))})
					continue
				}
				if err := checkRelPath(k); err != nil {
					errs = append(errs, fieldError{"files", err})
					continue
				}
				p.Files[k] = s
			}
		}
	}
	if p.ModelPatch != "" && len(p.Files) > 0 {
		errs = append(errs, fieldError{"files", errors.New("both model_patch and files are set; give one")})
	}
	if v, ok := m["run"]; ok && v != nil {
		n, err := toInt(v)
		if err != nil || n < 0 {
			errs = append(errs, fieldError{"run", fmt.Errorf("want a non-negative integer, got %v", v)})
		}
		p.Run = int(n)
	}
	floatField := func(name string) *float64 {
		v, ok := m[name]
		if !ok || v == nil {
			return nil
		}
		f, err := toFloat(v)
		if err != nil || f < 0 {
			errs = append(errs, fieldError{name, fmt.Errorf("want a non-negative number, got %v", v)})
			return nil
		}
		return &f
	}
	intField := func(name string) *int64 {
		v, ok := m[name]
		if !ok || v == nil {
			return nil
		}
		n, err := toInt(v)
		if err != nil || n < 0 {
			errs = append(errs, fieldError{name, fmt.Errorf("want a non-negative integer, got %v", v)})
			return nil
		}
		return &n
	}
	p.DurationS = floatField("duration_s")
	p.CostUSD = floatField("cost_usd")
	p.TokensIn = intField("tokens_in")
	p.TokensOut = intField("tokens_out")
	return p, errs
}

// checkRelPath rejects a file path that is not a clean relative path inside
// the repository.
func checkRelPath(p string) error {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) {
		return fmt.Errorf("%q: want a relative path inside the repository", p)
	}
	if c := path.Clean(p); c != p || c == "." || c == ".." || strings.HasPrefix(c, "../") {
		return fmt.Errorf("%q: want a clean relative path inside the repository", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".git" {
			return fmt.Errorf("%q: writes into .git", p)
		}
	}
	return nil
}

func toInt(v any) (int64, error) {
	switch x := v.(type) {
	case json.Number:
		return strconv.ParseInt(x.String(), 10, 64)
	case float64:
		if x != float64(int64(x)) {
			return 0, errors.New("not an integer")
		}
		return int64(x), nil
	case string:
		return strconv.ParseInt(strings.TrimSpace(x), 10, 64)
	}
	return 0, fmt.Errorf("got %s", jsonKind(v))
}

func toFloat(v any) (float64, error) {
	switch x := v.(type) {
	case json.Number:
		return x.Float64()
	case float64:
		return x, nil
	case string:
		return strconv.ParseFloat(strings.TrimSpace(x), 64)
	}
	return 0, fmt.Errorf("got %s", jsonKind(v))
}

// isMultiSWEPrediction tells a Multi-SWE-bench patch row ({org, repo,
// number, fix_patch}, its run_evaluation.py Patch) by its fields.
func isMultiSWEPrediction(m map[string]any) bool {
	_, org := m["org"]
	_, num := m["number"]
	_, fix := m["fix_patch"]
	_, model := m["model_patch"]
	return org && num && fix && !model
}

// fromMultiSWEPrediction rewrites a Multi-SWE-bench patch row into
// polynfi's prediction fields: instance_id "<org>__<repo>-<number>"
// (MultiSWEInstanceID, the id its dataset rows get), model_patch its
// fix_patch; the other fields (model_name_or_path when given) are kept.
// The errors name org, repo or number.
func fromMultiSWEPrediction(m map[string]any) (map[string]any, []fieldError) {
	var errs []fieldError
	name := func(k string) string {
		s, ok := m[k].(string)
		s = strings.TrimSpace(s)
		if !ok || s == "" || s == "." || s == ".." || strings.ContainsAny(s, "/ \t\n") {
			errs = append(errs, fieldError{k, fmt.Errorf("%v: want the GitHub %s name", m[k], k)})
		}
		return s
	}
	org, repo := name("org"), name("repo")
	n, ok := wholeNumber(m["number"])
	if !ok || n <= 0 {
		errs = append(errs, fieldError{"number", fmt.Errorf("%v: want the pull request's number, a positive whole number", m["number"])})
	}
	if len(errs) > 0 {
		return m, errs
	}
	out := make(map[string]any, len(m)+2)
	for k, v := range m {
		out[k] = v
	}
	out["instance_id"] = MultiSWEInstanceID(org, repo, n)
	out["model_patch"] = m["fix_patch"]
	return out, nil
}
