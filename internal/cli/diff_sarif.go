package cli

import (
	"io"
	"path/filepath"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/polynfi/polynfi/nfi"
)

// SARIF baseline states of a result against the before version.
// Source: OASIS SARIF 2.1.0 §3.27.24 (result.baselineState).
const (
	baselineNew       = "new"
	baselineUnchanged = "unchanged"
	baselineUpdated   = "updated"
)

// writeDiffSARIF writes the after version's results as one SARIF 2.1.0 run
// in which every result has a baselineState against the before version of
// the same file (matched by relative path, or the two files given):
//   - "unchanged": the before version has a result of the same rule with the
//     same message (each before result matches at most one after result;
//     lines may differ, since code above it may have moved);
//   - "updated": not unchanged, but the before version still has an
//     unmatched result of the same rule (say, a coverage that changed);
//   - "new": neither (and every result of an added file).
//
// A file invalid in both versions gives an "unchanged" invalid-file result.
// Results that only the before version has ("absent" in SARIF) are not
// listed, since their locations are in the before tree, which an upload of
// the after tree cannot show; the run's "absent" property counts them per
// rule. The run's properties also hold S_p of both versions
// ("scores_before", "scores_after", aspect code to [0, 1]), I_p in
// percentage points ("improvement_pp") and the added and removed files.
// afterPath maps an after FileScore's Path to the file on disk.
func writeDiffSARIF(w io.Writer, eng *nfi.Engine, out diffOutput, afterPath func(string) string) error {
	s := newSARIFSink(w, eng)
	before := map[string]*nfi.FileScore{}
	for i := range out.Before {
		before[out.Before[i].Path] = &out.Before[i]
	}
	absent := map[string]int{}
	for _, fa := range out.After {
		results := s.results(fa, afterPath(fa.Path))
		fb := before[fa.Path]
		delete(before, fa.Path)
		if fb == nil {
			for _, r := range results {
				r.WithBaselineState(baselineNew)
			}
		} else if !fa.Valid {
			state := baselineNew
			if !fb.Valid {
				state = baselineUnchanged
			}
			results[0].WithBaselineState(state)
		} else {
			matchBaseline(results, diagnostics(fb), absent)
		}
		for _, r := range results {
			s.run.AddResult(r)
		}
	}
	for _, fb := range before { // removed files
		for _, d := range diagnostics(fb) {
			absent[d.RuleID]++
		}
	}
	s.run.Properties = sarif.Properties{
		"scores_before":  out.Delta.Before,
		"scores_after":   out.Delta.After,
		"improvement_pp": out.ImprovementPoints,
		"absent":         absent,
		"added_files":    nonNil(out.Added),
		"removed_files":  nonNil(out.Removed),
	}
	s.log.AddRun(s.run)
	return s.log.PrettyWrite(s.w)
}

// diagnostics returns every diagnostic of a valid file, in rule order.
func diagnostics(fs *nfi.FileScore) []nfi.Diagnostic {
	if !fs.Valid {
		return nil
	}
	var out []nfi.Diagnostic
	for _, r := range fs.Rules {
		out = append(out, r.Diagnostics...)
	}
	return out
}

// matchBaseline sets the baselineState of a valid after file's results
// against the diagnostics of its before version (see writeDiffSARIF) and
// adds the before diagnostics left unmatched to absent, by rule.
func matchBaseline(results []*sarif.Result, before []nfi.Diagnostic, absent map[string]int) {
	type key struct{ rule, message string }
	same := map[key]int{}
	rule := map[string]int{}
	for _, d := range before {
		same[key{d.RuleID, d.Message}]++
		rule[d.RuleID]++
	}
	var rest []*sarif.Result
	for _, r := range results {
		k := key{*r.RuleID, *r.Message.Text}
		if same[k] > 0 {
			same[k]--
			rule[k.rule]--
			r.WithBaselineState(baselineUnchanged)
		} else {
			rest = append(rest, r)
		}
	}
	for _, r := range rest {
		if rule[*r.RuleID] > 0 {
			rule[*r.RuleID]--
			r.WithBaselineState(baselineUpdated)
		} else {
			r.WithBaselineState(baselineNew)
		}
	}
	for id, n := range rule {
		if n > 0 {
			absent[id] += n
		}
	}
}

// nonNil returns s, or an empty slice for nil (a JSON [] rather than null).
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// diffAfterPath returns the on-disk path of an after file: the AFTER
// argument itself for two files, else the relative path joined to it.
func diffAfterPath(after string, single bool) func(string) string {
	return func(rel string) string {
		if single {
			return after
		}
		return filepath.Join(after, filepath.FromSlash(rel))
	}
}
