package driver

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/nfi"
)

// Gates is the parsed set of gates in force (GateOptions.Gates).
type Gates struct {
	regression map[nfi.Aspect]bool // empty map: none; all aspects when any is true for "regression"
	anyRegress bool
	newFinding bool
	invalid    bool
	under      map[nfi.Aspect]float64
	allowNew   bool // see GateOptions.AllowNew
}

// GateOptions are the gates asked for on the command line: --fail-on,
// --fail-under and --allow-new-suppressions.
type GateOptions struct {
	// FailOn are regression, regression:ASPECT, new-findings or invalid.
	FailOn []string
	// FailUnder are ASPECT=VALUE, VALUE an S_p in [0, 1].
	FailUnder []string
	// AllowNew honours the suppression comments a change adds (by
	// default the comparison gates count the findings they silence).
	AllowNew bool
}

// Gates combines the options with the settings' [gate] table. compare tells
// whether the command compares two versions (regression and new-findings
// need a comparison: diff, or score --diff-base); asked for without one,
// they are usage errors, as is a malformed --fail-on or --fail-under.
func (g *GateOptions) Gates(s nfi.Settings, compare bool) (Gates, error) {
	out := Gates{regression: map[nfi.Aspect]bool{}, under: map[nfi.Aspect]float64{}, allowNew: g.AllowNew}
	// The settings' comparison gates (regression, new-findings) apply
	// where there is a comparison and are skipped elsewhere; given as
	// flags without one they are usage errors.
	fromSettings := len(s.Gate.FailOn)
	for n, c := range append(append([]string(nil), s.Gate.FailOn...), g.FailOn...) {
		name, arg, _ := strings.Cut(strings.ToLower(strings.TrimSpace(c)), ":")
		if !compare && n < fromSettings && (name == "regression" || name == "new-findings") {
			continue
		}
		switch name {
		case "regression":
			if !compare {
				return out, usagef("--fail-on %s: needs a comparison (polynfi diff, or score --diff-base)", c)
			}
			if arg == "" {
				out.anyRegress = true
				continue
			}
			a, err := nfi.ParseAspect(strings.ToUpper(arg))
			if err != nil {
				return out, usagef("--fail-on %s: %v", c, err)
			}
			out.regression[a] = true
		case "new-findings":
			if !compare {
				return out, usagef("--fail-on %s: needs a comparison (polynfi diff, or score --diff-base)", c)
			}
			out.newFinding = true
		case "invalid":
			out.invalid = true
		default:
			return out, usagef("--fail-on %q: want regression, regression:ASPECT, new-findings or invalid", c)
		}
	}
	set := func(code string, v float64, where string) error {
		a, err := nfi.ParseAspect(strings.ToUpper(strings.TrimSpace(code)))
		if err != nil {
			return usagef("%s %s: %v", where, code, err)
		}
		if v < 0 || v > 1 || v != v {
			return usagef("%s %s=%v: want S_p in [0, 1]", where, code, v)
		}
		out.under[a] = v
		return nil
	}
	for code, v := range s.Gate.FailUnder {
		if err := set(code, v, "[gate] fail-under"); err != nil {
			return out, err
		}
	}
	for _, f := range g.FailUnder {
		code, val, ok := strings.Cut(f, "=")
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if !ok || err != nil {
			return out, usagef("--fail-under %q: want ASPECT=VALUE, e.g. DOC=0.8", f)
		}
		if err := set(code, v, "--fail-under"); err != nil {
			return out, err
		}
	}
	return out, nil
}

