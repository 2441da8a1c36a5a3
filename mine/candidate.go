package mine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/polynfi/polynfi/internal/regfile"
	"github.com/polynfi/polynfi/nfi"
)

// Class is the classification of a PR-file pair by its human improvement
// I_p(h). Source: SWE-NFI §3.2 Stage 2 (positive / no change / regression /
// scorer error, 6,775 / 211,914 / 7,566 / 700 of 226,955 pairs); spec §5.4.
type Class string

// The four classes.
const (
	Positive    Class = "positive"     // some aspect has I_p > 0
	NoChange    Class = "no_change"    // every I_p = 0
	Regression  Class = "regression"   // every I_p ≤ 0 and some I_p < 0
	ScorerError Class = "scorer_error" // before or after could not be scored
)

// Classes lists the four classes in report order.
var Classes = [...]Class{Positive, NoChange, Regression, ScorerError}

// ParseClass accepts a class name.
func ParseClass(s string) (Class, error) {
	for _, c := range Classes {
		if string(c) == s {
			return c, nil
		}
	}
	return "", fmt.Errorf("unknown class %q (want positive, no_change, regression or scorer_error)", s)
}

// Classify returns the class of a scored change. A pair with a positive and
// a negative aspect is positive (the paper's criterion is "some I_p > 0").
func Classify(d nfi.Delta) Class {
	switch {
	case !d.Valid:
		return ScorerError
	case d.Improvement.Positive():
		return Positive
	case d.Improvement.Negative():
		return Regression
	}
	return NoChange
}

// Candidate is one PR-file pair with everything a reviewer needs. Before
// and After are the file's full text at the first parent and at the merged
// commit (invalid UTF-8 bytes become U+FFFD in JSON). Dates are ISO 8601
// with the committer's offset. Improvement holds I_p per aspect as fractions
// in [−1, 1] (reports multiply by 100); an aspect is absent when the catalog
// has no rule for it or a side has no score.
type Candidate struct {
	ID           string              `json:"id"` // repo@commit12:file, unique per pair
	Repo         string              `json:"repo"`
	Commit       string              `json:"commit"`
	Parent       string              `json:"parent"` // first parent: the base of the change
	Kind         string              `json:"kind"`   // merge or squash
	PRNumber     int                 `json:"pr_number,omitempty"`
	Subject      string              `json:"subject"` // the change's title (a merge's PR title)
	Body         string              `json:"body,omitempty"`
	Author       string              `json:"author"`
	AuthorEmail  string              `json:"author_email,omitempty"`
	Date         string              `json:"date"` // committer date: when the change was merged
	File         string              `json:"file"`
	OldFile      string              `json:"old_file,omitempty"` // set when the file was renamed
	FilesInPR    int                 `json:"files_in_change"`    // modified source files (Mineable) in the change
	Before       string              `json:"before"`
	After        string              `json:"after"`
	BeforeLines  int                 `json:"before_lines"`
	AfterLines   int                 `json:"after_lines"`
	AddedLines   int                 `json:"added_lines"`
	DeletedLines int                 `json:"deleted_lines"`
	SHA256       string              `json:"sha256"` // of (before, after), for de-duplication
	ScoresBefore nfi.Scores          `json:"scores_before"`
	ScoresAfter  nfi.Scores          `json:"scores_after"`
	Improvement  nfi.Improvement     `json:"improvement"`
	Flipped      []nfi.Flip          `json:"flipped,omitempty"`
	Keywords     map[string][]string `json:"keywords,omitempty"` // aspect code → matched patterns
	Class        Class               `json:"classification"`
	ScorerError  string              `json:"scorer_error,omitempty"` // why a side could not be scored
}

// ReadCandidates reads a candidates JSONL file (blank lines are skipped).
// Errors name the file, the line and, for a bad value, the field.
func ReadCandidates(path string) ([]Candidate, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeCandidates(path, f)
}

// DecodeCandidates reads candidates JSONL from r; name is used in errors.
func DecodeCandidates(name string, r io.Reader) ([]Candidate, error) {
	var out []Candidate
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	line := 0
	seen := map[string]int{}
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var c Candidate
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, describeJSONError(err))
		}
		if c.ID == "" {
			return nil, fmt.Errorf("%s:%d: field \"id\": missing", name, line)
		}
		if c.Repo == "" {
			return nil, fmt.Errorf("%s:%d: field \"repo\": missing", name, line)
		}
		if c.File == "" {
			return nil, fmt.Errorf("%s:%d: field \"file\": missing", name, line)
		}
		if prev, ok := seen[c.ID]; ok {
			return nil, fmt.Errorf("%s:%d: field \"id\": %q repeats line %d", name, line, c.ID, prev)
		}
		seen[c.ID] = line
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return out, nil
}

// describeJSONError names the field of a JSON type error.
func describeJSONError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("field %q: %s is not a valid %s", te.Field, te.Value, te.Type)
	}
	return err
}
