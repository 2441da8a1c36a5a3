package driver

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// DiffOutput is the JSON shape of `polynfi diff`.
type DiffOutput struct {
	Run    SettingsSummary `json:"run"`
	Git    *GitRange       `json:"git,omitempty"`
	Before []nfi.FileScore `json:"before_files"`
	After  []nfi.FileScore `json:"after_files"`
	nfi.Delta
	// ImprovementPoints is I_p × 100, to one decimal (the paper's unit).
	ImprovementPoints map[string]float64 `json:"improvement_pp"`
	// Added and Removed list the files present in only one version
	// (directory and git comparisons); they count in that version's mean only.
	Added   []string `json:"added_files,omitempty"`
	Removed []string `json:"removed_files,omitempty"`
	// Renamed maps an after path to its before path (git comparisons).
	Renamed map[string]string `json:"renamed_files,omitempty"`
	// SplitFrom maps an added file whose code mostly comes from a file of
	// the before version to that file's path (see splitIndex); the PR
	// gate compares the two.
	SplitFrom map[string]string `json:"split_from,omitempty"`
	// ExcludedSplits lists added files in excluded paths that are scored
	// all the same, because their code comes from a scored file (git
	// comparisons).
	ExcludedSplits []string `json:"excluded_but_scored,omitempty"`
	// Unscored lists the added files of the change that the settings
	// exclude (git comparisons): not scored, named so a reviewer sees them.
	Unscored []string `json:"excluded_files,omitempty"`
	// Skipped lists the .py paths of the change that are not files (a
	// submodule), each with its version and why; a side that is one
	// counts as absent (git comparisons; see gitsymlink.go).
	Skipped []SkippedFile `json:"skipped_files,omitempty"`
	// FileRegressions lists, per file and aspect, each drop of a file's
	// own S_p that the PR gate's regression check sees (see gatefiles.go).
	FileRegressions []FileRegression `json:"file_regressions,omitempty"`
	// SettingsFromBase, when the change edits the settings, names the
	// settings file of the before version that both versions were scored
	// with ("(defaults)": none); see gatesettings.go.
	SettingsFromBase string `json:"settings_from_base,omitempty"`
	// NewSuppressions lists the findings that a suppression comment added
	// by the change silences (see gatefiles.go).
	NewSuppressions []NewSuppression `json:"new_suppressions,omitempty"`
	// Findings counts the after version's findings that count (not
	// suppressed) by baseline state (new, updated, unchanged) and the
	// before findings that are gone (fixed); with --new-code only those on
	// added or changed lines.
	Findings map[string]int `json:"findings"`
	// NewCode is true when findings were limited to added or changed lines.
	NewCode bool `json:"new_code,omitempty"`
	// Gates lists each gate that tripped, "" when none (see gate.go).
	Gates []string `json:"gates_failed,omitempty"`
}

// GitRange names the revisions a git-aware comparison read.
type GitRange struct {
	Root      string `json:"root"`
	Base      string `json:"base"`       // as given
	MergeBase string `json:"merge_base"` // the before version (a commit ID)
	Head      string `json:"head"`       // a commit ID, or "WORKTREE"
}

// Worktree is GitRange.Head for the files on disk.
const Worktree = "WORKTREE"

// Staged is GitComparison's head, and GitRange.Head, for the index (what
// `git commit` would record; score --diff-base --staged). ":staged" never
// names a commit (":path" is a blob of the index), so no revision is
// mistaken for it.
const Staged = ":staged"

// Comparison is a scored change with everything the writers need: the
// content of each version of a file (for the line alignment) and where
// the after file is on disk (for locations).
type Comparison struct {
	// Out is the JSON shape of `polynfi diff`, filled by the comparison,
	// Finish, CountNewSuppressions and the gates (Gates.Check).
	Out DiffOutput
	// content returns a file of a version (by FileScore.Path), ok false
	// when it cannot be read.
	content func(v nfi.Version, path string) ([]byte, bool)
	// align, when set, gives the line alignment of a file present in both
	// versions (before line → after line, see gitLineMaps); otherwise the
	// contents are aligned with difflib.
	align func(path string) (map[int]int, bool)
	// afterPath maps an after FileScore.Path to a path locations use.
	afterPath func(string) string
	// Labels name the two versions in text output.
	Labels [2]string
	base   baseline
	// newCounted is true when the findings that suppressions added by the
	// change silence count as failures in the after scores
	// (countNewSuppressions).
	newCounted bool
}

