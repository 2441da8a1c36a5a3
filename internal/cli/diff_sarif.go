package cli

import (
	"io"
	"os"
	"path/filepath"

	"github.com/owenrumney/go-sarif/v2/sarif"
	"github.com/pmezard/go-difflib/difflib"

	"github.com/polynfi/polynfi/nfi"
)

// SARIF baseline states of a result against the before version.
// Source: OASIS SARIF 2.1.0 §3.27.24 (result.baselineState).
const (
	baselineNew       = "new"
	baselineUnchanged = "unchanged"
	baselineUpdated   = "updated"
)

// baseline is the comparison of a change's findings with the before
// version, file by file (matched by relative path, or the two files given):
// States[i] holds one SARIF baselineState per result of out.After[i] (one
// per diagnostic, in rule order, or one for an invalid file), and Absent
// counts by rule the before findings that no after finding matched
// (removed files included).
//
// A finding and a before finding match when they have the same rule; the
// lines of the two versions are aligned first (difflib's matching blocks:
// the longest common subsequence of lines), and candidates are taken in
// this order, each before finding matching at most one after finding:
//   - "unchanged": same message, on the line the before finding's line
//     became (so of two identical findings, the one in code the change
//     kept stays unchanged and the one in added code is new);
//   - "unchanged": same message elsewhere (code that moved or changed
//     around it);
//   - "updated": another message of the same rule (say, a coverage value
//     that changed), preferring the aligned line;
//   - "new": none (and every finding of an added file).
//
// A file invalid in both versions is "unchanged", invalid only after
// "new".
type baseline struct {
	States [][]string
	Absent map[string]int
}

// compareBaseline compares out's after version with its before version
// (see baseline). beforePath and afterPath map a FileScore's Path to the
// file on disk; a file that can no longer be read is matched without the
// line alignment.
func compareBaseline(out diffOutput, beforePath, afterPath func(string) string) baseline {
	before := map[string]*nfi.FileScore{}
	for i := range out.Before {
		before[out.Before[i].Path] = &out.Before[i]
	}
	b := baseline{States: make([][]string, len(out.After)), Absent: map[string]int{}}
	for i := range out.After {
		fa := &out.After[i]
		fb := before[fa.Path]
		delete(before, fa.Path)
		switch {
		case !fa.Valid:
			state := baselineNew
			if fb != nil && !fb.Valid {
				state = baselineUnchanged
			}
			b.States[i] = []string{state}
		case fb == nil:
			b.States[i] = make([]string, len(diagnostics(fa)))
			for j := range b.States[i] {
				b.States[i][j] = baselineNew
			}
		default:
			lines := alignLines(beforePath(fb.Path), afterPath(fa.Path))
			b.States[i] = matchBaseline(diagnostics(fa), diagnostics(fb), lines, b.Absent)
		}
	}
	for _, fb := range before { // removed files
		for _, d := range diagnostics(fb) {
			b.Absent[d.RuleID]++
		}
	}
	return b
}

// counts returns the number of after findings by baseline state and, under
// "absent", the number of before findings that are gone.
func (b baseline) counts() map[string]int {
	c := map[string]int{}
	for _, states := range b.States {
		for _, st := range states {
			c[st]++
		}
	}
	for _, n := range b.Absent {
		c["absent"] += n
	}
	return c
}

// writeDiffSARIF writes the after version's results as one SARIF 2.1.0 run
// in which every result has its baselineState against the before version
// (see baseline). Results that only the before version has ("absent" in
// SARIF) are not listed, since their locations are in the before tree,
// which an upload of the after tree cannot show; the run's "absent"
// property counts them per rule. The run's properties also hold S_p of
// both versions ("scores_before", "scores_after", aspect code to [0, 1]),
// I_p in percentage points ("improvement_pp") and the added and removed
// files. afterPath maps an after FileScore's Path to the file on disk.
func writeDiffSARIF(w io.Writer, eng *nfi.Engine, out diffOutput, b baseline, afterPath func(string) string) error {
	s := newSARIFSink(w, eng)
	for i, fa := range out.After {
		for j, r := range s.results(fa, afterPath(fa.Path)) {
			s.run.AddResult(r.WithBaselineState(b.States[i][j]))
		}
	}
	s.run.Properties = sarif.Properties{
		"scores_before":  out.Delta.Before,
		"scores_after":   out.Delta.After,
		"improvement_pp": out.ImprovementPoints,
		"absent":         b.Absent,
		"added_files":    nonNil(out.Added),
		"removed_files":  nonNil(out.Removed),
	}
	s.log.AddRun(s.run)
	return s.log.PrettyWrite(s.w)
}

// diagnostics returns every diagnostic of a valid file, in rule order (the
// order of sarifSink.results).
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

// alignLines maps each line of the before file (1-based) that the after
// file keeps to its line there, from difflib's matching blocks; nil when
// either file cannot be read.
func alignLines(beforePath, afterPath string) map[int]int {
	a, errA := os.ReadFile(beforePath)
	b, errB := os.ReadFile(afterPath)
	if errA != nil || errB != nil {
		return nil
	}
	m := difflib.NewMatcher(difflib.SplitLines(string(a)), difflib.SplitLines(string(b)))
	lines := map[int]int{}
	for _, blk := range m.GetMatchingBlocks() {
		for k := 0; k < blk.Size; k++ {
			lines[blk.A+k+1] = blk.B + k + 1
		}
	}
	return lines
}

// matchBaseline returns the baseline state of each diagnostic of a valid
// after file against the diagnostics of its before version, lines aligning
// the two (see baseline), and adds the before diagnostics left
// unmatched to absent, by rule.
func matchBaseline(after, before []nfi.Diagnostic, lines map[int]int, absent map[string]int) []string {
	used := make([]bool, len(before))
	state := make([]string, len(after))
	// match gives every after diagnostic still without a state the first
	// unused before diagnostic that ok accepts.
	match := func(st string, ok func(a, b nfi.Diagnostic) bool) {
		for i, a := range after {
			if state[i] != "" {
				continue
			}
			for j, b := range before {
				if !used[j] && a.RuleID == b.RuleID && ok(a, b) {
					used[j], state[i] = true, st
					break
				}
			}
		}
	}
	aligned := func(a, b nfi.Diagnostic) bool { return lines[b.Line] == a.Line }
	match(baselineUnchanged, func(a, b nfi.Diagnostic) bool { return a.Message == b.Message && aligned(a, b) })
	match(baselineUnchanged, func(a, b nfi.Diagnostic) bool { return a.Message == b.Message })
	match(baselineUpdated, aligned)
	match(baselineUpdated, func(a, b nfi.Diagnostic) bool { return true })
	for i := range state {
		if state[i] == "" {
			state[i] = baselineNew
		}
	}
	for j, b := range before {
		if !used[j] {
			absent[b.RuleID]++
		}
	}
	return state
}

// nonNil returns s, or an empty slice for nil (a JSON [] rather than null).
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// diffPath returns the on-disk path of a file of the version at root (the
// BEFORE or AFTER argument): root itself for two files, else the relative
// path joined to it.
func diffPath(root string, single bool) func(string) string {
	return func(rel string) string {
		if single {
			return root
		}
		return filepath.Join(root, filepath.FromSlash(rel))
	}
}
