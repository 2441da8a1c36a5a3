package driver

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi"
)

// The pull-request gate's view of a change, file by file.
//
// S_p of a version is the mean over its files (spec §3), and I_p is the
// difference of two such means (SWE-NFI Eq. 2); both stay as published
// and every report prints them. A mean alone cannot gate a pull request:
// a change that strips the docstrings of one file and adds six small
// documented files raises the mean (DOC +32 pp), and deleting a poor file
// raises it too. So the regression gate also looks at each file on its
// own, where adding or deleting other files changes nothing:
//
//   - a file present in both versions (same path, or a git rename,
//     whatever its new name or directory) regresses an aspect when its own
//     S_p of that aspect falls;
//   - an added file whose code mostly comes from a file of the before
//     version (a split, see splitIndex) regresses when its S_p falls
//     below that file's before S_p;
//   - any other added file regresses an aspect when its S_p is below the
//     before version's mean S_p: adding that file alone would lower the
//     mean, and other added files cannot offset it; its findings are new
//     findings (the new-findings gate); a deleted file is never an
//     improvement of anything the gate looks at;
//   - a suppression comment (# noqa, # polynfi: noqa) that the change adds
//     silences nothing for the gate: the finding it hides counts in the
//     file's S_p for the regression check and as a new finding, unless
//     --allow-new-suppressions (the suppressions the base already had,
//     and the settings' per-file-ignores, are honoured as configured).

// FileRegression is one file's drop of one aspect's S_p (in [0, 1]).
type FileRegression struct {
	Path string `json:"path"`
	// Origin is the before file compared with: Path's own before version
	// (or its name before a rename), or the file an added file was split
	// from.
	Origin string `json:"origin,omitempty"`
	// Kind is "changed", "renamed", "split" or "added" (then Before is
	// the before version's mean S_p, and Origin is empty).
	Kind   string  `json:"kind"`
	Aspect string  `json:"aspect"`
	Before float64 `json:"s_p_before"`
	After  float64 `json:"s_p_after"`
	// Broken lists the aspect's rules that pass in Origin's before
	// version and fail in Path's after version.
	Broken []string `json:"newly_failing_rules,omitempty"`
	// At gives, for each rule of Broken, where its first finding is in
	// Path ("pkg/m.py:12"; "pkg/m.py" for a rule failing without a line),
	// so that a hook or an editor can jump to it.
	At []string `json:"newly_failing_at,omitempty"`
}

// brokenAt returns fs.Path:line of each rule's first finding in fs.
func brokenAt(fs *nfi.FileScore, path string, ids []string) []string {
	var at []string
	for _, id := range ids {
		loc := path
		if r, ok := fs.Rule(id); ok && len(r.Diagnostics) > 0 && r.Diagnostics[0].Line > 0 {
			loc = fmt.Sprintf("%s:%d", path, r.Diagnostics[0].Line)
		}
		at = append(at, loc)
	}
	return at
}

// displayPath is p relative to the working directory when it is under
// it (how a hook's or an editor's "path:line" is read), else p.
func displayPath(p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if r, err := filepath.Rel(wd, p); err == nil && r != ".." && !strings.HasPrefix(r, "../") {
		return r
	}
	return p
}

