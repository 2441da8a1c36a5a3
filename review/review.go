// Package review prepares mined candidates for human review and measures
// the agreement of two reviewers: it exports candidates as CSV and JSONL
// sheets with empty label columns, reads labelled sheets back (CSV or JSONL)
// and computes Cohen's κ with the confusion table (SWE-NFI §3.2: two
// reviewers, κ = 0.71). It never prints.
package review

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
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/internal/regfile"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/mine"
	"github.com/polynfi/polynfi/nfi"
)

// Label values.
const (
	Accept = "accept" // the pair is a real non-functional improvement worth a task
	Reject = "reject"
)

// Item is one row of a review sheet. Improvement holds I_p per aspect in
// percentage points (one decimal), as reviewers read them. Label, Aspect and
// Note are the reviewer's columns, empty on export.
type Item struct {
	ID          string             `json:"id"`
	Repo        string             `json:"repo"`
	Commit      string             `json:"commit"`
	PRNumber    int                `json:"pr_number,omitempty"`
	File        string             `json:"file"`
	Subject     string             `json:"subject"`
	Improvement map[string]float64 `json:"improvement_pp"`
	Flipped     string             `json:"flipped"`  // "DOC-R04+ ERR-P01-": + now passes, − now fails
	Keywords    string             `json:"keywords"` // "DOC:docstring*; ERR:except*"
	Diff        string             `json:"diff"`     // unified-diff excerpt
	Label       string             `json:"label"`    // accept | reject
	Aspect      string             `json:"aspect"`   // the improved aspect, DOC|ERR|LIB|STY|LOG
	Note        string             `json:"note"`
}

// NewItem builds the review row of a candidate with a diff excerpt of at
// most excerptLines lines (0: the whole diff) and 3 lines of context.
func NewItem(c mine.Candidate, excerptLines int) Item {
	it := Item{ID: c.ID, Repo: c.Repo, Commit: c.Commit, PRNumber: c.PRNumber, File: c.File, Subject: c.Subject,
		Improvement: map[string]float64{}}
	for _, a := range nfi.Aspects {
		if v, ok := c.Improvement.Points(a); ok {
			it.Improvement[a.Code()] = v
		}
	}
	var fl []string
	for _, f := range c.Flipped {
		sign := "-"
		if f.After {
			sign = "+"
		}
		fl = append(fl, f.ID+sign)
	}
	it.Flipped = strings.Join(fl, " ")
	var kw []string
	for _, a := range nfi.Aspects {
		if ps := c.Keywords[a.Code()]; len(ps) > 0 {
			kw = append(kw, a.Code()+":"+strings.Join(ps, ","))
		}
	}
	it.Keywords = strings.Join(kw, "; ")
	it.Diff = mine.UnifiedDiff(c.File, mine.LineDiff(mine.SplitLines(c.Before), mine.SplitLines(c.After)), 3, excerptLines)
	return it
}

// csvHeader is the column order of review sheets.
var csvHeader = []string{"id", "repo", "commit", "pr_number", "file", "subject",
	"I_DOC", "I_ERR", "I_LIB", "I_STY", "I_LOG", "flipped", "keywords", "diff", "label", "aspect", "note"}

// WriteCSV writes items as a CSV sheet with a header row.
func WriteCSV(w io.Writer, items []Item) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, it := range items {
		// text cells come from mined repositories (a commit subject, a
		// file name, a diff): one that starts like a formula is shown as
		// text, not computed (textesc.CSV); ReadLabels undoes it
		csvCell := textesc.CSV
		row := []string{csvCell(it.ID), csvCell(it.Repo), csvCell(it.Commit), "", csvCell(it.File), csvCell(it.Subject)}
		if it.PRNumber > 0 {
			row[3] = strconv.Itoa(it.PRNumber)
		}
		for _, a := range nfi.Aspects {
			if v, ok := it.Improvement[a.Code()]; ok {
				row = append(row, strconv.FormatFloat(v, 'f', 1, 64))
			} else {
				row = append(row, "")
			}
		}
		row = append(row, csvCell(it.Flipped), csvCell(it.Keywords), csvCell(it.Diff), csvCell(it.Label), csvCell(it.Aspect), csvCell(it.Note))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSONL writes items one JSON object per line.
func WriteJSONL(w io.Writer, items []Item) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			return err
		}
	}
	return nil
}

