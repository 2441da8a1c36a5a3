package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi/driver"
)

func newDiffCmd(e *env) *cobra.Command {
	var (
		formats  []string
		base     string
		head     string
		ef       engineFlags
		of       outputFlags
		gf       gateFlags
		newCode  bool
		noMerge  bool
		maxShown int
	)
	cmd := &cobra.Command{
		Use:   "diff BEFORE AFTER | diff --base REF [--head REF]",
		Short: "Score a change: S_p before and after, I_p per aspect, new and fixed findings, gates",
		Long: `Compare two versions of Python code: two files, two directories whose *.py
files are matched by relative path, or, with --base, two revisions of the git
repository holding the working directory.

Git-aware (--base REF [--head REF], head defaults to HEAD): only the .py files
the change touches are scored, read straight from git objects (no checkout,
no change to the work tree or index), at the merge base of REF and head (as
a pull request's "files changed" and ` + "`git diff REF...HEAD`" + ` use; --no-merge-base
takes REF itself) and at head. Renames are followed.

Prints S_p before and after (mean over the files present in each version),
the improvement I_p = S_p(after) - S_p(before) per aspect in percentage
points (SWE-NFI Eq. 2), every rule whose verdict flipped, and the findings
along a line alignment of the two versions of each file: new, updated
(same rule, another message), unchanged, fixed. --new-code keeps only
findings on added or changed lines (S_p still covers whole files).

Broken code: a file that cannot be scored (syntax error, binary, encoding)
in either version makes the comparison undefined: no I_p is printed, the
invalid files are named with their version, and the exit code is 1. A change
that breaks a file can never show an improvement. A version with no Python
file at all (a change that touches none, or only adds or only deletes
files) has no S_p, so I_p is not printed either, but that is no failure.

The PR gate (--fail-on regression, new-findings) also judges each file on
its own, whatever the mean does: a file in both versions (renames followed,
also to a name without .py or into an excluded directory) whose own S_p of
an aspect falls; an added file split from a file of the change, against
that file; any other added file whose S_p is below the before version's
mean; findings silenced by # noqa comments the change adds count
(--allow-new-suppressions honours them); a change that edits the settings
is scored with the before version's settings. See README, "The
pull-request gate's exact rules".

Formats: text, json, sarif (after results with baselineState), github
(workflow annotations of new findings), gitlab (Code Quality JSON), junit
(JUnit XML), markdown (a pull-request summary). --statistics prints the
count per rule instead. One run writes several formats of the same
comparison: --format github --format markdown=summary.md (FORMAT=PATH
writes PATH atomically; at most one --format without =PATH, on standard
output or --out).

Exit status: 0 ok; 1 a gate tripped (--fail-on, --fail-under, [gate] of the
settings) or a file cannot be scored; 2 usage error; 3 error (a path
that does not exist, git failure, I/O).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if base != "" {
				return cobra.NoArgs(cmd, args)
			}
			if head != "" {
				return usagef("--head needs --base")
			}
			return cobra.ExactArgs(2)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			outs, err := driver.ParseFormatOutputs(formats, diffFormats)
			if err != nil {
				return err
			}
			toStdout := false
			for _, o := range outs {
				if o.Path == "" {
					toStdout = true
				} else if err := checkOutputFile("--format "+o.Format, o.Path); err != nil {
					return err
				}
			}
			if of.output != "" && !toStdout {
				return usagef("--out %s: every --format has its own =PATH", of.output)
			}
			start := "."
			if len(args) == 2 {
				start = args[1]
			}
			eng, err := ef.Engine(start)
			if err != nil {
				return err
			}
			settingsNote := ""
			if base != "" {
				h := head
				if h == "" {
					h = "HEAD"
				}
				if eng, settingsNote, err = ef.BaseSettings(e.ctx, eng, base, h, !noMerge); err != nil {
					return err
				}
			}
			gates, err := gf.Gates(eng.Settings, true)
			if err != nil {
				return err
			}
			var c *driver.Comparison
			if base != "" {
				if head == "" {
					head = "HEAD"
				}
				c, err = driver.GitComparison(e.ctx, eng, &ef.EngineOptions, base, head, !noMerge)
			} else {
				c, err = driver.PathComparison(eng, args[0], args[1])
			}
			if err != nil {
				return err
			}
			c.Out.SettingsFromBase = settingsNote
			c.Finish(newCode)
			if !gf.AllowNew {
				c.CountNewSuppressions() // before any output: one S_p per file
			}
			c.Out.Gates = gates.Check(c)
			var files []driver.FormatOutput
			for _, o := range outs {
				if o.Path == "" {
					err = of.write(e, func(w io.Writer) error {
						return driver.WriteFormats(w, []driver.FormatOutput{o}, of.statistics, eng, c, maxShown)
					})
				} else {
					files = append(files, o)
				}
				if err != nil {
					return err
				}
			}
			if err := driver.WriteFormats(nil, files, of.statistics, eng, c, maxShown); err != nil {
				return err
			}
			for _, g := range c.Out.Gates {
				fmt.Fprintf(e.stderr, "polynfi: gate failed: %s\n", textesc.Terminal(g))
			}
			// Broken code makes the comparison undefined and fails; a
			// version without any Python file (a change touching none, or
			// only adding or only deleting files) has no I_p but is not
			// an error.
			if len(c.Out.Invalid) > 0 || len(c.Out.Gates) > 0 {
				return exitError{ExitFindings}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&formats, "format", nil, "output format: "+strings.Join(diffFormats, ", ")+
		" (default text); FORMAT=PATH writes it to PATH atomically; repeatable, at most one to standard output")
	cmd.Flags().StringVar(&base, "base", "", "git: compare with this revision (branch, tag, commit)")
	cmd.Flags().StringVar(&head, "head", "", "git: the changed revision (default HEAD)")
	cmd.Flags().BoolVar(&noMerge, "no-merge-base", false, "git: compare with --base itself, not its merge base with head")
	cmd.Flags().BoolVar(&newCode, "new-code", false, "keep only findings on added or changed lines")
	cmd.Flags().IntVar(&maxShown, "max-findings", 20, "text and markdown: new findings listed at most")
	ef.register(cmd)
	ef.registerSuppressions(cmd)
	of.register(cmd)
	gf.register(cmd)
	return cmd
}

var diffFormats = driver.DiffFormats