// brokenList is "ID (path:line), ..." of r.Broken.
func (r FileRegression) brokenList() string {
	parts := make([]string, len(r.Broken))
	for i, id := range r.Broken {
		parts[i] = id
		if i < len(r.At) {
			parts[i] += " (" + r.At[i] + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// String says what regressed, e.g. "pkg/m.py DOC S_p 1.000 -> 0.250
// (-75.0 pp; newly fails DOC-R01, DOC-R04)".
func (r FileRegression) String() string {
	where := r.Path
	switch r.Kind {
	case "added":
		why := ""
		if len(r.Broken) > 0 {
			why = "; fails " + r.brokenList()
		}
		return fmt.Sprintf("%s (added) %s S_p %.3f < %.3f, the before version's mean (%+.1f pp%s)", r.Path, r.Aspect, r.After, r.Before, pp(r.After-r.Before), why)
	case "renamed":
		where += " (renamed from " + r.Origin + ")"
	case "split":
		where += " (split from " + r.Origin + ")"
	}
	why := ""
	if len(r.Broken) > 0 {
		why = "; newly fails " + r.brokenList()
	}
	return fmt.Sprintf("%s %s S_p %.3f -> %.3f (%+.1f pp%s)", where, r.Aspect, r.Before, r.After, pp(r.After-r.Before), why)
}

// pp converts a fraction to percentage points, one decimal.
func pp(v float64) float64 { return math.Round(v*1000) / 10 }

// NewSuppression is a finding that a suppression comment added by the
// change silences.
type NewSuppression struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Rule    string `json:"rule"`
	Kind    string `json:"suppressed"` // nfi.SuppressedNoqa or nfi.SuppressedFile
	Message string `json:"message"`
}

// fileView fills c.Out's SplitFrom, FileRegressions, NewSuppressions and
// Findings["newly_suppressed"] (see the comment at the top of this file).
// allowNew honours the suppressions the change adds.
func (c *Comparison) fileView(allowNew bool) {
	out := &c.Out
	before := map[string]*nfi.FileScore{}
	origins := map[string][]byte{}
	for i := range out.Before {
		fb := &out.Before[i]
		before[fb.Path] = fb
		if fb.Valid && c.content != nil {
			if src, ok := c.content(nfi.VersionBefore, fb.Path); ok {
				origins[fb.Path] = src
			}
		}
	}
	beforeName := func(p string) string {
		if o, ok := out.Renamed[p]; ok {
			return o
		}
		return p
	}
	out.SplitFrom, out.FileRegressions, out.NewSuppressions = nil, nil, nil
	var splits *splitIndex // built on the first added file
	newly := 0
	for i := range out.After {
		fa := &out.After[i]
		if !fa.Valid {
			continue
		}
		var ns []bool
		if i < len(c.base.NewlySuppressed) {
			ns = c.base.NewlySuppressed[i]
		}
		for j, d := range Diagnostics(fa) {
			if j < len(ns) && ns[j] {
				if c.base.newCode && !c.base.inNewCode(i, d.Line, d.EndLine) {
					continue
				}
				out.NewSuppressions = append(out.NewSuppressions, NewSuppression{Path: fa.Path, Line: d.Line, Rule: d.RuleID, Kind: d.Suppressed, Message: d.Message})
				newly++
			}
		}
		if allowNew {
			ns = nil
		}
		fb, kind, origin := before[fa.Path], "changed", fa.Path
		switch {
		case fb != nil && beforeName(fa.Path) != fa.Path:
			kind, origin = "renamed", beforeName(fa.Path)
		case fb == nil && c.content != nil:
			src, ok := c.content(nfi.VersionAfter, fa.Path)
			if !ok {
				continue
			}
			if splits == nil {
				splits = newSplitIndex(origins)
			}
			o, ok := splits.origin(src)
			if !ok {
				c.addedRegressions(fa, ns)
				continue
			}
			if out.SplitFrom == nil {
				out.SplitFrom = map[string]string{}
			}
			out.SplitFrom[fa.Path] = beforeName(o)
			fb, kind, origin = before[o], "split", beforeName(o)
		}
		if fb == nil || !fb.Valid {
			continue
		}
		scores, failing := gateScores(fa, ns)
		for _, a := range nfi.Aspects {
			vb, okb := fb.Scores.Get(a)
			va, oka := scores[a]
			if !okb || !oka || va >= vb-1e-12 {
				continue
			}
			r := FileRegression{Path: fa.Path, Origin: origin, Kind: kind, Aspect: a.Code(), Before: vb, After: va}
			for _, id := range failing[a] {
				if rb, ok := fb.Rule(id); ok && rb.Passed {
					r.Broken = append(r.Broken, id)
				}
			}
			r.At = brokenAt(fa, displayPath(c.afterPath(fa.Path)), r.Broken)
			out.FileRegressions = append(out.FileRegressions, r)
		}
	}
	if out.Findings != nil {
		out.Findings["newly_suppressed"] = newly
	}
}

// CountNewSuppressions makes the after version's scores the ones the
// gates judge, so that one diff output gives one S_p per file: a rule with
// a finding that a suppression comment added by the change silences fails
// (the finding keeps its suppression mark and is listed under
// new_suppressions), each such file's S_p is recomputed (Rescore), and so
// are the version's mean S_p, I_p (nfi.Compare) and I_p in points. With
// --allow-new-suppressions it is not called: those suppressions are
// honoured everywhere. A second call does nothing.
func (c *Comparison) CountNewSuppressions() {
	if c.newCounted {
		return
	}
	c.newCounted = true
	changed := false
	for i := range c.Out.After {
		fa := &c.Out.After[i]
		if !fa.Valid || i >= len(c.base.NewlySuppressed) || !anyTrue(c.base.NewlySuppressed[i]) {
			continue
		}
		_, failing := gateScores(fa, c.base.NewlySuppressed[i])
		fails := map[string]bool{}
		for _, ids := range failing {
			for _, id := range ids {
				fails[id] = true
			}
		}
		for j := range fa.Rules {
			if fails[fa.Rules[j].ID] && fa.Rules[j].Passed {
				fa.Rules[j].Passed = false
				changed = true
			}
		}
		fa.Rescore()
	}
	if !changed {
		return
	}
	c.Out.Delta = nfi.Compare(c.Out.Before, c.Out.After)
	c.Out.ImprovementPoints = map[string]float64{}
	for _, a := range nfi.Aspects {
		if v, ok := c.Out.Improvement.Points(a); ok {
			c.Out.ImprovementPoints[a.Code()] = v
		}
	}
}

// addedRegressions adds the regressions of added file fa (not a split):
// each aspect whose S_p in fa is below the before version's mean S_p,
// i.e. where adding fa alone would lower the mean (the published mean
// gate's verdict on the file by itself, which other added files cannot
// offset). ns marks newly suppressed findings (see gateScores).
func (c *Comparison) addedRegressions(fa *nfi.FileScore, ns []bool) {
	scores, failing := gateScores(fa, ns)
	for _, a := range nfi.Aspects {
		mb, okb := c.Out.Delta.Before.Get(a)
		va, oka := scores[a]
		if !okb || !oka || va >= mb-1e-12 {
			continue
		}
		c.Out.FileRegressions = append(c.Out.FileRegressions, FileRegression{Path: fa.Path, Kind: "added", Aspect: a.Code(),
			Before: mb, After: va, Broken: failing[a], At: brokenAt(fa, displayPath(c.afterPath(fa.Path)), failing[a])})
	}
}

// gateScores returns a valid file's S_p per aspect (passed rules over
// the rules run, as nfi computes it) and its failing rules per aspect,
// counting a rule as failed when one of its findings is marked in
// newly (one flag per diagnostic, in rule order; nil: none).
func gateScores(fs *nfi.FileScore, newly []bool) (map[nfi.Aspect]float64, map[nfi.Aspect][]string) {
	total := map[nfi.Aspect]int{}
	passed := map[nfi.Aspect]int{}
	failing := map[nfi.Aspect][]string{}
	k := 0
	for _, r := range fs.Rules {
		ok := r.Passed
		for range r.Diagnostics {
			if k < len(newly) && newly[k] {
				ok = false
			}
			k++
		}
		total[r.Aspect]++
		if ok {
			passed[r.Aspect]++
		} else {
			failing[r.Aspect] = append(failing[r.Aspect], r.ID)
		}
	}
	scores := map[nfi.Aspect]float64{}
	for a, n := range total {
		if n > 0 {
			scores[a] = float64(passed[a]) / float64(n)
		}
	}
	// Without a newly silenced finding these are fs.Scores exactly; use
	// them so that the gate and the report never differ by rounding.
	if !anyTrue(newly) {
		for _, a := range nfi.Aspects {
			if v, ok := fs.Scores.Get(a); ok {
				scores[a] = v
			}
		}
	}
	return scores, failing
}

func anyTrue(b []bool) bool {
	for _, v := range b {
		if v {
			return true
		}
	}
	return false
}

// Split detection. An added file is a split of a before file when at
// least splitMinLines of its significant lines, and at least half of
// them, occur in that before file (each before line used once); the
// before file with the most such lines wins (ties: the first path). A
// significant line is a stripped line of at least 10 bytes that is not
// a comment, an import or a line that most modules share (see
// significantLines). This is the gate's own heuristic, not git's rename
// detection (which wants half of the larger file: a split into a small
// new file is never a rename in git's eyes).
const splitMinLines = 5

// splitIndex holds the significant lines of the before files a split
// may come from, counted per file (see splitIndex).
type splitIndex struct {
	paths []string
	lines []map[string]int
}

// newSplitIndex indexes the before files (path -> content).
func newSplitIndex(befores map[string][]byte) *splitIndex {
	x := &splitIndex{}
	for p := range befores {
		x.paths = append(x.paths, p)
	}
	sort.Strings(x.paths)
	for _, p := range x.paths {
		m := map[string]int{}
		for _, l := range significantLines(befores[p]) {
			m[l]++
		}
		x.lines = append(x.lines, m)
	}
	return x
}

// origin returns the path of the before file src was split from.
func (x *splitIndex) origin(src []byte) (string, bool) {
	lines := significantLines(src)
	if len(lines) < splitMinLines {
		return "", false
	}
	count := map[string]int{}
	for _, l := range lines {
		count[l]++
	}
	best, bestN := "", 0
	for k, have := range x.lines {
		n := 0
		for l, c := range count {
			n += min(c, have[l])
		}
		if n > bestN {
			best, bestN = x.paths[k], n
		}
	}
	if bestN >= splitMinLines && 2*bestN >= len(lines) {
		return best, true
	}
	return "", false
}

// significantLines returns the stripped lines of src that can tell where
// code came from (see splitIndex).
func significantLines(src []byte) []string {
	var out []string
	for _, raw := range bytes.Split(src, []byte("\n")) {
		l := string(bytes.TrimSpace(raw))
		switch {
		case len(l) < 10, strings.HasPrefix(l, "#"), strings.HasPrefix(l, "import "), strings.HasPrefix(l, "from "),
			strings.HasPrefix(l, "if __name__ =="), l == "return None", strings.HasPrefix(l, "logger = logging.getLogger"):
			continue
		}
		out = append(out, l)
	}
	return out
}

// WriteFileView prints the file regressions and the findings silenced by
// suppressions the change adds (text formats).
func WriteFileView(w io.Writer, out DiffOutput) {
	if len(out.FileRegressions) > 0 {
		fmt.Fprintln(w, "\nfiles whose own S_p fell (the regression gate judges each file, whatever the mean does):")
		for _, r := range out.FileRegressions {
			fmt.Fprintf(w, "  %s\n", textesc.Terminal(r.String()))
		}
	}
	if len(out.NewSuppressions) > 0 {
		fmt.Fprintln(w, "\nfindings silenced by suppressions this change adds (they count for the gates unless --allow-new-suppressions):")
		for _, s := range out.NewSuppressions {
			fmt.Fprintf(w, "  %s:%d: %s %s (%s)\n", textesc.Terminal(s.Path), s.Line, s.Rule, textesc.Terminal(s.Message), s.Kind)
		}
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// fileView adds an error on each file whose own S_p fell (its gate's
// error then is not repeated) and a warning on the line of each finding
// silenced by a suppression the change adds. Source: GitHub Docs,
// "Workflow commands for GitHub Actions".
func (g *ghAnnotations) fileView(c *Comparison) {
	if c.Out.SettingsFromBase != "" {
		g.add(ghAnnotation{level: "warning", title: "polynfi settings",
			msg: "this change edits the polynfi settings; both versions were scored with the before version's (" + c.Out.SettingsFromBase + ")"})
	}
	if g.covered == nil {
		g.covered = map[string]bool{}
	}
	for _, r := range c.Out.FileRegressions {
		g.add(ghAnnotation{level: "error", file: artifactURI(c.afterPath(r.Path)), line: 1,
			title: "polynfi regression " + r.Aspect, msg: r.String()})
		g.covered["regression: "+r.String()] = true
	}
	for _, s := range c.Out.NewSuppressions {
		g.add(ghAnnotation{level: "warning", file: artifactURI(c.afterPath(s.Path)), line: max(s.Line, 1),
			title: "polynfi " + s.Rule + " (silenced by a suppression this change adds)", msg: s.Message})
	}
}