// PathComparison scores two files or two directories.
func PathComparison(eng *nfi.Engine, beforeArg, afterArg string) (*Comparison, error) {
	before, after, err := pairFiles(beforeArg, afterArg, eng.Settings)
	if err != nil {
		return nil, err
	}
	parser := syntax.NewParser()
	defer parser.Close()
	single := len(before) == 1 && len(after) == 1 && before[0] == ""
	score := func(root string, rels []string) []nfi.FileScore {
		var out []nfi.FileScore
		for _, rel := range rels {
			p := root
			if rel != "" {
				p = filepath.Join(root, rel)
			}
			fs := eng.ScoreFile(parser, p)
			if rel != "" {
				fs.Path = filepath.ToSlash(rel)
			}
			out = append(out, fs)
		}
		return out
	}
	c := &Comparison{
		Out:    DiffOutput{Run: SummarizeSettings(eng), Before: score(beforeArg, before), After: score(afterArg, after)},
		Labels: [2]string{beforeArg, afterArg},
	}
	if single {
		// Two single files are matched whatever their names, under the
		// after file's name; an invalid file is named in Invalid by its
		// own argument, so that the right side is blamed.
		name := filepath.Base(afterArg)
		c.Out.Before[0].Path, c.Out.After[0].Path = name, name
	} else {
		c.Out.Added, c.Out.Removed = onlyIn(after, before), onlyIn(before, after)
	}
	c.Out.Delta = nfi.Compare(c.Out.Before, c.Out.After)
	if single {
		for i := range c.Out.Invalid {
			if c.Out.Invalid[i].Version == nfi.VersionBefore {
				c.Out.Invalid[i].Path = beforeArg
			} else {
				c.Out.Invalid[i].Path = afterArg
			}
		}
	}
	root := map[nfi.Version]string{nfi.VersionBefore: beforeArg, nfi.VersionAfter: afterArg}
	c.content = func(v nfi.Version, path string) ([]byte, bool) {
		b, err := nfi.ReadSource(diffPath(root[v], single)(path))
		return b, err == nil
	}
	c.afterPath = diffPath(afterArg, single)
	return c, nil
}

// Finish computes the improvement in points, the baseline of findings and
// their counts; newCode limits the findings to added or changed lines.
func (c *Comparison) Finish(newCode bool) {
	c.Out.ImprovementPoints = map[string]float64{}
	for _, a := range nfi.Aspects {
		if v, ok := c.Out.Improvement.Points(a); ok {
			c.Out.ImprovementPoints[a.Code()] = v
		}
	}
	c.base = compareBaseline(c.Out, c.content, c.align)
	c.Out.NewCode = newCode
	c.base.newCode = newCode
	c.Out.Findings = c.base.counts(c.Out)
}

// onlyIn returns the paths of a that are not in b, in order.
func onlyIn(a, b []string) []string {
	in := map[string]bool{}
	for _, p := range b {
		in[p] = true
	}
	var out []string
	for _, p := range a {
		if !in[p] {
			out = append(out, filepath.ToSlash(p))
		}
	}
	return out
}

