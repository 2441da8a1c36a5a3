package dataset

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/polynfi/polynfi/internal/regfile"
)

// rawRow is one row of a dataset or predictions file before decoding.
type rawRow struct {
	row, line int
	fields    map[string]any
	err       error // the row could not be read at all
}

// formatOf picks the container format from the file name.
func formatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return FormatCSV, nil
	case ".json":
		return FormatJSON, nil
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	case ".parquet", ".pq":
		return FormatParquet, nil
	}
	if _, err := os.Stat(path); err != nil && hubName.MatchString(path) {
		return "", fmt.Errorf("%s: no such file; it looks like a Hugging Face dataset name, and polynfi reads local files: download it first "+
			"(e.g. `huggingface-cli download %s --repo-type dataset --local-dir DIR`) and give its .parquet or .jsonl file", path, path)
	}
	return "", fmt.Errorf("%s: unknown dataset format %q (want .csv, .json, .jsonl or .parquet)", path, filepath.Ext(path))
}

// hubName matches a Hugging Face dataset name, OWNER/NAME (e.g.
// princeton-nlp/SWE-bench_Verified), as the Hub allows them.
var hubName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$`)

// readRows reads every row of path. A file-level problem (unreadable, not
// the format its name says) is an error; a bad row is a rawRow with err set.
func readRows(path string) (Format, []rawRow, error) {
	f, err := formatOf(path)
	if err != nil {
		return "", nil, err
	}
	var rows []rawRow
	switch f {
	case FormatCSV:
		rows, err = readCSV(path)
	case FormatParquet:
		rows, err = readParquet(path)
	default:
		var data []byte
		data, err = regfile.ReadFile(path)
		if err != nil {
			return f, nil, err
		}
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '[' {
			f = FormatJSON
			rows, err = readJSONList(path, data)
		} else {
			f = FormatJSONL
			rows = readJSONL(data)
		}
	}
	return f, rows, err
}

func readCSV(path string) ([]rawRow, error) {
	fh, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return readCSVFrom(path, bufio.NewReaderSize(fh, 1<<20))
}

func readCSVFrom(path string, in io.Reader) ([]rawRow, error) {
	r := csv.NewReader(in)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff")
	}
	seen := map[string]bool{}
	for _, h := range header {
		if seen[h] && h != "" {
			return nil, fmt.Errorf("%s: header: column %q appears twice", path, h)
		}
		seen[h] = true
	}
	var rows []rawRow
	n := 0
	for {
		before := r.InputOffset()
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		n++
		line := 0
		if err == nil && len(rec) > 0 {
			line, _ = r.FieldPos(0)
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
				err = pe.Err
			}
			rows = append(rows, rawRow{row: n, line: line, err: err})
			if r.InputOffset() == before {
				break // no progress: the rest of the file is unreadable
			}
			continue
		}
		if len(rec) != len(header) {
			rows = append(rows, rawRow{row: n, line: line, err: fmt.Errorf("has %d fields, the header has %d", len(rec), len(header))})
			continue
		}
		m := make(map[string]any, len(rec))
		for i, h := range header {
			if h == "" {
				continue // pandas' unnamed index column
			}
			m[h] = rec[i]
		}
		rows = append(rows, rawRow{row: n, line: line, fields: m})
	}
	return rows, nil
}

func readJSONList(path string, data []byte) ([]rawRow, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var rows []rawRow
	for n := 1; dec.More(); n++ {
		off := int(dec.InputOffset())
		for off < len(data) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
			off++
		}
		line := 1 + bytes.Count(data[:off], []byte("\n"))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return rows, fmt.Errorf("%s: row %d (line %d): %w", path, n, line, err)
		}
		m, err := decodeObject(raw)
		rows = append(rows, rawRow{row: n, line: line, fields: m, err: err})
	}
	if _, err := dec.Token(); err != nil {
		return rows, fmt.Errorf("%s: %w", path, err)
	}
	return rows, nil
}

func readJSONL(data []byte) []rawRow {
	var rows []rawRow
	n := 0
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		n++
		m, err := decodeObject(line)
		rows = append(rows, rawRow{row: n, line: i + 1, fields: m, err: err})
	}
	return rows
}

// decodeObject decodes one JSON object, numbers kept as json.Number.
func decodeObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value on the line")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want a JSON object, got %s", jsonKind(v))
	}
	return m, nil
}

func readParquet(path string) ([]rawRow, error) {
	fh, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(fh, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r := parquet.NewGenericReader[any](pf)
	defer r.Close()
	var rows []rawRow
	buf := make([]any, 64)
	n := 0
	for {
		k, err := r.Read(buf)
		for _, v := range buf[:k] {
			n++
			m, ok := v.(map[string]any)
			if !ok {
				rows = append(rows, rawRow{row: n, err: fmt.Errorf("want a record, got %T", v)})
				continue
			}
			rows = append(rows, rawRow{row: n, fields: m})
		}
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return rows, fmt.Errorf("%s: row %d: %w", path, n+1, err)
		}
		if k == 0 {
			return rows, nil
		}
	}
}

// detectSchema chooses the schema from the field names of the rows.
func detectSchema(rows []rawRow) Schema {
	for _, r := range rows {
		if r.fields == nil {
			continue
		}
		if _, ok := r.fields["polynfi_schema"]; ok {
			return SchemaPolynfi
		}
		if isMultiSWERow(r.fields) {
			return SchemaMultiSWEBench
		}
		if isProRow(r.fields) {
			return SchemaSWEBenchPro
		}
		if _, ok := r.fields["F2P"]; ok {
			return SchemaPolyBench
		}
		if _, ok := r.fields["P2P"]; ok {
			return SchemaPolyBench
		}
		if _, ok := r.fields["FAIL_TO_PASS"]; ok {
			return SchemaSWEBench
		}
		if _, ok := r.fields["eval_script"]; ok {
			return SchemaSWEBench
		}
		if _, ok := r.fields["Dockerfile"]; ok {
			return SchemaPolyBench
		}
	}
	return SchemaSWEBench
}

// Load reads a dataset of repository-level instances from path (.csv,
// .json, .jsonl or .parquet), or from a SWE-bench 5.x task repository when
// path is a directory (LoadTaskRepo). It returns an error only when the
// file as a whole cannot be read; malformed rows are in Dataset.Errors and
// the other rows are in Dataset.Instances, in file order. A second row
// with an instance_id already seen is an error on that row.
func Load(path string) (*Dataset, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return LoadTaskRepo(path)
	}
	f, rows, err := readRows(path)
	if err != nil && rows == nil {
		return nil, err
	}
	return buildDataset(path, f, rows, err), nil
}

// buildDataset decodes and validates read rows; err is a file-level error
// met after the rows (recorded as an error on the row after them).
func buildDataset(path string, f Format, rows []rawRow, err error) *Dataset {
	d := &Dataset{Path: path, Format: f, Schema: detectSchema(rows)}
	var fileErr *RowError
	if err != nil {
		fileErr = &RowError{File: path, Row: len(rows) + 1, Err: err}
		d.Errors = append(d.Errors, fileErr)
	}
	seen := map[string]int{}
	for _, r := range rows {
		if r.err != nil {
			re := &RowError{File: path, Row: r.row, Line: r.line, Err: r.err}
			d.Errors = append(d.Errors, re)
			d.Unread = append(d.Unread, UnreadRow{File: path, Row: r.row, Line: r.line, Errors: []*RowError{re}})
			continue
		}
		in, ferrs := decodeInstance(r.fields)
		in.Row = r.row
		if in.SWEBenchPro != nil && len(ferrs) == 0 {
			ferrs = finishPro(path, &in)
		}
		for _, fe := range ferrs {
			d.Errors = append(d.Errors, &RowError{File: path, Row: r.row, Line: r.line, InstanceID: in.InstanceID, Field: fe.field, Err: fe.err})
		}
		if len(ferrs) > 0 {
			d.Unread = append(d.Unread, unreadRow(path, r.row, r.line, in, r.fields, ferrs, d.Errors[len(d.Errors)-len(ferrs):]))
			continue
		}
		if first, dup := seen[in.InstanceID]; dup {
			d.Errors = append(d.Errors, &RowError{File: path, Row: r.row, Line: r.line, InstanceID: in.InstanceID, Field: "instance_id",
				Err: fmt.Errorf("%w of row %d", ErrDuplicate, first)})
			continue
		}
		seen[in.InstanceID] = r.row
		d.Instances = append(d.Instances, in)
	}
	if fileErr != nil {
		// The rest of the file could not be read: one unread row.
		d.Unread = append(d.Unread, UnreadRow{File: path, Row: fileErr.Row, Errors: []*RowError{fileErr}})
	}
	return d
}

// unreadRow describes a row whose fields were read but did not decode
// into an instance (ferrs, reported as errs): the instance id, language
// and task category are kept when their own field had no error.
func unreadRow(file string, row, line int, in Instance, fields map[string]any, ferrs []fieldError, errs []*RowError) UnreadRow {
	bad := map[string]bool{}
	for _, fe := range ferrs {
		bad[fe.field] = true
	}
	ok := func(name string) bool {
		_, n, _ := lookup(fields, name)
		return !bad[n]
	}
	u := UnreadRow{File: file, Row: row, Line: line, Errors: errs}
	if ok("instance_id") && checkInstanceID(in.InstanceID) == nil {
		u.InstanceID = in.InstanceID
	}
	if ok("language") {
		u.Language, u.LanguageRead = in.Language, true
	}
	if ok("task_category") {
		u.TaskCategory, u.TaskCategoryRead = in.TaskCategory, true
	}
	return u
}

// Kind is what the rows of a dataset file describe.
type Kind string

// Dataset kinds, told apart by their fields (see DetectKind).
const (
	KindInstances Kind = "instances" // repository-level instances (spec §1.1)
	KindNFITasks  Kind = "nfi_tasks" // SWE-NFI tasks (spec §1.2)
)

// DetectKind reads the first readable row of path and tells whether the
// file holds repository-level instances (a base_commit or patch field) or
// SWE-NFI tasks (an aspect and files or description, and no base_commit
// patch pair). An empty file is KindInstances.
func DetectKind(path string) (Kind, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		if !IsTaskRepo(path) {
			return "", fmt.Errorf("%s: a directory, but not a task repository (no tasks/ directory)", path)
		}
		return KindInstances, nil
	}
	_, rows, err := readRows(path)
	if err != nil && len(rows) == 0 {
		return "", err
	}
	for _, r := range rows {
		if r.fields == nil {
			continue
		}
		return kindOf(r.fields), nil
	}
	return KindInstances, nil
}

func kindOf(fields map[string]any) Kind {
	_, hasPatch := fields["patch"]
	_, hasBase := fields["base_commit"]
	_, hasAspect := fields["aspect"]
	_, hasFiles := fields["files"]
	_, hasDesc := fields["description"]
	if !hasPatch && hasAspect && (hasFiles || hasDesc) {
		return KindNFITasks
	}
	if !hasPatch && !hasBase && hasFiles && hasDesc {
		return KindNFITasks
	}
	return KindInstances
}
