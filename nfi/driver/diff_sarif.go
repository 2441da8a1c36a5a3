package driver

import (
	"io"
	"path/filepath"

	"github.com/owenrumney/go-sarif/v2/sarif"
	"github.com/pmezard/go-difflib/difflib"

	"github.com/polynfi/polynfi/nfi"
)

// SARIF baseline states of a result against the before version.
// Source: OASIS SARIF 2.1.0 §3.27.24 (result.baselineState).
const (
	BaselineNew       = "new"
	BaselineUnchanged = "unchanged"
	BaselineUpdated   = "updated"
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
	// Changed holds, per after file, the lines (1-based) that are added or
	// changed against the before version; nil means every line (an added
	// file, or a file that could not be read).
	Changed []map[int]bool
	// newCode limits counts and findings to added or changed lines.
	newCode bool
	// NewlySuppressed marks, per after file and result, a finding that a
	// suppression comment (# noqa, # polynfi: noqa) silences although
	// nothing silenced it in the before version: its before match was not
	// suppressed, or it has none (every suppressed finding of an added
	// file). Findings silenced by the settings' per-file-ignores are
	// never marked (the settings apply to both versions alike).
	NewlySuppressed [][]bool
}

// compareBaseline compares out's after version with its before version
// (see baseline). align, when not nil, gives a file's line alignment (git's
// diff); otherwise content returns the text of a file of a version (by
// FileScore.Path) for difflib to align; a file that cannot be read is
// matched without the line alignment.
func compareBaseline(out DiffOutput, content func(nfi.Version, string) ([]byte, bool), align func(string) (map[int]int, bool)) baseline {
	before := map[string]*nfi.FileScore{}
	for i := range out.Before {
		before[out.Before[i].Path] = &out.Before[i]
	}
	b := baseline{States: make([][]string, len(out.After)), Changed: make([]map[int]bool, len(out.After)), Absent: map[string]int{},
		NewlySuppressed: make([][]bool, len(out.After))}
	for i := range out.After {
		fa := &out.After[i]
		fb := before[fa.Path]
		delete(before, fa.Path)
		switch {
		case !fa.Valid:
			state := BaselineNew
			if fb != nil && !fb.Valid {
				state = BaselineUnchanged
			}
			b.States[i] = []string{state}
		case fb == nil:
			b.States[i] = make([]string, len(Diagnostics(fa)))
			b.NewlySuppressed[i] = make([]bool, len(b.States[i]))
			for j, d := range Diagnostics(fa) {
				b.States[i][j] = BaselineNew
				b.NewlySuppressed[i][j] = byComment(d)
			}
		default:
			var lines map[int]int
			ok := false
			if align != nil {
				lines, ok = align(fa.Path)
			}
			if !ok {
				ta, okA := content(nfi.VersionBefore, fb.Path)
				tb, okB := content(nfi.VersionAfter, fa.Path)
				if ok = okA && okB; ok {
					lines = alignLines(ta, tb)
				}
			}
			if ok {
				kept := map[int]bool{}
				for _, l := range lines {
					kept[l] = true
				}
				b.Changed[i] = map[int]bool{}
				for l := 1; l <= max(fa.Lines, 1); l++ {
					if !kept[l] {
						b.Changed[i][l] = true
					}
				}
			}
			da, db := Diagnostics(fa), Diagnostics(fb)
			var match []int
			b.States[i], match = matchBaseline(da, db, lines, b.Absent)
			b.NewlySuppressed[i] = make([]bool, len(da))
			for j, d := range da {
				b.NewlySuppressed[i][j] = byComment(d) && (match[j] < 0 || db[match[j]].Suppressed == "")
			}
		}
	}
	for _, fb := range before { // removed files
		for _, d := range Diagnostics(fb) {
			if d.Suppressed == "" {
				b.Absent[d.RuleID]++
			}
		}
	}
	return b
}

// inNewCode reports whether a finding of after file i spanning lines
// [line, end] touches an added or changed line.
func (b baseline) inNewCode(i, line, end int) bool {
	if b.Changed[i] == nil {
		return true
	}
	for l := line; l <= max(end, line); l++ {
		if b.Changed[i][l] {
			return true
		}
	}
	return false
}

