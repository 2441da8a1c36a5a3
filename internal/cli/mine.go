package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/internal/regfile"
	"github.com/polynfi/polynfi/mine"
)

func newMineCmd(e *env) *cobra.Command {
	var (
		repos, blocks                []string
		rev, since, until, out       string
		droppedOut                   string
		format, blockFile, classList string
		opts                         mine.Options
		ef                           engineFlags
	)
	cmd := &cobra.Command{
		Use:   "mine --repo PATH [--repo PATH ...] --out FILE",
		Short: "Mine non-functional improvements from local git histories (SWE-NFI Stage 2)",
		Long: `Mine merged changes from local clones and write candidate NFI tasks as JSONL.

Merged changes are the first-parent history's merge commits (diffed against
their first parent) and squash commits (subject ending in "(#N)"); other
commits are counted as direct commits and skipped. Changes by bots, dependency
updates, releases and version bumps, and reverts are dropped, each with its
reason. Every modified .py file of a kept change is a PR-file pair, scored
before and after with the rule catalog (I_p per aspect, SWE-NFI Eq. 2) and
classified positive / no_change / regression / scorer_error.

Pairs of the written classes (--classes, default positive) then pass the
filters in this order: file length, diff size, SHA-256 duplicate of
(before, after), per-repository cap. The summary (counts per class, drops
per reason, throughput) goes to stdout; progress to stderr.

--repo takes a clone's path, or NAME=PATH to set the owner/name written into
candidates (default: from the origin remote, else the directory name).
--since and --until take YYYY-MM-DD (until: through the end of that day) or
RFC 3339 times and bound the committer date.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			if len(repos) == 0 {
				return usagef("--repo is required")
			}
			if out == "" {
				return usagef("--out is required")
			}
			for _, r := range repos {
				name, path, ok := strings.Cut(r, "=")
				if !ok {
					name, path = "", r
				}
				if st, err := os.Stat(path); err != nil || !st.IsDir() {
					return usagef("--repo %s: not a directory", path)
				}
				opts.Repos = append(opts.Repos, mine.Repo{Path: path, Name: name})
			}
			var err error
			if opts.Since, err = parseMineDate(since, false); err != nil {
				return usagef("--since: %v", err)
			}
			if opts.Until, err = parseMineDate(until, true); err != nil {
				return usagef("--until: %v", err)
			}
			if !opts.Since.IsZero() && !opts.Until.IsZero() && opts.Until.Before(opts.Since) {
				return usagef("--until %s is before --since %s", until, since)
			}
			if classList == "all" {
				opts.Write = mine.Classes[:]
			} else {
				for _, c := range strings.Split(classList, ",") {
					cl, err := mine.ParseClass(strings.TrimSpace(c))
					if err != nil {
						return usagef("--classes: %v", err)
					}
					opts.Write = append(opts.Write, cl)
				}
			}
			opts.Blocklist = blocks
			if blockFile != "" {
				names, err := readBlocklist(blockFile)
				if err != nil {
					return err
				}
				opts.Blocklist = append(opts.Blocklist, names...)
			}
			eng, err := ef.Engine(".")
			if err != nil {
				return err
			}
			opts.Catalog, opts.Settings, opts.Rev, opts.PythonMinor = eng.Catalog, eng.Settings, rev, eng.PythonMinor

			// The dropped file's flush and close errors are checked like
			// the output's: a full disk must not leave a truncated file
			// behind an exit 0.
			var closeDropped func() error
			if droppedOut != "" {
				df, err := os.Create(droppedOut)
				if err != nil {
					return err
				}
				dw := bufio.NewWriter(df)
				opts.Dropped = dw
				closeDropped = func() error {
					err := dw.Flush()
					if cerr := df.Close(); err == nil {
						err = cerr
					}
					if err != nil {
						return fmt.Errorf("write %s: %w", droppedOut, err)
					}
					return nil
				}
				defer func() {
					if closeDropped != nil {
						closeDropped()
					}
				}()
			}
			f, err := os.Create(out)
			if err != nil {
				return err
			}
			w := bufio.NewWriterSize(f, 1<<20)
			prog := newBar(e.stderr, 0, "mining pairs")
			opts.Progress = func(done, total int) {
				prog.setTotal(total)
				prog.set(done)
			}
			sum, runErr := mine.Run(e.ctx, opts, w)
			prog.finish()
			if err := w.Flush(); err != nil && runErr == nil {
				runErr = err
			}
			if err := f.Close(); err != nil && runErr == nil {
				runErr = err
			}
			if closeDropped != nil {
				err := closeDropped()
				closeDropped = nil
				if err != nil && runErr == nil {
					runErr = err
				}
			}
			if runErr != nil {
				if sum != nil && e.ctx.Err() != nil {
					fmt.Fprintf(e.stderr, "interrupted after %s: %d pairs scored, %d candidates kept in %s\n",
						time.Duration(sum.ElapsedSeconds*float64(time.Second)).Round(time.Second), sum.Pairs, sum.Candidates, out)
				}
				return runErr
			}
			if format == "json" {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					*mine.Summary
					Out string `json:"out"`
				}{sum, out})
			}
			return writeMineText(e.stdout, sum, out)
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&repos, "repo", nil, "local clone to mine (PATH or owner/name=PATH; repeatable)")
	fl.StringVar(&rev, "rev", "HEAD", "revision whose first-parent history is mined")
	fl.StringVar(&since, "since", "", "earliest committer date (YYYY-MM-DD or RFC 3339)")
	fl.StringVar(&until, "until", "", "latest committer date (YYYY-MM-DD or RFC 3339)")
	outFlag(fl, &out, "candidates JSONL file to write")
	fl.StringVar(&droppedOut, "dropped", "", "also write every dropped change with its reason to this JSONL file")
	fl.StringVar(&format, "format", "text", "summary format: text, json")
	fl.StringArrayVar(&blocks, "block", nil, "repository owner/name to skip (repeatable)")
	fl.StringVar(&blockFile, "blocklist", "", "file of repository names to skip, one per line (# comments)")
	fl.IntVar(&opts.MinDiffLines, "min-diff-lines", 1, "fewest added+deleted lines of a candidate")
	fl.IntVar(&opts.MaxDiffLines, "max-diff-lines", 500, "most added+deleted lines of a candidate (0: no bound)")
	fl.IntVar(&opts.MinFileLines, "min-file-lines", 1, "fewest lines of a candidate's before and after")
	fl.IntVar(&opts.MaxFileLines, "max-file-lines", 5000, "most lines of a candidate's before and after (0: no bound)")
	fl.IntVar(&opts.MaxFileBytes, "max-file-bytes", 1<<20, "largest file scored; larger sides make the pair a scorer_error")
	fl.IntVar(&opts.PerRepoCap, "per-repo-cap", 0, "most candidates per repository, oldest first (0: no cap)")
	fl.StringVar(&classList, "classes", "positive", "classes written: comma-separated of positive, no_change, regression, scorer_error, or all")
	workersFlag(fl, &opts.Workers, "files scored")
	ef.register(cmd)
	return cmd
}

// parseMineDate reads YYYY-MM-DD (in UTC; endOfDay moves it to 23:59:59) or
// an RFC 3339 time; "" is the zero time.
func parseMineDate(s string, endOfDay bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		if endOfDay {
			t = t.Add(24*time.Hour - time.Second)
		}
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither YYYY-MM-DD nor an RFC 3339 time", s)
	}
	return t, nil
}

func readBlocklist(path string) ([]string, error) {
	data, err := regfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var names []string
	for i, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.ContainsAny(line, " \t") {
			return nil, fmt.Errorf("%s:%d: %q is not a repository name (owner/name)", path, i+1, line)
		}
		names = append(names, line)
	}
	return names, nil
}

func writeMineText(w io.Writer, s *mine.Summary, out string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	commits, merges, squashes, direct := 0, 0, 0, 0
	for _, r := range s.Repos {
		commits += r.Commits
		merges += r.Merges
		squashes += r.Squashes
		direct += r.Direct
	}
	fmt.Fprintf(tw, "catalog %s (%d DOC, %d ERR, %d LIB, %d STY, %d LOG rules)\n", s.Catalog,
		s.RulesPerAspect["DOC"], s.RulesPerAspect["ERR"], s.RulesPerAspect["LIB"], s.RulesPerAspect["STY"], s.RulesPerAspect["LOG"])
	fmt.Fprintf(tw, "%d repositories: %d first-parent commits, %d merged changes (%d merge, %d squash), %d direct commits skipped\n",
		len(s.Repos), commits, s.MergedChanges, merges, squashes, direct)
	fmt.Fprintf(tw, "changes kept\t%d\n", s.ChangesKept)
	writeCounts(tw, "changes dropped", s.ChangeDrops)
	writeCounts(tw, ".py files skipped", s.FilesSkipped)
	fmt.Fprintf(tw, "pairs\t%d\n", s.Pairs)
	for _, c := range mine.Classes {
		fmt.Fprintf(tw, "  %s\t%d\n", c, s.Classes.Get(c))
	}
	if len(s.KeywordPairs) > 0 {
		fmt.Fprintf(tw, "keyword-tagged pairs (of which improved on that aspect)\n")
		for _, code := range []string{"DOC", "ERR", "LIB", "STY", "LOG"} {
			fmt.Fprintf(tw, "  %s\t%d\t(%d)\n", code, s.KeywordPairs[code], s.KeywordPositive[code])
		}
	}
	classes := make([]string, len(s.Written))
	for i, c := range s.Written {
		classes[i] = string(c)
	}
	writeCounts(tw, "candidates dropped", s.CandidateDrops)
	fmt.Fprintf(tw, "candidates\t%d\t(%s) written to %s\n", s.Candidates, strings.Join(classes, ", "), out)
	if len(s.Repos) > 1 {
		fmt.Fprintf(tw, "per repository\tpairs\tpositive\tno_change\tregression\tscorer_error\tcandidates\n")
		for _, r := range s.Repos {
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%d\t%d\t%d\n", r.Repo, r.Pairs, r.Classes.Positive, r.Classes.NoChange,
				r.Classes.Regression, r.Classes.ScorerError, r.Candidates)
		}
	}
	fmt.Fprintf(tw, "throughput\t%d pairs in %.2fs, %.1f pairs/s on %d workers\n", s.Pairs, s.ElapsedSeconds, s.PairsPerSecond, s.Workers)
	return tw.Flush()
}

func writeCounts(w io.Writer, title string, m map[string]int) {
	total := 0
	keys := make([]string, 0, len(m))
	for k, v := range m {
		total += v
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(w, "%s\t%d\n", title, total)
	for _, k := range keys {
		fmt.Fprintf(w, "  %s\t%d\n", k, m[k])
	}
}
