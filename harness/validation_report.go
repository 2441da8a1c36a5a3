package harness

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/polynfi/polynfi/internal/regfile"
)

// validate's report (validation.json) and the subset of a dataset that
// holds (valid.<ext>): moved from internal/cli (#25 item 7c).

// ValidationFile is the name of the validation report in validate's output
// directory; eval --validation reads it.
const ValidationFile = "validation.json"

// ValidationReport is what validate writes to OUT/validation.json.
type ValidationReport struct {
	Dataset   string               `json:"dataset"`
	Runs      int                  `json:"runs"`
	Total     int                  `json:"total"`
	Holding   int                  `json:"holding"`
	Subset    string               `json:"subset,omitempty"`
	Instances []InstanceValidation `json:"instances"`
	Started   time.Time            `json:"started_at"`
	ElapsedS  float64              `json:"elapsed_s"`
}

// WriteSubset writes the rows of the dataset file whose instance_id is in
// keep to out/valid.<ext>, in the file's own format (CSV, JSON list,
// JSONL), and returns its path.
func WriteSubset(file, out string, keep map[string]bool) (string, error) {
	ext := strings.ToLower(filepath.Ext(file))
	data, err := regfile.ReadFile(file)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(out, "valid"+ext)
	var buf bytes.Buffer
	switch ext {
	case ".csv":
		r := csv.NewReader(bytes.NewReader(data))
		r.FieldsPerRecord = -1
		rows, err := r.ReadAll()
		if err != nil || len(rows) == 0 {
			return "", fmt.Errorf("%s: %v", file, err)
		}
		col := -1
		for i, h := range rows[0] {
			if strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")) == "instance_id" {
				col = i
			}
		}
		if col < 0 {
			return "", fmt.Errorf("%s: no instance_id column", file)
		}
		w := csv.NewWriter(&buf)
		_ = w.Write(rows[0])
		for _, row := range rows[1:] {
			if col < len(row) && keep[row[col]] {
				_ = w.Write(row)
			}
		}
		w.Flush()
	case ".jsonl":
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		for sc.Scan() {
			var row struct {
				InstanceID string `json:"instance_id"`
			}
			if json.Unmarshal(sc.Bytes(), &row) == nil && keep[row.InstanceID] {
				buf.Write(sc.Bytes())
				buf.WriteByte('\n')
			}
		}
	case ".json":
		var rows []json.RawMessage
		if err := json.Unmarshal(data, &rows); err != nil {
			return "", fmt.Errorf("%s: want a JSON list of rows: %v", file, err)
		}
		var kept []json.RawMessage
		for _, r := range rows {
			var row struct {
				InstanceID string `json:"instance_id"`
			}
			if json.Unmarshal(r, &row) == nil && keep[row.InstanceID] {
				kept = append(kept, r)
			}
		}
		b, _ := json.MarshalIndent(kept, "", "  ")
		buf.Write(b)
		buf.WriteByte('\n')
	default:
		return "", fmt.Errorf("%s: the subset is written for CSV, JSON and JSONL datasets only", file)
	}
	if err := WriteFileAtomic(dst, buf.Bytes()); err != nil {
		return "", err
	}
	return dst, nil
}

// LoadValidation reads a validation report (validate's validation.json)
// into the map eval's harness uses.
func LoadValidation(file string) (map[string]Validation, error) {
	f, err := regfile.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rep ValidationReport
	if err := json.NewDecoder(io.LimitReader(f, 1<<30)).Decode(&rep); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	m := map[string]Validation{}
	for _, v := range rep.Instances {
		m[v.InstanceID] = v.Validation
	}
	return m, nil
}
