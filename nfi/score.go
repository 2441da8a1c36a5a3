package nfi

import (
	"encoding/json"
	"fmt"
	"math"
)

// Scores holds S_p for each aspect (Eq. 1), each in [0, 1]. An aspect with no
// selected rule, or a version with no valid file, has no score (Has false).
// Source: SWE-NFI Eq. 1, S_p(c) = P_p(c) / T_p.
type Scores struct {
	v   [numAspects]float64
	has [numAspects]bool
}

func (s *Scores) set(a Aspect, v float64) { s.v[a], s.has[a] = v, true }

// Get returns S_p of aspect a; ok is false when the aspect has no score.
func (s Scores) Get(a Aspect) (v float64, ok bool) { return s.v[a], s.has[a] }

// MarshalJSON writes {"DOC": 0.75, ...} with only the scored aspects.
func (s Scores) MarshalJSON() ([]byte, error) {
	m := map[string]float64{}
	for _, a := range Aspects {
		if s.has[a] {
			m[a.Code()] = s.v[a]
		}
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads the MarshalJSON form.
func (s *Scores) UnmarshalJSON(b []byte) error {
	var m map[string]float64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*s = Scores{}
	for k, v := range m {
		a, err := ParseAspect(k)
		if err != nil {
			return err
		}
		s.set(a, v)
	}
	return nil
}

// NewScores builds Scores from a map keyed by aspect (for tests and loaders).
func NewScores(m map[Aspect]float64) Scores {
	var s Scores
	for a, v := range m {
		s.set(a, v)
	}
	return s
}

// FileError locates why a file could not be scored. Line and Column are
// 1-based; for a syntax error they are CPython's (SyntaxError.lineno and
// .offset: the column counts characters; 0 or less where CPython reports
// that, as for a decimal literal past the 4,300-digit limit) and Message is
// CPython's message.
type FileError struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

func (e *FileError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Message) }

// RuleResult is one rule's verdict on one file. Value is the measured value of
// a threshold rule (max or min over blocks, see Pass.Measure), when measured.
type RuleResult struct {
	ID          string       `json:"id"`
	Aspect      Aspect       `json:"aspect"`
	Passed      bool         `json:"passed"`
	Value       *float64     `json:"value,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
}

// FileScore is the result of scoring one file. When Valid is false, Scores and
// Rules are empty and Error says why (Status names the class of problem).
type FileScore struct {
	Path   string     `json:"path"`
	Valid  bool       `json:"valid"`
	Status string     `json:"status"`
	Error  *FileError `json:"error,omitempty"`
	Bytes  int        `json:"bytes"`
	// Lines is the number of lines as editors and `wc -l` count them: the
	// line breaks, plus one for a last line without one (0 for an empty
	// file); set for valid files.
	Lines  int          `json:"lines,omitempty"`
	Scores Scores       `json:"scores"`
	Rules  []RuleResult `json:"rules,omitempty"`
	// Suppressed counts the diagnostics that suppressions silenced (they
	// stay in Rules, marked; see Diagnostic.Suppressed). Set only when the
	// Engine honours suppressions.
	Suppressed int `json:"suppressed,omitempty"`
	// UnusedSuppressions lists the `# noqa` codes naming polynfi rules (and
	// file-level `# polynfi: noqa` comments) that silenced nothing.
	UnusedSuppressions []UnusedSuppression `json:"unused_suppressions,omitempty"`
}

// Rescore sets fs.Scores from fs.Rules: per aspect, the rules that passed
// over the rules run (SWE-NFI Eq. 1), in [0, 1]. It is for a caller that
// changed a verdict in fs.Rules (the PR gate counting the findings that
// suppressions added by the change silence); an invalid file is left as is.
func (fs *FileScore) Rescore() {
	if !fs.Valid {
		return
	}
	var passed, total [numAspects]int
	for _, r := range fs.Rules {
		total[r.Aspect]++
		if r.Passed {
			passed[r.Aspect]++
		}
	}
	fs.Scores = Scores{}
	for _, a := range Aspects {
		if total[a] > 0 {
			fs.Scores.set(a, float64(passed[a])/float64(total[a]))
		}
	}
}

// Rule returns the result of rule id; ok is false when it did not run.
func (f FileScore) Rule(id string) (RuleResult, bool) {
	for _, r := range f.Rules {
		if r.ID == id {
			return r, true
		}
	}
	return RuleResult{}, false
}

// MeanScores is S_p of a multi-file version: per aspect, the mean over the
// valid files. ok is false when no file is valid.
// Source: polynfi evaluation spec §3 ("Multi-file: S_p of a version = mean
// over the task's target files present in that version").
func MeanScores(files []FileScore) (s Scores, ok bool) {
	var sum [numAspects]float64
	var n [numAspects]int
	for _, f := range files {
		if !f.Valid {
			continue
		}
		ok = true
		for _, a := range Aspects {
			if v, has := f.Scores.Get(a); has {
				sum[a] += v
				n[a]++
			}
		}
	}
	for _, a := range Aspects {
		if n[a] > 0 {
			s.set(a, sum[a]/float64(n[a]))
		}
	}
	return s, ok
}

// Improvement is I_p = S_p(after) − S_p(before) per aspect (Eq. 2), a
// fraction in [−1, 1]; reports multiply by 100 (percentage points).
// Source: SWE-NFI Eq. 2 and 3.
type Improvement struct {
	v   [numAspects]float64
	has [numAspects]bool
}

// Get returns I_p of aspect a; ok is false when either side has no score.
func (im Improvement) Get(a Aspect) (v float64, ok bool) { return im.v[a], im.has[a] }

// Points returns I_p × 100 rounded to one decimal, as the paper reports it.
func (im Improvement) Points(a Aspect) (float64, bool) {
	v, ok := im.Get(a)
	return math.Round(v*1000) / 10, ok
}

// Positive reports whether some aspect improved (the paper's selection criterion I_p(h) > 0).
func (im Improvement) Positive() bool {
	for _, a := range Aspects {
		if im.has[a] && im.v[a] > 1e-12 {
			return true
		}
	}
	return false
}

// Negative reports whether some aspect got worse.
func (im Improvement) Negative() bool {
	for _, a := range Aspects {
		if im.has[a] && im.v[a] < -1e-12 {
			return true
		}
	}
	return false
}

// MarshalJSON writes {"DOC": 0.05, ...} (fractions).
func (im Improvement) MarshalJSON() ([]byte, error) {
	m := map[string]float64{}
	for _, a := range Aspects {
		if im.has[a] {
			m[a.Code()] = im.v[a]
		}
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads the MarshalJSON form.
func (im *Improvement) UnmarshalJSON(b []byte) error {
	var m map[string]float64
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*im = Improvement{}
	for k, v := range m {
		a, err := ParseAspect(k)
		if err != nil {
			return err
		}
		im.v[a], im.has[a] = v, true
	}
	return nil
}

// Improve computes I_p = after − before for every aspect scored on both sides (Eq. 2).
func Improve(before, after Scores) Improvement {
	var im Improvement
	for _, a := range Aspects {
		b, ok1 := before.Get(a)
		c, ok2 := after.Get(a)
		if ok1 && ok2 {
			im.v[a], im.has[a] = c-b, true
		}
	}
	return im
}

// Flip is a rule whose verdict differs between two versions of a file.
type Flip struct {
	Path   string `json:"path,omitempty"`
	ID     string `json:"id"`
	Aspect Aspect `json:"aspect"`
	Before bool   `json:"before"` // passed before
	After  bool   `json:"after"`  // passed after
}

// Delta is the result of Compare.
type Delta struct {
	Before      Scores      `json:"before"`
	After       Scores      `json:"after"`
	Improvement Improvement `json:"improvement"`
	Flips       []Flip      `json:"flipped,omitempty"`
	// Valid is false when the comparison is undefined: a version has no
	// valid file, or some file of either version could not be scored (see
	// Compare). Then Before and After hold the means over the valid files
	// of each side (for display only) and Improvement is empty.
	Valid bool `json:"valid"`
	// Invalid lists every file that could not be scored, each with the
	// version it belongs to, before-version files first.
	Invalid []InvalidFile `json:"invalid_files,omitempty"`
}

// Version names the side of a comparison a file belongs to.
type Version string

// The two sides of a comparison.
const (
	VersionBefore Version = "before"
	VersionAfter  Version = "after"
)

// InvalidFile is a file of one side of a comparison that could not be
// scored (syntax error, binary, encoding, size or read error).
type InvalidFile struct {
	Path    string     `json:"path"`
	Version Version    `json:"version"`
	Status  string     `json:"status"`
	Error   *FileError `json:"error,omitempty"`
}

// Compare scores a change: before and after are the versions of the same
// files (matched by Path; a file absent on one side contributes only to the
// other side's mean).
//
// Broken code: I_p is defined only when every file of both versions could
// be scored. A file that does not parse (or is binary, undecodable, too
// large or unreadable) has no score (spec §3), and leaving it out of its
// version's mean would reward breaking it (the broken file's failures
// vanish from the after mean). So any invalid file, on either side, makes
// the comparison undefined: Valid is false, Improvement is empty and
// Invalid names each such file with its version. This is the one rule
// every user of I_p shares: polynfi diff (exit 1), the NFI suite (an
// unparsable output is invalid), mining (a scorer_error) and the harness's
// NFI delta.
//
// Source: SWE-NFI Eq. 2, 3; polynfi evaluation spec §3 (multi-file mean,
// "a file that does not parse has no score; the output is invalid").
func Compare(before, after []FileScore) Delta {
	var c Delta
	var okB, okA bool
	c.Before, okB = MeanScores(before)
	c.After, okA = MeanScores(after)
	for _, side := range []struct {
		v     Version
		files []FileScore
	}{{VersionBefore, before}, {VersionAfter, after}} {
		for _, f := range side.files {
			if !f.Valid {
				c.Invalid = append(c.Invalid, InvalidFile{Path: f.Path, Version: side.v, Status: f.Status, Error: f.Error})
			}
		}
	}
	c.Valid = okB && okA && len(c.Invalid) == 0
	if c.Valid {
		c.Improvement = Improve(c.Before, c.After)
	}
	byPath := map[string]*FileScore{}
	for i := range before {
		byPath[before[i].Path] = &before[i]
	}
	for _, fa := range after {
		fb, ok := byPath[fa.Path]
		if !ok || !fb.Valid || !fa.Valid {
			continue
		}
		for _, ra := range fa.Rules {
			if rb, ok := fb.Rule(ra.ID); ok && rb.Passed != ra.Passed {
				c.Flips = append(c.Flips, Flip{Path: fa.Path, ID: ra.ID, Aspect: ra.Aspect, Before: rb.Passed, After: ra.Passed})
			}
		}
	}
	return c
}
