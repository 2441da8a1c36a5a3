package cli

import (
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/driver"
	"github.com/polynfi/polynfi/syntax"
)

func newScoreCmd(e *env) *cobra.Command {
	var (
		format     string
		workers    int
		quiet      bool
		diffBase   string
		newCode    bool
		stagedOnly bool
		stdinName  string
		ef         engineFlags
		of         outputFlags
		gf         gateFlags
	)
	cmd := &cobra.Command{
		Use:   "score PATH... | score - --stdin-filename NAME | score --diff-base REF",
		Short: "Score Python files on the five non-functional aspects (SWE-NFI)",
		Long: `Score Python files (directories are searched recursively for *.py) with the
rule catalog: per file its validity, S_p per aspect (passed/total rules,
SWE-NFI Eq. 1) and every rule's verdict with its diagnostics.

Directories are searched without hidden directories, the settings' exclude
(by default environment, cache and build directories such as venv, .venv,
site-packages, build, dist, node_modules, __pycache__) and extend-exclude,
and what git ignores (.gitignore) in a git work tree. Files named on the
command line are always scored. "-" reads one file from standard input,
named by --stdin-filename (for per-file-ignores and the output).

--diff-base REF scores only the .py files that changed between the merge base
of REF and HEAD and the work tree (committed, staged, unstaged and untracked
changes), and compares them with their versions at that merge base (read
from git objects), so that the regression and new-findings gates apply;
--new-code keeps only findings on added or changed lines; the regression
gate judges each file on its own too (see polynfi diff --help). --staged compares
the index instead of the work tree (what the next commit records; unstaged
and untracked files are left out), as a pre-commit hook wants.

Suppressions: a "# noqa" comment silences the findings on its line, "# noqa:
DOC-R01, E722" those of the rules named (a polynfi ID, or the Ruff code of a
rule that is exactly that Ruff check), a "# polynfi: noqa[: IDS]" line the
whole file, and per-file-ignores in the settings whole rules for some paths.
A silenced finding does not fail its rule; it stays in json and sarif,
marked suppressed. --ignore-noqa counts every finding, as SWE-NFI's scores do
(the benchmark's numbers); every report says which ("suppressions").

A path named on the command line that is not a regular file (a named pipe,
a socket, a device) is not opened for reading: it is reported unreadable
(read_error, exit 3) naming the path and its kind; in a searched directory
such *.py entries are skipped with a warning naming each. The first
interrupt (Ctrl-C) stops scoring; a second quits at once.

A file that does not parse, is binary, or is not UTF-8 (without a PEP 263
coding declaration it can be decoded with) is reported invalid with its
status and the first problem's position, and is never scored.

Formats: text (scores and diagnostics), json (streamed: catalog, settings,
files[], summary), sarif (SARIF 2.1.0 for code-scanning tools), github
(workflow annotations), gitlab (Code Quality JSON), junit (JUnit XML),
markdown (a summary). --statistics prints the count per rule instead.

Exit status: 0 when every file was read, whether valid or invalid (invalid
files are results, with their status: syntax_error, binary, encoding_error,
too_large), unless a gate trips (--fail-on invalid, --fail-under, and with
--diff-base --fail-on regression / new-findings; also [gate] in the
settings): then 1; 3 when a PATH does not exist or a file cannot be read
(the other files are still scored and reported); 2 for a usage error.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if diffBase != "" {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.MinimumNArgs(1)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, scoreFormats...); err != nil {
				return err
			}
			workers = workerCount(workers)
			stdin := len(args) == 1 && args[0] == "-"
			if stdin && stdinName == "" {
				return usagef("score -: --stdin-filename NAME is required (the file's name for settings and output)")
			}
			start := "."
			if len(args) > 0 && !stdin {
				start = args[0]
			} else if stdin {
				start = stdinName
			}
			eng, err := ef.Engine(start)
			if err != nil {
				return err
			}
			settingsNote := ""
			if diffBase != "" && !stdin {
				head := ""
				if stagedOnly {
					head = driver.Staged
				}
				if eng, settingsNote, err = ef.BaseSettings(e.ctx, eng, diffBase, head, true); err != nil {
					return err
				}
			}
			gates, err := gf.Gates(eng.Settings, diffBase != "")
			if err != nil {
				return err
			}
			if newCode && diffBase == "" {
				return usagef("--new-code needs --diff-base")
			}
			if stagedOnly && diffBase == "" {
				return usagef("--staged needs --diff-base")
			}
			var files, missing []string
			var cmp *driver.Comparison
			switch {
			case diffBase != "":
				head := ""
				if stagedOnly {
					head = driver.Staged
				}
				if cmp, err = driver.GitComparison(e.ctx, eng, &ef.EngineOptions, diffBase, head, true); err != nil {
					return err
				}
				cmp.Out.SettingsFromBase = settingsNote
				cmp.Finish(newCode)
				if !gf.AllowNew {
					cmp.CountNewSuppressions() // before any output: one S_p per file
				}
				for _, s := range cmp.Out.Skipped {
					fmt.Fprintf(e.stderr, "polynfi: skipped %s (%s): %s\n", s.Path, s.Version, s.Reason)
				}
			case stdin:
			default:
				if files, missing, err = driver.DiscoverWarn(args, eng.Settings, e.stderr); err != nil {
					return err
				}
				if len(files) == 0 && len(missing) > 0 {
					return fmt.Errorf("no such file or directory: %s: %w", strings.Join(missing, ", "), fs.ErrNotExist)
				}
				if len(files) == 0 {
					fmt.Fprintf(e.stderr, "polynfi: no Python files under %s\n", textesc.Terminal(strings.Join(args, ", ")))
				}
			}
			start0 := time.Now()
			var sum driver.ScoreSummary
			var unreadable []string
			var collected []nfi.FileScore
			err = of.write(e, func(w io.Writer) error {
				sink, collect := driver.NewScoreSink(w, format, of.statistics, quiet, eng, cmp, &collected)
				emit := func(fs nfi.FileScore) error {
					sum.Add(fs)
					if fs.Status == nfi.StatusReadError {
						unreadable = append(unreadable, fs.Path)
					}
					return sink.File(fs)
				}
				switch {
				case cmp != nil:
					for _, fs := range cmp.Out.After {
						if err := emit(fs); err != nil {
							return err
						}
					}
				case stdin:
					src, err := io.ReadAll(cmd.InOrStdin())
					if err != nil {
						return fmt.Errorf("read standard input: %w", err)
					}
					parser := syntax.NewParser()
					fs := eng.Score(parser, stdinName, src)
					parser.Close()
					if err := emit(fs); err != nil {
						return err
					}
				default:
					prog := newBar(e.stderr, len(files), "scoring")
					err := eng.ScoreFiles(e.ctx, files, workers, func(fs nfi.FileScore) error {
						prog.add(1)
						return emit(fs)
					})
					prog.finish()
					if err != nil {
						return err
					}
				}
				sum.Finish(eng, time.Since(start0))
				sum.Suppressions = driver.SuppressionMode(eng)
				if cmp != nil {
					cmp.Out.Gates = gates.Check(cmp)
					sum.Gates = cmp.Out.Gates
				} else {
					sum.Gates = gates.CheckScore(sum.Invalid, sum.MeanScores)
				}
				if err := sink.Close(sum); err != nil {
					return err
				}
				if !collect {
					return nil
				}
				return driver.WriteCollected(w, format, of.statistics, eng, cmp, collected, sum, polynfiVersion())
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "scored %s (%d invalid) in %.2fs, %.1f MB/s\n",
				plural(sum.Files, "file"), sum.Invalid, sum.Seconds, sum.MBPerSecond)
			if len(missing) > 0 {
				return fmt.Errorf("no such file or directory: %s: %w", strings.Join(missing, ", "), fs.ErrNotExist)
			}
			if len(unreadable) > 0 {
				return fmt.Errorf("cannot read %s", strings.Join(unreadable, ", "))
			}
			for _, g := range sum.Gates {
				fmt.Fprintf(e.stderr, "polynfi: gate failed: %s\n", textesc.Terminal(g))
			}
			if len(sum.Gates) > 0 {
				return exitError{ExitFindings}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(scoreFormats, ", "))
	workersFlag(cmd.Flags(), &workers, "files scored")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "text format: scores only, no diagnostics")
	cmd.Flags().StringVar(&diffBase, "diff-base", "", "git: score only the .py files changed since the merge base with REF, compared with it")
	cmd.Flags().BoolVar(&newCode, "new-code", false, "with --diff-base: keep only findings on added or changed lines")
	cmd.Flags().BoolVar(&stagedOnly, "staged", false, "with --diff-base: compare the index (staged changes only) instead of the work tree")
	cmd.Flags().StringVar(&stdinName, "stdin-filename", "", "the name of the file read from standard input (PATH -)")
	ef.register(cmd)
	ef.registerSuppressions(cmd)
	of.register(cmd)
	gf.register(cmd)
	return cmd
}

var scoreFormats = []string{"text", "json", "sarif", "github", "gitlab", "junit", "markdown"}

// plural returns "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
