package review

import (
	"github.com/polynfi/polynfi/mine"
)

// DecideReport counts how the sheets' labels were combined.
type DecideReport struct {
	Items           int `json:"items"`
	Accepted        int `json:"accepted"`
	Disagreements   int `json:"disagreements"`    // some reviewer accepted, another rejected
	AspectConflicts int `json:"aspect_conflicts"` // all accepted but named different aspects
}

// Decide combines one or more labelled sheets into decisions: an item is
// accepted when every sheet accepts it and the aspects given (if any) are
// all the same; accepted by some and rejected by others, or accepted with
// different aspects, it is not accepted (counted as a disagreement or an
// aspect conflict). With two or more sheets every id must be in every sheet,
// else a *MismatchError; names name the sheets in errors.
func Decide(sheets [][]Label, names []string) (map[string]mine.Decision, DecideReport, error) {
	var rep DecideReport
	for i := 1; i < len(sheets); i++ {
		if _, err := Kappa(sheets[0], sheets[i], "label", names[0], names[i]); err != nil {
			return nil, rep, err
		}
	}
	out := map[string]mine.Decision{}
	if len(sheets) == 0 {
		return out, rep, nil
	}
	byID := make([]map[string]Label, len(sheets))
	for i, s := range sheets {
		byID[i] = map[string]Label{}
		for _, l := range s {
			byID[i][l.ID] = l
		}
	}
	for _, l0 := range sheets[0] {
		rep.Items++
		accepts, aspect, conflict := 0, "", false
		for i := range sheets {
			l := byID[i][l0.ID]
			if l.Label == Accept {
				accepts++
			}
			if l.Aspect != "" {
				if aspect != "" && aspect != l.Aspect {
					conflict = true
				}
				aspect = l.Aspect
			}
		}
		d := mine.Decision{}
		switch {
		case accepts == 0:
		case accepts < len(sheets):
			rep.Disagreements++
		case conflict:
			rep.AspectConflicts++
		default:
			d = mine.Decision{Accept: true, Aspect: aspect}
			rep.Accepted++
		}
		out[l0.ID] = d
	}
	return out, rep, nil
}
