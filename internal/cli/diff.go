package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// diffOutput is the JSON shape of `polynfi diff`.
type diffOutput struct {
	Run    settingsSummary `json:"run"`
	Before []nfi.FileScore `json:"before_files"`
	After  []nfi.FileScore `json:"after_files"`
	nfi.Delta
	// ImprovementPoints is I_p × 100, to one decimal (the paper's unit).
	ImprovementPoints map[string]float64 `json:"improvement_pp"`
	// Added and Removed list the files present in only one version
	// (directory comparisons); they count in that version's mean only.
	Added   []string `json:"added_files,omitempty"`
	Removed []string `json:"removed_files,omitempty"`
}

func newDiffCmd(e *env) *cobra.Command {
	var (
		format string
		ef     engineFlags
	)
	cmd := &cobra.Command{
		Use:   "diff BEFORE AFTER",
		Short: "Score a change: S_p before and after, I_p per aspect, flipped rules",
		Long: `Compare two versions of Python code: two files, or two directories whose *.py
files are matched by relative path. Prints S_p before and after (mean over the
files present in each version), the improvement I_p = S_p(after) - S_p(before)
per aspect in percentage points (SWE-NFI Eq. 2), and every rule whose verdict
flipped. In text, files present in only one version are listed with the rules
they fail, and a findings line counts the diagnostics the change introduced
(new), changed (updated), kept (unchanged) and fixed, which shows what a change
did within rules that fail before and after. --format sarif writes the after version's results (SARIF 2.1.0),
each marked new, updated or unchanged against the before version, for
code-scanning tools to show only what a change introduced. A version with no
valid file has no score; the improvement is then not defined and the exit
code is 1.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json", "sarif"); err != nil {
				return err
			}
			eng, err := ef.engine(args[1])
			if err != nil {
				return err
			}
			before, after, err := pairFiles(args[0], args[1])
			if err != nil {
				return err
			}
			parser := syntax.NewParser()
			defer parser.Close()
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
			out := diffOutput{Run: summarizeSettings(eng), Before: score(args[0], before), After: score(args[1], after)}
			single := len(before) == 1 && len(after) == 1 && before[0] == ""
			if single {
				// two single files: match them whatever their names, under the after name
				name := filepath.Base(args[1])
				out.Before[0].Path, out.After[0].Path = name, name
			} else {
				out.Added, out.Removed = onlyIn(after, before), onlyIn(before, after)
			}
			out.Delta = nfi.Compare(out.Before, out.After)
			out.ImprovementPoints = map[string]float64{}
			for _, a := range nfi.Aspects {
				if v, ok := out.Improvement.Points(a); ok {
					out.ImprovementPoints[a.Code()] = v
				}
			}
			switch format {
			case "json":
				if err := writeJSON(e.stdout, out); err != nil {
					return err
				}
			case "sarif":
				b := compareBaseline(out, diffPath(args[0], single), diffPath(args[1], single))
				if err := writeDiffSARIF(e.stdout, eng, out, b, diffPath(args[1], single)); err != nil {
					return err
				}
			default:
				b := compareBaseline(out, diffPath(args[0], single), diffPath(args[1], single))
				writeDiffText(e, out, args, b.counts())
			}
			if !out.Valid {
				return exitError{ExitFindings}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json, sarif")
	ef.register(cmd)
	return cmd
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
// [""] and [""]; for two directories, their *.py files by relative path.
func pairFiles(a, b string) (before, after []string, err error) {
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
		return nil, nil, fmt.Errorf("no such file or directory: %s", strings.Join(missing, ", "))
	}
	if sa.IsDir() != sb.IsDir() {
		return nil, nil, usagef("diff: %s and %s must both be files or both be directories", a, b)
	}
	if !sa.IsDir() {
		return []string{""}, []string{""}, nil
	}
	rel := func(root string) ([]string, error) {
		files, _, err := pythonFiles([]string{root})
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

func writeDiffText(e *env, out diffOutput, args []string, findings map[string]int) {
	w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "before: %s (%s)\nafter:  %s (%s)\n", args[0], plural(len(out.Before), "file"), args[1], plural(len(out.After), "file"))
	for _, p := range out.Added {
		fmt.Fprintf(w, "added:   %s%s\n", p, verdict(out.After, p))
	}
	for _, p := range out.Removed {
		fmt.Fprintf(w, "removed: %s%s\n", p, verdict(out.Before, p))
	}
	fmt.Fprintln(w)
	for _, side := range [][]nfi.FileScore{out.Before, out.After} {
		for _, f := range side {
			if !f.Valid && f.Error != nil {
				fmt.Fprintf(w, "invalid: %s: %s at %d:%d: %s\n", f.Path, f.Status, f.Error.Line, f.Error.Column, f.Error.Message)
			}
		}
	}
	fmt.Fprintln(w, "ASPECT\tS_p BEFORE\tS_p AFTER\tI_p (pp)")
	for _, a := range nfi.Aspects {
		b, okb := out.Delta.Before.Get(a)
		af, oka := out.Delta.After.Get(a)
		if !okb && !oka {
			continue // no rule of the aspect selected (or no valid file)
		}
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
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", a.Code(), cell(b, okb), cell(af, oka), ip)
	}
	w.Flush()
	fmt.Fprintf(e.stdout, "\nfindings: %d new, %d updated, %d unchanged, %d fixed (--format sarif lists them)\n",
		findings[baselineNew], findings[baselineUpdated], findings[baselineUnchanged], findings["absent"])
	if len(out.Flips) == 0 {
		fmt.Fprintln(e.stdout, "no rule flipped")
	} else {
		fmt.Fprintln(e.stdout, "\nflipped rules:")
		for _, f := range out.Flips {
			dir := "fixed  "
			if !f.After {
				dir = "broken "
			}
			fmt.Fprintf(e.stdout, "  %s %s %s\n", dir, f.ID, f.Path)
		}
	}
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