// pairFiles returns the relative paths to score on each side: for two files,
// [""] and [""]; for two directories, their source files (nfi.IsSource) by relative path
// (excluded and git-ignored files left out, see Discover).
func pairFiles(a, b string, s nfi.Settings) (before, after []string, err error) {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	var missing []string
	for _, c := range []struct {
		path string
		err  error
	}{{a, errA}, {b, errB}} {
		switch {
		case errors.Is(c.err, fs.ErrNotExist):
			missing = append(missing, c.path)
		case c.err != nil:
			return nil, nil, c.err
		}
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("no such file or directory: %s: %w", strings.Join(missing, ", "), fs.ErrNotExist)
	}
	if sa.IsDir() != sb.IsDir() {
		return nil, nil, usagef("diff: %s and %s must both be files or both be directories", a, b)
	}
	if !sa.IsDir() {
		return []string{""}, []string{""}, nil
	}
	rel := func(root string) ([]string, error) {
		files, _, err := Discover([]string{root}, s)
		if err != nil {
			return nil, err
		}
		for i, f := range files {
			if files[i], err = filepath.Rel(root, f); err != nil {
				return nil, err
			}
		}
		sort.Strings(files)
		return files, nil
	}
	if before, err = rel(a); err != nil {
		return nil, nil, err
	}
	after, err = rel(b)
	return before, after, err
}

// scoredAspects are the aspects of the diff table: those with an S_p
// before or after (an aspect with no rule selected, or no valid file, has
// neither), in nfi.Aspects order.
func scoredAspects(out *DiffOutput) []nfi.Aspect {
	var rows []nfi.Aspect
	for _, a := range nfi.Aspects {
		_, okb := out.Delta.Before.Get(a)
		_, oka := out.Delta.After.Get(a)
		if okb || oka {
			rows = append(rows, a)
		}
	}
	return rows
}