// Export writes one CSV and one JSONL sheet per reviewer into dir
// (review_<name>.csv, review_<name>.jsonl) and returns the paths written.
func Export(dir string, reviewers []string, items []Item) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, r := range reviewers {
		for _, kind := range []string{"csv", "jsonl"} {
			p := filepath.Join(dir, fmt.Sprintf("review_%s.%s", r, kind))
			var buf bytes.Buffer
			var err error
			if kind == "csv" {
				err = WriteCSV(&buf, items)
			} else {
				err = WriteJSONL(&buf, items)
			}
			if err != nil {
				return paths, err
			}
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				return paths, err
			}
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// Label is one reviewer's verdict on one item. Line is the 1-based line (or
// CSV record) it came from.
type Label struct {
	ID     string
	Label  string // accept | reject
	Aspect string // aspect code or ""
	Note   string
	Line   int
}

// ReadLabels reads a labelled sheet: CSV (by the .csv extension, a header
// with at least id and label columns) or JSONL (objects with id and label).
// Every row must have a known label (accept or reject, case-insensitive) and
// an aspect, when given, must be an aspect code or name. Errors name the
// file, the line and the field.
func ReadLabels(path string) ([]Label, error) {
	data, err := regfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ls []Label
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		ls, err = parseCSVLabels(path, data)
	} else {
		ls, err = parseJSONLLabels(path, data)
	}
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	for i := range ls {
		l := &ls[i]
		if l.ID == "" {
			return nil, fmt.Errorf("%s:%d: field \"id\": empty", path, l.Line)
		}
		if prev, ok := seen[l.ID]; ok {
			return nil, fmt.Errorf("%s:%d: field \"id\": %q repeats line %d", path, l.Line, l.ID, prev)
		}
		seen[l.ID] = l.Line
		switch v := strings.ToLower(strings.TrimSpace(l.Label)); v {
		case Accept, Reject:
			l.Label = v
		case "":
			return nil, fmt.Errorf("%s:%d: field \"label\": item %s is not labelled (want accept or reject)", path, l.Line, l.ID)
		default:
			return nil, fmt.Errorf("%s:%d: field \"label\": unknown label %q (want accept or reject)", path, l.Line, l.Label)
		}
		if s := strings.TrimSpace(l.Aspect); s != "" {
			a, err := nfi.ParseAspect(s)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: field \"aspect\": %w", path, l.Line, err)
			}
			l.Aspect = a.Code()
		}
	}
	return ls, nil
}

func parseCSVLabels(path string, data []byte) ([]Label, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s:1: header: %w", path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	for _, need := range []string{"id", "label"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("%s:1: header has no %q column", path, need)
		}
	}
	get := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	var out []Label
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		out = append(out, Label{ID: strings.TrimSpace(textesc.UnCSV(get(rec, "id"))), Label: textesc.UnCSV(get(rec, "label")),
			Aspect: textesc.UnCSV(get(rec, "aspect")), Note: textesc.UnCSV(get(rec, "note")), Line: line})
	}
	return out, nil
}