// counts returns the number of after findings that count (not
// suppressed; with newCode, on added or changed lines) by baseline state
// and, under "absent", the number of before findings that are gone.
func (b baseline) counts(out DiffOutput) map[string]int {
	c := map[string]int{BaselineNew: 0, BaselineUpdated: 0, BaselineUnchanged: 0, "absent": 0}
	for i := range out.After {
		fa := &out.After[i]
		for j, d := range Diagnostics(fa) { // none for an invalid file (reported apart)
			if d.Suppressed != "" || (b.newCode && !b.inNewCode(i, d.Line, d.EndLine)) {
				continue
			}
			c[b.States[i][j]]++
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
func writeDiffSARIF(w io.Writer, eng *nfi.Engine, c *Comparison) error {
	out, b := c.Out, c.base
	s := NewSARIFSink(w, eng)
	for i, fa := range out.After {
		diags := Diagnostics(&fa)
		for j, r := range s.results(fa, c.afterPath(fa.Path)) {
			if fa.Valid && b.newCode && !b.inNewCode(i, diags[j].Line, diags[j].EndLine) {
				continue
			}
			s.run.AddResult(r.WithBaselineState(b.States[i][j]))
		}
	}
	s.run.Properties = sarif.Properties{
		"scores_before":  out.Delta.Before,
		"scores_after":   out.Delta.After,
		"improvement_pp": out.ImprovementPoints,
		"valid":          out.Valid,
		"invalid_files":  out.Invalid,
		"absent":         b.Absent,
		"added_files":    nonNilOf(out.Added),
		"removed_files":  nonNilOf(out.Removed),
		"suppressions":   SuppressionMode(eng),
		"new_code":       b.newCode,
		// The PR gate's file-by-file view and verdict (gatefiles.go).
		"file_regressions": nonNilOf(out.FileRegressions),
		"new_suppressions": nonNilOf(out.NewSuppressions),
		"split_from":       out.SplitFrom,
		"excluded_files":   nonNilOf(out.Unscored),
		"gates_failed":     nonNilOf(out.Gates),
	}
	if out.Git != nil {
		s.run.Properties["git"] = out.Git
	}
	s.log.AddRun(s.run)
	return s.log.PrettyWrite(s.w)
}

// Diagnostics returns every diagnostic of a valid file, in rule order (the
// order of sarifSink.results).
func Diagnostics(fs *nfi.FileScore) []nfi.Diagnostic {
	if !fs.Valid {
		return nil
	}
	var out []nfi.Diagnostic
	for _, r := range fs.Rules {
		out = append(out, r.Diagnostics...)
	}
	return out
}

// alignLines maps each line of the before text (1-based) that the after
// text keeps to its line there, from difflib's matching blocks.
func alignLines(a, b []byte) map[int]int {
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
// the two (see baseline), and the index of the before diagnostic each
// matched (-1 for a new one); it adds the before diagnostics left
// unmatched to absent, by rule.
func matchBaseline(after, before []nfi.Diagnostic, lines map[int]int, absent map[string]int) (state []string, matched []int) {
	used := make([]bool, len(before))
	state = make([]string, len(after))
	matched = make([]int, len(after))
	for i := range matched {
		matched[i] = -1
	}
	// match gives every after diagnostic still without a state the first
	// unused before diagnostic with the same key (nil: none); the before
	// diagnostics are indexed by key once, in order, so that a file with
	// thousands of findings is matched in linear time.
	type key struct {
		rule, msg string
		line      int
	}
	match := func(st string, beforeKey func(b nfi.Diagnostic) (key, bool), afterKey func(a nfi.Diagnostic) key) {
		idx := map[key][]int{}
		for j, b := range before {
			if k, ok := beforeKey(b); ok && !used[j] {
				idx[k] = append(idx[k], j)
			}
		}
		for i, a := range after {
			if state[i] != "" {
				continue
			}
			k := afterKey(a)
			js := idx[k]
			for len(js) > 0 && used[js[0]] {
				js = js[1:]
			}
			if len(js) > 0 {
				used[js[0]], state[i], matched[i] = true, st, js[0]
				js = js[1:]
			}
			idx[k] = js
		}
	}
	aligned := func(b nfi.Diagnostic) (int, bool) {
		l, ok := lines[b.Line]
		return l, ok
	}
	match(BaselineUnchanged, func(b nfi.Diagnostic) (key, bool) {
		l, ok := aligned(b)
		return key{b.RuleID, b.Message, l}, ok
	}, func(a nfi.Diagnostic) key { return key{a.RuleID, a.Message, a.Line} })
	match(BaselineUnchanged, func(b nfi.Diagnostic) (key, bool) { return key{b.RuleID, b.Message, 0}, true },
		func(a nfi.Diagnostic) key { return key{a.RuleID, a.Message, 0} })
	match(BaselineUpdated, func(b nfi.Diagnostic) (key, bool) {
		l, ok := aligned(b)
		return key{b.RuleID, "", l}, ok
	}, func(a nfi.Diagnostic) key { return key{a.RuleID, "", a.Line} })
	match(BaselineUpdated, func(b nfi.Diagnostic) (key, bool) { return key{b.RuleID, "", 0}, true },
		func(a nfi.Diagnostic) key { return key{a.RuleID, "", 0} })
	for i := range state {
		if state[i] == "" {
			state[i] = BaselineNew
		}
	}
	for j, b := range before {
		if !used[j] && b.Suppressed == "" {
			absent[b.RuleID]++
		}
	}
	return state, matched
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

// byComment reports a finding silenced by a suppression comment of its
// file (# noqa or a file-level # polynfi: noqa), not by the settings.
func byComment(d nfi.Diagnostic) bool {
	return d.Suppressed == nfi.SuppressedNoqa || d.Suppressed == nfi.SuppressedFile
}

// nonNilOf returns s, or an empty slice for nil (a JSON [] rather than null).
func nonNilOf[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
