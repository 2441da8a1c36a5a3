package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
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
			var sum scoreSummary
			var unreadable []string
			var collected []nfi.FileScore
			err = of.write(e, func(w io.Writer) error {
				var sink scoreSink
				collect := of.statistics || format == "github" || format == "gitlab" || format == "junit" || format == "markdown"
				switch {
				case collect:
					sink = &collectSink{files: &collected}
				case format == "json":
					sink = newJSONScoreSink(w, eng)
				case format == "sarif":
					sink = sarifScoreSink{driver.NewSARIFSink(w, eng)}
				default:
					sink = &textScoreSink{w: bufio.NewWriter(w), quiet: quiet, cmp: cmp, provenance: driver.ProvenanceLine(eng)}
				}
				emit := func(fs nfi.FileScore) error {
					sum.add(fs)
					if fs.Status == nfi.StatusReadError {
						unreadable = append(unreadable, fs.Path)
					}
					return sink.file(fs)
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
				sum.finish(eng, time.Since(start0))
				sum.Suppressions = driver.SuppressionMode(eng)
				if cmp != nil {
					cmp.Out.Gates = gates.Check(cmp)
					sum.Gates = cmp.Out.Gates
				} else {
					sum.Gates = gates.CheckScore(sum.Invalid, sum.MeanScores)
				}
				if err := sink.close(sum); err != nil {
					return err
				}
				if !collect {
					return nil
				}
				fs := driver.FileFindings(collected)
				if cmp != nil {
					fs = cmp.Findings()
				}
				if of.statistics {
					return driver.WriteStatistics(w, format, eng, fs, false)
				}
				var invalid []nfi.InvalidFile
				for _, f := range collected {
					if !f.Valid {
						invalid = append(invalid, nfi.InvalidFile{Path: f.Path, Version: nfi.VersionAfter, Status: f.Status, Error: f.Error})
					}
				}
				switch format {
				case "github":
					return driver.WriteGitHub(w, fs, invalid, false, sum.Gates, scoreNotice(sum))
				case "gitlab":
					return driver.WriteGitLab(w, fs, invalid, nil)
				case "junit":
					return driver.WriteJUnit(w, eng, collected, nil)
				}
				return writeScoreMarkdown(w, eng, collected, sum)
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

// collectSink keeps the files for writers that need them all.
type collectSink struct{ files *[]nfi.FileScore }

func (c *collectSink) file(fs nfi.FileScore) error { *c.files = append(*c.files, fs); return nil }
func (c *collectSink) close(scoreSummary) error    { return nil }

func scoreNotice(sum scoreSummary) string {
	return fmt.Sprintf("%s: %d valid, %d invalid; mean S_p:%s", plural(sum.Files, "file"), sum.Valid, sum.Invalid, formatScores(sum.MeanScores))
}

// writeScoreMarkdown writes a score run as Markdown: mean S_p, files,
// findings per rule.
func writeScoreMarkdown(w io.Writer, eng *nfi.Engine, files []nfi.FileScore, sum scoreSummary) error {
	fmt.Fprintf(w, "## polynfi: non-functional quality\n\n%s: %d valid, %d invalid.\n\n", plural(sum.Files, "file"), sum.Valid, sum.Invalid)
	fmt.Fprintln(w, "| Aspect | mean S_p |")
	fmt.Fprintln(w, "|---|---:|")
	for _, a := range nfi.Aspects {
		if v, ok := sum.MeanScores.Get(a); ok {
			fmt.Fprintf(w, "| %s (%s) | %.3f |\n", a.Code(), a, v)
		}
	}
	fmt.Fprintln(w, "\n| File | DOC | ERR | LIB | STY | LOG | findings |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
	for _, f := range files {
		if !f.Valid {
			fmt.Fprintf(w, "| `%s` | invalid (%s) | | | | | |\n", textesc.MarkdownCode(f.Path), f.Status)
			continue
		}
		fmt.Fprintf(w, "| `%s` |", textesc.MarkdownCode(f.Path))
		for _, a := range nfi.Aspects {
			if v, ok := f.Scores.Get(a); ok {
				fmt.Fprintf(w, " %.2f |", v)
			} else {
				fmt.Fprint(w, " – |")
			}
		}
		n := 0
		for _, d := range driver.Diagnostics(&f) {
			if d.Suppressed == "" {
				n++
			}
		}
		fmt.Fprintf(w, " %d |\n", n)
	}
	for _, g := range sum.Gates {
		fmt.Fprintf(w, "\n- gate failed: %s", textesc.Markdown(g))
	}
	fmt.Fprintf(w, "\n<sub>polynfi %s · catalog %s · suppressions %s</sub>\n", textesc.Markdown(polynfiVersion()), eng.Catalog.Version, driver.SuppressionMode(eng))
	return nil
}

// scoreSummary aggregates a score run.
type scoreSummary struct {
	Files       int            `json:"files"`
	Valid       int            `json:"valid"`
	Invalid     int            `json:"invalid"`
	ByStatus    map[string]int `json:"by_status"`
	MeanScores  nfi.Scores     `json:"mean_scores"`
	Bytes       int64          `json:"bytes"`
	Seconds     float64        `json:"seconds"`
	MBPerSecond float64        `json:"mb_per_second"`
	// Suppressed counts the findings suppressions silenced.
	Suppressed int `json:"suppressed"`
	// Suppressions is "honoured" or "ignored" (--ignore-noqa).
	Suppressions string `json:"suppressions"`
	// Gates lists the gates that tripped.
	Gates []string `json:"gates_failed,omitempty"`

	sums [5]float64
	ns   [5]int
}

func (s *scoreSummary) add(fs nfi.FileScore) {
	s.Files++
	s.Bytes += int64(fs.Bytes)
	if s.ByStatus == nil {
		s.ByStatus = map[string]int{}
	}
	s.ByStatus[fs.Status]++
	s.Suppressed += fs.Suppressed
	if !fs.Valid {
		s.Invalid++
		return
	}
	s.Valid++
	for i, a := range nfi.Aspects {
		if v, ok := fs.Scores.Get(a); ok {
			s.sums[i] += v
			s.ns[i]++
		}
	}
}

func (s *scoreSummary) finish(_ *nfi.Engine, d time.Duration) {
	m := map[nfi.Aspect]float64{}
	for i, a := range nfi.Aspects {
		if s.ns[i] > 0 {
			m[a] = s.sums[i] / float64(s.ns[i])
		}
	}
	s.MeanScores = nfi.NewScores(m)
	s.Seconds = d.Seconds()
	if s.Seconds > 0 {
		s.MBPerSecond = float64(s.Bytes) / 1e6 / s.Seconds
	}
}

// plural returns "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

type scoreSink interface {
	file(nfi.FileScore) error
	close(scoreSummary) error
}

type textScoreSink struct {
	w     *bufio.Writer
	quiet bool
	// cmp is the comparison of --diff-base (nil without): its I_p and
	// finding counts follow the summary.
	cmp *driver.Comparison
	// provenance is the last line (driver.ProvenanceLine).
	provenance string
}

func formatScores(s nfi.Scores) string {
	out := ""
	for _, a := range nfi.Aspects {
		if v, ok := s.Get(a); ok {
			out += fmt.Sprintf("  %s %.3f", a.Code(), v)
		}
	}
	return out
}

func (t *textScoreSink) file(fs nfi.FileScore) error {
	if !fs.Valid {
		fmt.Fprintf(t.w, "%s: invalid (%s", textesc.Terminal(fs.Path), fs.Status)
		switch {
		case fs.Error != nil && fs.Error.Line > 0:
			fmt.Fprintf(t.w, " at %d:%d: %s", fs.Error.Line, fs.Error.Column, textesc.Terminal(fs.Error.Message))
		case fs.Error != nil:
			fmt.Fprintf(t.w, ": %s", textesc.Terminal(fs.Error.Message))
		}
		fmt.Fprintln(t.w, ")")
		return nil
	}
	fmt.Fprintf(t.w, "%s:%s\n", textesc.Terminal(fs.Path), formatScores(fs.Scores))
	if !t.quiet {
		for _, r := range fs.Rules {
			for _, d := range r.Diagnostics {
				if d.Suppressed == "" {
					fmt.Fprintf(t.w, "  %s:%d:%d: %s %s\n", textesc.Terminal(fs.Path), d.Line, d.Column, d.RuleID, textesc.Terminal(d.Message))
				}
			}
		}
		driver.WriteUnused(t.w, []nfi.FileScore{fs})
	}
	return nil
}

func (t *textScoreSink) close(s scoreSummary) error {
	mean := formatScores(s.MeanScores)
	if s.Valid == 0 {
		mean = " none (no valid file)"
	}
	fmt.Fprintf(t.w, "\n%s: %d valid, %d invalid; mean S_p:%s\n", plural(s.Files, "file"), s.Valid, s.Invalid, mean)
	if s.Suppressed > 0 {
		fmt.Fprintf(t.w, "suppressions honoured: %s silenced (--ignore-noqa scores as SWE-NFI)\n", plural(s.Suppressed, "finding"))
	}
	if t.cmp != nil {
		fmt.Fprintf(t.w, "compared with %s at %s: %s\n", t.cmp.Labels[0], driver.ShortID(t.cmp.Out.Git.MergeBase), driver.DiffNotice(t.cmp))
		if t.cmp.Out.SettingsFromBase != "" {
			fmt.Fprintf(t.w, "settings: this change edits them; both versions scored with the before version's (%s)\n", t.cmp.Out.SettingsFromBase)
		}
		driver.WriteFileView(t.w, t.cmp.Out)
	}
	for _, g := range s.Gates {
		fmt.Fprintf(t.w, "gate failed: %s\n", textesc.Terminal(g))
	}
	fmt.Fprintln(t.w, t.provenance)
	return t.w.Flush()
}

// jsonScoreSink streams {"catalog":..., "files":[...], "summary":...}.
type jsonScoreSink struct {
	w     *bufio.Writer
	first bool
	// buf and enc encode each file record (marshalPlain's encoding) into
	// one reused buffer
	buf bytes.Buffer
	enc *json.Encoder
}

func newJSONScoreSink(w io.Writer, e *nfi.Engine) *jsonScoreSink {
	s := &jsonScoreSink{w: bufio.NewWriter(w), first: true}
	hdr, _ := marshalPlain(driver.SummarizeSettings(e))
	// open the object with the settings summary's fields, then the files array
	fmt.Fprintf(s.w, "{\"run\": %s,\n\"files\": [\n", hdr)
	return s
}

// marshalPlain is json.Marshal without HTML escaping ("<" stays "<").
func marshalPlain(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func (s *jsonScoreSink) file(fs nfi.FileScore) error {
	if s.enc == nil {
		s.enc = json.NewEncoder(&s.buf)
		s.enc.SetEscapeHTML(false)
	}
	s.buf.Reset()
	if err := s.enc.Encode(fs); err != nil {
		return err
	}
	b := bytes.TrimRight(s.buf.Bytes(), "\n")
	if s.buf.Cap() > 1<<22 {
		// one huge record must not pin its buffer for the run
		defer func() { s.buf = bytes.Buffer{}; s.enc = nil }()
	}
	if !s.first {
		s.w.WriteString(",\n")
	}
	s.first = false
	s.w.Write(b)
	return nil
}

func (s *jsonScoreSink) close(sum scoreSummary) error {
	b, err := marshalPlain(sum)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.w, "\n],\n\"summary\": %s}\n", b)
	return s.w.Flush()
}

// sarifScoreSink writes score's SARIF log.
type sarifScoreSink struct{ *driver.SARIFSink }

func (s sarifScoreSink) file(fs nfi.FileScore) error { return s.File(fs) }
func (s sarifScoreSink) close(scoreSummary) error    { return s.Close() }