// Check returns the gates c trips, each as a sentence; it first fills
// c's file-by-file view (fileView: file regressions, splits, new
// suppressions), which the reports show whether a gate is on or not.
//
// regression trips when some aspect's I_p (the published mean, SWE-NFI
// Eq. 2) is below 0, when the comparison is undefined, or when a file's
// own S_p of the aspect falls (a file in both versions, renames
// followed, or an added file split from a file of the change), whatever
// the mean does. new-findings trips on a new finding that counts, or on
// a finding silenced by a suppression comment the change adds (unless
// allowNew).
func (g Gates) Check(c *Comparison) []string {
	var failed []string
	if !g.allowNew {
		c.CountNewSuppressions()
	}
	c.fileView(g.allowNew)
	out := c.Out
	if g.invalid {
		for _, f := range out.Invalid {
			if f.Version == nfi.VersionAfter {
				msg := fmt.Sprintf("invalid: %s (%s) cannot be scored", f.Path, f.Status)
				if f.Error != nil {
					msg += fmt.Sprintf(": %s:%d:%d: %s", displayPath(c.afterPath(f.Path)), max(f.Error.Line, 1), max(f.Error.Column, 1), f.Error.Message)
				}
				failed = append(failed, msg)
			}
		}
	}
	if g.anyRegress || len(g.regression) > 0 {
		if len(out.Invalid) > 0 {
			failed = append(failed, "regression: the comparison is undefined (a file cannot be scored)")
		} else if out.Valid {
			for _, a := range nfi.Aspects {
				if !g.anyRegress && !g.regression[a] {
					continue
				}
				if v, ok := out.Improvement.Get(a); ok && v < -1e-12 {
					p, _ := out.Improvement.Points(a)
					failed = append(failed, fmt.Sprintf("regression: %s I_p %+.1f pp", a.Code(), p))
				}
			}
		}
		for _, r := range out.FileRegressions {
			if a, err := nfi.ParseAspect(r.Aspect); err == nil && (g.anyRegress || g.regression[a]) {
				failed = append(failed, "regression: "+r.String())
			}
		}
	}
	if g.newFinding && out.Findings[BaselineNew] > 0 {
		failed = append(failed, fmt.Sprintf("new-findings: %d new", out.Findings[BaselineNew]))
	}
	if g.newFinding && !g.allowNew && len(out.NewSuppressions) > 0 {
		var where []string
		for i, s := range out.NewSuppressions {
			if i == 5 {
				where = append(where, fmt.Sprintf("... %d in all", len(out.NewSuppressions)))
				break
			}
			where = append(where, fmt.Sprintf("%s:%d %s", s.Path, s.Line, s.Rule))
		}
		failed = append(failed, fmt.Sprintf("new-findings: %s silenced by suppressions this change adds (%s; --allow-new-suppressions honours them)",
			plural(len(out.NewSuppressions), "finding"), strings.Join(where, ", ")))
	}
	failed = append(failed, g.CheckUnder(out.Delta.After)...)
	return failed
}

// CheckUnder returns the fail-under gates that scores trip.
func (g Gates) CheckUnder(s nfi.Scores) []string {
	var codes []nfi.Aspect
	for a := range g.under {
		codes = append(codes, a)
	}
	sort.Slice(codes, func(i, j int) bool { return codes[i] < codes[j] })
	var failed []string
	for _, a := range codes {
		v, ok := s.Get(a)
		switch {
		case !ok:
			failed = append(failed, fmt.Sprintf("fail-under: %s has no score (no valid file or no rule selected)", a.Code()))
		case v < g.under[a]:
			failed = append(failed, fmt.Sprintf("fail-under: %s S_p %.3f < %.3f", a.Code(), v, g.under[a]))
		}
	}
	return failed
}

// CheckScore returns the gates a score run without comparison trips, each
// as a sentence: invalid (invalid is the number of files that cannot be
// scored) and fail-under on the mean S_p per aspect.
func (g Gates) CheckScore(invalid int, mean nfi.Scores) []string {
	var failed []string
	if g.invalid && invalid > 0 {
		failed = append(failed, fmt.Sprintf("invalid: %s cannot be scored", plural(invalid, "file")))
	}
	return append(failed, g.CheckUnder(mean)...)
}