func parseJSONLLabels(path string, data []byte) ([]Label, error) {
	var out []Label
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var v struct {
			ID     *string `json:"id"`
			Label  *string `json:"label"`
			Aspect string  `json:"aspect"`
			Note   string  `json:"note"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return nil, fmt.Errorf("%s:%d: field %q: %s is not a %s", path, line, te.Field, te.Value, te.Type)
			}
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if v.ID == nil {
			return nil, fmt.Errorf("%s:%d: field \"id\": missing", path, line)
		}
		if v.Label == nil {
			return nil, fmt.Errorf("%s:%d: field \"label\": missing", path, line)
		}
		out = append(out, Label{ID: *v.ID, Label: *v.Label, Aspect: v.Aspect, Note: v.Note, Line: line})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	return out, nil
}

// Agreement is the agreement of two reviewers on the items both labelled.
// Table[i][j] counts items that A put in Categories[i] and B in
// Categories[j]. Observed is p_o and Expected p_e, both in [0, 1]. Kappa is
// in [−1, 1] and defined (Defined true) unless p_e = 1 (both reviewers used
// one and the same category for every item).
type Agreement struct {
	N          int       `json:"n"`
	Categories []string  `json:"categories"`
	Table      [][]int   `json:"table"`
	Observed   float64   `json:"observed"`
	Expected   float64   `json:"expected"`
	Kappa      float64   `json:"kappa"`
	Defined    bool      `json:"defined"`
	Skipped    int       `json:"skipped,omitempty"` // items without a value for the compared field
	Field      string    `json:"field"`
	Accepted   *Accepted `json:"accepted,omitempty"`
}

// Accepted counts the items each reviewer and both accepted.
type Accepted struct {
	A    int `json:"a"`
	B    int `json:"b"`
	Both int `json:"both"`
}

// MismatchError reports ids labelled by one reviewer only.
type MismatchError struct {
	OnlyA, OnlyB []string
	NameA, NameB string
}

func (e *MismatchError) Error() string {
	var parts []string
	list := func(ids []string) string {
		if len(ids) > 5 {
			return strings.Join(ids[:5], ", ") + fmt.Sprintf(", ... (%d more)", len(ids)-5)
		}
		return strings.Join(ids, ", ")
	}
	if len(e.OnlyA) > 0 {
		parts = append(parts, fmt.Sprintf("%d ids only in %s: %s", len(e.OnlyA), e.NameA, list(e.OnlyA)))
	}
	if len(e.OnlyB) > 0 {
		parts = append(parts, fmt.Sprintf("%d ids only in %s: %s", len(e.OnlyB), e.NameB, list(e.OnlyB)))
	}
	return "unmatched ids: " + strings.Join(parts, "; ")
}

// Kappa matches a and b by id and computes Cohen's κ on field ("label" or
// "aspect"): κ = (p_o − p_e) / (1 − p_e), with p_o the share of items on
// which the reviewers agree and p_e = Σ_k (A's share of k)(B's share of k).
// For "aspect", items where either reviewer gave no aspect are skipped and
// counted. Every id must be labelled by both reviewers, else a
// *MismatchError; nameA and nameB name them in errors.
// Source: J. Cohen, "A coefficient of agreement for nominal scales",
// Educational and Psychological Measurement 20(1):37–46, 1960.
func Kappa(a, b []Label, field, nameA, nameB string) (Agreement, error) {
	if field != "label" && field != "aspect" {
		return Agreement{}, fmt.Errorf("unknown field %q (want label or aspect)", field)
	}
	bm := map[string]Label{}
	for _, l := range b {
		bm[l.ID] = l
	}
	am := map[string]bool{}
	mm := &MismatchError{NameA: nameA, NameB: nameB}
	for _, l := range a {
		am[l.ID] = true
		if _, ok := bm[l.ID]; !ok {
			mm.OnlyA = append(mm.OnlyA, l.ID)
		}
	}
	for _, l := range b {
		if !am[l.ID] {
			mm.OnlyB = append(mm.OnlyB, l.ID)
		}
	}
	if len(mm.OnlyA)+len(mm.OnlyB) > 0 {
		return Agreement{}, mm
	}
	value := func(l Label) string {
		if field == "aspect" {
			return l.Aspect
		}
		return l.Label
	}
	ag := Agreement{Field: field}
	if field == "label" {
		ag.Categories = []string{Accept, Reject}
		ag.Accepted = &Accepted{}
	} else {
		for _, x := range nfi.Aspects {
			ag.Categories = append(ag.Categories, x.Code())
		}
	}
	idx := map[string]int{}
	for i, c := range ag.Categories {
		idx[c] = i
	}
	k := len(ag.Categories)
	ag.Table = make([][]int, k)
	for i := range ag.Table {
		ag.Table[i] = make([]int, k)
	}
	for _, la := range a {
		lb := bm[la.ID]
		va, vb := value(la), value(lb)
		if va == "" || vb == "" {
			ag.Skipped++
			continue
		}
		ag.Table[idx[va]][idx[vb]]++
		ag.N++
		if ag.Accepted != nil {
			if va == Accept {
				ag.Accepted.A++
			}
			if vb == Accept {
				ag.Accepted.B++
			}
			if va == Accept && vb == Accept {
				ag.Accepted.Both++
			}
		}
	}
	if ag.N == 0 {
		return ag, nil
	}
	n := float64(ag.N)
	for i := range k {
		ag.Observed += float64(ag.Table[i][i]) / n
		row, col := 0, 0
		for j := range k {
			row += ag.Table[i][j]
			col += ag.Table[j][i]
		}
		ag.Expected += float64(row) / n * float64(col) / n
	}
	if ag.Expected < 1-1e-12 {
		ag.Kappa = (ag.Observed - ag.Expected) / (1 - ag.Expected)
		ag.Defined = true
	}
	return ag, nil
}