func writeDiffText(w io.Writer, eng *nfi.Engine, c *Comparison, maxShown int) error {
	out := c.Out
	term := textesc.Terminal // paths and messages come from the change under review
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if out.Git != nil {
		fmt.Fprintf(tw, "before: %s at %s (%s)\nafter:  %s (%s)\n", c.Labels[0], ShortID(out.Git.MergeBase), plural(len(out.Before), "file"),
			c.Labels[1], plural(len(out.After), "file"))
	} else {
		fmt.Fprintf(tw, "before: %s (%s)\nafter:  %s (%s)\n", c.Labels[0], plural(len(out.Before), "file"), c.Labels[1], plural(len(out.After), "file"))
	}
	for _, p := range out.Added {
		fmt.Fprintf(tw, "added:   %s%s\n", term(p), verdict(out.After, p))
	}
	for _, p := range out.Removed {
		fmt.Fprintf(tw, "removed: %s%s\n", term(p), verdict(out.Before, p))
	}
	for _, p := range sortedKeys(out.SplitFrom) {
		fmt.Fprintf(tw, "split:   %s from %s (compared with it by the regression gate)\n", term(p), term(out.SplitFrom[p]))
	}
	for _, p := range out.ExcludedSplits {
		fmt.Fprintf(tw, "scored although excluded: %s (its code comes from a scored file)\n", term(p))
	}
	for _, p := range out.Unscored {
		fmt.Fprintf(tw, "not scored (excluded by the settings): %s\n", term(p))
	}
	for _, s := range out.Skipped {
		fmt.Fprintf(tw, "skipped %s: %s: %s\n", s.Version, s.Path, s.Reason)
	}
	if out.SettingsFromBase != "" {
		fmt.Fprintf(tw, "settings: this change edits them; both versions scored with the before version's (%s)\n", out.SettingsFromBase)
	}
	fmt.Fprintln(tw)
	for _, f := range out.Invalid {
		msg := f.Status
		if f.Error != nil {
			msg = fmt.Sprintf("%s at %d:%d: %s", f.Status, f.Error.Line, f.Error.Column, f.Error.Message)
		}
		fmt.Fprintf(tw, "invalid %s: %s: %s\n", f.Version, term(f.Path), term(msg))
	}
	switch {
	case len(out.Invalid) > 0:
		fmt.Fprintln(tw, "I_p undefined: a file that cannot be scored makes the comparison undefined (exit 1)")
	case len(out.Before) == 0 && len(out.After) == 0:
		fmt.Fprintln(tw, "no scored file changed")
	case !out.Valid:
		fmt.Fprintln(tw, "I_p undefined: one version has no Python file")
	}
	rows := scoredAspects(&out)
	if len(rows) > 0 {
		fmt.Fprintln(tw, "ASPECT\tS_p BEFORE\tS_p AFTER\tI_p (pp)")
	} else if len(out.Before) > 0 || len(out.After) > 0 {
		// Files, but no aspect scored (no rule selected, or every file
		// invalid): no table of headers alone.
		fmt.Fprintln(tw, "no aspect scored: no S_p before or after")
	}
	for _, a := range rows {
		b, okb := out.Delta.Before.Get(a)
		af, oka := out.Delta.After.Get(a)
		cell := func(v float64, ok bool) string {
			if !ok {
				return "–"
			}
			return fmt.Sprintf("%.3f", v)
		}
		ip := "–"
		if v, ok := out.Improvement.Points(a); ok {
			ip = fmt.Sprintf("%+.1f", v)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", a.Code(), cell(b, okb), cell(af, oka), ip)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	scope := ""
	if out.NewCode {
		scope = " on added or changed lines"
	}
	fmt.Fprintf(w, "\nfindings%s: %d new, %d updated, %d unchanged, %d fixed (--format sarif lists them)\n", scope,
		out.Findings[BaselineNew], out.Findings[BaselineUpdated], out.Findings[BaselineUnchanged], out.Findings["absent"])
	shown := 0
	for _, f := range c.Findings() {
		if f.State != BaselineNew || f.Suppressed() {
			continue
		}
		if shown == maxShown {
			fmt.Fprintf(w, "  ... (%d new in all)\n", out.Findings[BaselineNew])
			break
		}
		if shown == 0 {
			fmt.Fprintln(w, "new findings:")
		}
		shown++
		fmt.Fprintf(w, "  %s:%d:%d: %s %s\n", term(f.Path), f.Diag.Line, f.Diag.Column, f.Diag.RuleID, term(f.Diag.Message))
	}
	if len(out.Flips) == 0 {
		fmt.Fprintln(w, "no rule flipped")
	} else {
		fmt.Fprintln(w, "\nflipped rules:")
		for _, f := range out.Flips {
			dir := "fixed  "
			if !f.After {
				dir = "broken "
			}
			fmt.Fprintf(w, "  %s %s %s\n", dir, f.ID, term(f.Path))
		}
	}
	if n := suppressedCount(out.After); n > 0 {
		if k := len(out.NewSuppressions); c.newCounted && k > 0 {
			fmt.Fprintf(w, "suppressions honoured: %s silenced in the after version, of which the %d silenced by suppressions this change adds count as failures in S_p AFTER (--allow-new-suppressions honours them; --ignore-noqa scores as SWE-NFI)\n", plural(n, "finding"), k)
		} else {
			fmt.Fprintf(w, "suppressions honoured: %s silenced in the after version (--ignore-noqa scores as SWE-NFI)\n", plural(n, "finding"))
		}
	}
	WriteUnused(w, out.After)
	WriteFileView(w, out)
	for _, g := range out.Gates {
		fmt.Fprintf(w, "gate failed: %s\n", term(g))
	}
	_, err := fmt.Fprintln(w, ProvenanceLine(eng))
	return err
}

// ShortID abbreviates a commit ID for display.
func ShortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// verdict summarizes, for the text listing of an added or removed file,
// the rules the file fails (" (fails DOC-R01, STY-R05)"), "" when it
// passes all, or " (invalid)" when it could not be scored.
func verdict(files []nfi.FileScore, path string) string {
	for _, f := range files {
		if f.Path != path {
			continue
		}
		if !f.Valid {
			return " (invalid)"
		}
		var failed []string
		for _, r := range f.Rules {
			if !r.Passed {
				failed = append(failed, r.ID)
			}
		}
		if len(failed) == 0 {
			return ""
		}
		return " (fails " + strings.Join(failed, ", ") + ")"
	}
	return ""
}

// plural is "1 noun" or "N nouns".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
