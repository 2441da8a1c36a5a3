// Package mine builds SWE-NFI-style candidate tasks from local git
// histories (SWE-NFI §3.2 Stage 2; polynfi spec §5): it collects merged
// changes (merge commits diffed against their first parent, and squash
// commits whose subject ends in "(#N)"), cleans them (bots, dependency
// updates, releases and version bumps, reverts) recording the reason for
// every dropped change, tags them with aspect keywords, scores every
// PR-file pair (one change × one modified source file: Python, Java,
// JavaScript or TypeScript, see Mineable) with the NFI engine, each file
// judged by the rules of its language,
// classifies each pair (positive, no_change, regression, scorer_error),
// filters the candidates (blocklist, diff-size and file-length bounds,
// per-repository cap, SHA-256 de-duplication) and writes them as JSONL.
//
// Git is read through the git command line (log, diff-tree --stdin and one
// cat-file --batch per repository); pairs are scored on all cores. The
// package never prints: progress goes to a callback.
package mine

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// Candidate filter reasons (pair level, applied in this order to pairs of
// the selected classes). Source: SWE-NFI §3.2 Stage 2 filtering; spec §5.5.
const (
	FilterFileLength = "file_length"  // before or after outside the file-length bounds
	FilterDiffSize   = "diff_size"    // added+deleted lines outside the diff-size bounds
	FilterDuplicate  = "duplicate"    // same SHA-256 of (before, after) as an earlier candidate
	FilterRepoCap    = "per_repo_cap" // the repository already has its cap of candidates
)

// Reasons a modified path yields no PR-file pair.
const (
	SkipAdded      = "added"       // file added by the change
	SkipDeleted    = "deleted"     // file deleted by the change
	SkipNotRegular = "not_regular" // symlink, submodule or type change
	SkipUnchanged  = "unchanged"   // same content (mode change, pure rename)
)

// Repo is one local clone to mine. Name is the owner/name written into
// candidates; when empty, RepoName derives it.
type Repo struct {
	Path string
	Name string
}

// Options configures Run. Zero values mean: HEAD, the whole history, the
// keyword table Keywords, no bounds, no cap, only positive pairs written,
// GOMAXPROCS workers.
type Options struct {
	Repos    []Repo
	Rev      string    // revision whose first-parent history is mined; default HEAD
	Since    time.Time // committer date lower bound, inclusive; zero: none
	Until    time.Time // committer date upper bound, inclusive; zero: none
	Catalog  *nfi.Catalog
	Settings nfi.Settings
	// PythonMinor is the Python 3 minor version whose grammar decides
	// whether a file version parses (nfi.Engine.PythonMinor; 0: the newest).
	PythonMinor int
	Keywords    []Keyword
	// Blocklist holds repository names (owner/name) whose changes are dropped.
	Blocklist []string
	// Diff-size bounds on added+deleted lines of a pair; Max 0 means no bound.
	MinDiffLines, MaxDiffLines int
	// File-length bounds on the lines of both before and after; Max 0 means no bound.
	MinFileLines, MaxFileLines int
	// MaxFileBytes is the largest file read and scored; a larger side makes
	// the pair a scorer_error (too_large). 0 means 1 MiB.
	MaxFileBytes int
	// PerRepoCap is the most candidates written per repository, in history
	// order (oldest first); 0 means no cap.
	PerRepoCap int
	// Write lists the classes written to the output; empty means positive only.
	Write []Class
	// Workers is the number of scoring goroutines; 0 means GOMAXPROCS.
	Workers int
	// Dropped, when set, receives one JSON line (a DroppedChange) per
	// dropped merged change.
	Dropped io.Writer
	// Progress, when set, is called from one goroutine after each pair with
	// the number of pairs done and the total known so far.
	Progress func(done, total int)
}

// ClassCounts holds the four counts of spec §5.4.
type ClassCounts struct {
	Positive    int `json:"positive"`
	NoChange    int `json:"no_change"`
	Regression  int `json:"regression"`
	ScorerError int `json:"scorer_error"`
}

func (c *ClassCounts) add(cl Class) {
	switch cl {
	case Positive:
		c.Positive++
	case NoChange:
		c.NoChange++
	case Regression:
		c.Regression++
	case ScorerError:
		c.ScorerError++
	}
}

// Get returns the count of class cl.
func (c ClassCounts) Get(cl Class) int {
	switch cl {
	case Positive:
		return c.Positive
	case NoChange:
		return c.NoChange
	case Regression:
		return c.Regression
	case ScorerError:
		return c.ScorerError
	}
	return 0
}

// Total is the number of scored pairs.
func (c ClassCounts) Total() int { return c.Positive + c.NoChange + c.Regression + c.ScorerError }

// RepoSummary counts one repository's history.
type RepoSummary struct {
	Repo        string      `json:"repo"`
	Path        string      `json:"path"`
	Commits     int         `json:"commits"`        // first-parent commits in the window
	Merges      int         `json:"merges"`         // merged changes as merge commits
	Squashes    int         `json:"squashes"`       // merged changes as squash commits
	Direct      int         `json:"direct_commits"` // other commits: not merged changes
	ChangesKept int         `json:"changes_kept"`
	Pairs       int         `json:"pairs"`
	Classes     ClassCounts `json:"classes"`
	Candidates  int         `json:"candidates"`
}

// Summary is what a Run found. Every merged change is either kept or has
// one drop reason; every pair of a kept change has one class; every pair of
// a written class is either a candidate or has one filter reason.
type Summary struct {
	Catalog        string         `json:"catalog"`
	RulesPerAspect map[string]int `json:"rules_per_aspect"`
	Repos          []RepoSummary  `json:"repos"`
	MergedChanges  int            `json:"merged_changes"`
	ChangesKept    int            `json:"changes_kept"`
	ChangeDrops    map[string]int `json:"change_drops"`
	FilesSkipped   map[string]int `json:"files_skipped"`
	Pairs          int            `json:"pairs"`
	Classes        ClassCounts    `json:"classes"`
	// KeywordPairs counts, per aspect code, the pairs whose change matched
	// a keyword of that aspect; KeywordPositive those among positive pairs
	// that also improved that aspect.
	KeywordPairs    map[string]int `json:"keyword_pairs"`
	KeywordPositive map[string]int `json:"keyword_positive"`
	Written         []Class        `json:"written_classes"`
	CandidateDrops  map[string]int `json:"candidate_drops"`
	Candidates      int            `json:"candidates"`
	Workers         int            `json:"workers"`
	ElapsedSeconds  float64        `json:"elapsed_s"`
	PairsPerSecond  float64        `json:"pairs_per_s"`
}

// DroppedChange records why a merged change was dropped.
type DroppedChange struct {
	Repo     string `json:"repo"`
	Commit   string `json:"commit"`
	Kind     string `json:"kind"`
	PRNumber int    `json:"pr_number,omitempty"`
	Subject  string `json:"subject"`
	Author   string `json:"author"`
	Date     string `json:"date"`
	Reason   string `json:"reason"`
}

func (ch *change) drop(opts *Options, sum *Summary, reason string) error {
	sum.ChangeDrops[reason]++
	if opts.Dropped == nil {
		return nil
	}
	b, err := json.Marshal(DroppedChange{Repo: ch.name, Commit: ch.c.Hash, Kind: ch.kind, PRNumber: ch.pr,
		Subject: ch.title, Author: ch.c.AuthorName, Date: ch.c.CommitDate, Reason: reason})
	if err != nil {
		return err
	}
	_, err = opts.Dropped.Write(append(b, '\n'))
	return err
}

// change is one merged change and its pairs, before reading content.
type change struct {
	repo   int // index into Summary.Repos
	name   string
	c      commit
	kind   string
	pr     int
	title  string
	kw     map[string][]string
	pairs  []fileChange
	first  int // seq of the first pair
	result []pairResult
}

type job struct {
	seq           int
	ch            *change
	fc            fileChange
	before, after []byte
	bSize, aSize  int // sizes when a side was too large to read
}

type pairResult struct {
	seq         int
	ch          *change
	cand        Candidate
	versionOnly bool
}

var remoteRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[:/]([^/:]+)/([^/]+?)(?:\.git)?/?$`) })

// RepoName derives owner/name for a clone: from the origin remote's URL when
// it is a hosted one (https://github.com/owner/name.git,
// git@host:owner/name); else from the path of a local origin or of the
// clone itself, where a directory named "owner+name" or "owner__name" (the
// last one, or the one above a last one named repo, git or src, as mirrors
// lay them out) reads as owner/name; else the clone directory's name. A
// ".git" suffix is dropped.
func RepoName(ctx context.Context, dir string) string {
	if out, err := gitOutput(ctx, dir, nil, "config", "--get", "remote.origin.url"); err == nil {
		origin := strings.TrimSpace(string(out))
		if local, ok := localRemotePath(origin); ok {
			if name, ok := ownerNameFromPath(local); ok {
				return name
			}
		} else if m := remoteRe().FindStringSubmatch(origin); m != nil {
			return m[1] + "/" + m[2]
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	if name, ok := ownerNameFromPath(abs); ok {
		return name
	}
	base := strings.TrimSuffix(filepath.Base(abs), ".git")
	if base == "" || base == "." {
		base = filepath.Base(filepath.Dir(abs))
	}
	return base
}

// localRemotePath returns the file-system path of a remote URL that names
// a local repository ("/srv/x.git", "../x", "file:///srv/x.git"); ok is
// false for a hosted URL.
func localRemotePath(url string) (string, bool) {
	if p, ok := strings.CutPrefix(url, "file://"); ok {
		return p, true
	}
	if strings.Contains(url, "://") || url == "" {
		return "", false
	}
	// scp-like syntax (host:path) has a colon before any slash
	if i := strings.IndexByte(url, ':'); i >= 0 && !strings.Contains(url[:i], "/") && !filepath.IsAbs(url) {
		return "", false
	}
	return url, true
}

// ownerNameFromPath reads owner/name from the last directory of path named
// "owner+name" or "owner__name", or from the one above it when the last is a
// generic name (repo, git, src), as mirrors lay them out.
func ownerNameFromPath(path string) (string, bool) {
	path = filepath.Clean(path)
	for range 2 {
		base := strings.TrimSuffix(filepath.Base(path), ".git")
		for _, sep := range []string{"+", "__"} {
			if o, n, ok := strings.Cut(base, sep); ok && o != "" && n != "" {
				return o + "/" + n, true
			}
		}
		switch base {
		case "repo", "git", "src", "":
			path = filepath.Dir(path)
		default:
			return "", false
		}
	}
	return "", false
}

// Run mines every repository of opts and writes the candidates of the
// written classes to w as JSONL, one Candidate per line, in history order
// (repositories in the order given, changes oldest first). It returns the
// summary also when ctx is cancelled midway (with ctx's error); what was
// written by then is complete lines.
func Run(ctx context.Context, opts Options, w io.Writer) (*Summary, error) {
	start := time.Now()
	if opts.Catalog == nil {
		return nil, errors.New("mine: no rule catalog")
	}
	engine, err := nfi.NewEngine(opts.Catalog, opts.Settings)
	if err != nil {
		return nil, err
	}
	maxBytes := opts.MaxFileBytes
	if maxBytes <= 0 {
		maxBytes = 1 << 20
	}
	engine.MaxFileSize = maxBytes
	engine.PythonMinor = opts.PythonMinor
	if opts.Rev == "" {
		opts.Rev = "HEAD"
	}
	kws := opts.Keywords
	if kws == nil {
		kws = Keywords
	}
	matcher := NewMatcher(kws)
	write := opts.Write
	if len(write) == 0 {
		write = []Class{Positive}
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	sum := &Summary{
		Catalog:         opts.Catalog.Version,
		RulesPerAspect:  map[string]int{},
		ChangeDrops:     map[string]int{},
		FilesSkipped:    map[string]int{},
		KeywordPairs:    map[string]int{},
		KeywordPositive: map[string]int{},
		CandidateDrops:  map[string]int{},
		Written:         write,
		Workers:         workers,
	}
	for _, a := range nfi.Aspects {
		sum.RulesPerAspect[a.Code()] = engine.Total(a)
	}
	blocked := map[string]bool{}
	for _, b := range opts.Blocklist {
		blocked[strings.ToLower(strings.TrimSpace(b))] = true
	}

	// Phase 1: metadata of every repository (fast): changes and their pairs.
	var changes []*change
	total := 0
	for i, r := range opts.Repos {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		name := r.Name
		if name == "" {
			name = RepoName(ctx, r.Path)
		}
		sum.Repos = append(sum.Repos, RepoSummary{Repo: name, Path: r.Path})
		cs, err := collect(ctx, r.Path, name, i, opts, blocked[strings.ToLower(name)], matcher, sum)
		if err != nil {
			return sum, fmt.Errorf("repository %s: %w", r.Path, err)
		}
		for _, c := range cs {
			c.first = total
			total += len(c.pairs)
		}
		changes = append(changes, cs...)
	}

	// Phase 2: read blobs, score on all cores, collect in order.
	g, gctx := errgroup.WithContext(ctx)
	inflight := make(chan struct{}, 8*workers+64) // bounds pairs held in memory
	jobs := make(chan job, 2*workers)
	results := make(chan pairResult, 2*workers)
	g.Go(func() error {
		defer close(jobs)
		return produce(gctx, opts.Repos, changes, maxBytes, inflight, jobs)
	})
	cache := newScoreCache(4096)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		g.Go(func() error {
			defer wg.Done()
			p := syntax.NewParser()
			defer p.Close()
			for j := range jobs {
				r := score(engine, p, cache, j)
				select {
				case results <- r:
				case <-gctx.Done():
					return gctx.Err()
				}
			}
			return nil
		})
	}
	go func() { wg.Wait(); close(results) }()
	g.Go(func() error {
		return collectResults(gctx, results, inflight, total, opts, write, w, sum)
	})
	err = g.Wait()
	sum.ElapsedSeconds = time.Since(start).Seconds()
	if sum.ElapsedSeconds > 0 {
		sum.PairsPerSecond = float64(sum.Pairs) / sum.ElapsedSeconds
	}
	if err == nil {
		err = ctx.Err()
	}
	return sum, err
}

// collect lists one repository's merged changes, cleans them by metadata
// and finds their PR-file pairs.
func collect(ctx context.Context, dir, name string, ri int, opts Options, blocked bool, m *Matcher, sum *Summary) ([]*change, error) {
	if _, err := gitOutput(ctx, dir, nil, "rev-parse", "--git-dir"); err != nil {
		return nil, err
	}
	log, err := firstParentLog(ctx, dir, opts.Rev, opts.Since, opts.Until)
	if err != nil {
		return nil, err
	}
	rs := &sum.Repos[ri]
	rs.Commits = len(log)
	var merged []*change
	var heads []string
	for _, c := range log {
		kind, pr := kindOf(c)
		switch kind {
		case KindMerge:
			rs.Merges++
			heads = append(heads, c.Parents[1])
		case KindSquash:
			rs.Squashes++
		default:
			rs.Direct++
			continue
		}
		merged = append(merged, &change{repo: ri, name: name, c: c, kind: kind, pr: pr, title: subjectOf(c)})
	}
	sum.MergedChanges += len(merged)
	if blocked {
		for _, ch := range merged {
			if err := ch.drop(&opts, sum, DropBlocklisted); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	headAuthor, err := authors(ctx, dir, heads)
	if err != nil {
		return nil, err
	}
	var kept []*change
	var trees [][2]string
	for _, ch := range merged {
		ha := ""
		if ch.kind == KindMerge {
			a := headAuthor[ch.c.Parents[1]]
			ha = a[0] + " " + a[1]
		}
		if r := dropReasonMessage(ch.c, ha); r != "" {
			if err := ch.drop(&opts, sum, r); err != nil {
				return nil, err
			}
			continue
		}
		kept = append(kept, ch)
		trees = append(trees, [2]string{ch.c.Hash, ch.c.Parents[0]})
	}
	files, err := diffTrees(ctx, dir, trees)
	if err != nil {
		return nil, err
	}
	out := kept[:0]
	for _, ch := range kept {
		for _, fc := range files[ch.c.Hash] {
			if !Mineable(fc.Path) {
				continue
			}
			switch {
			case fc.Status == 'A' || fc.Status == 'C':
				sum.FilesSkipped[SkipAdded]++
			case fc.Status == 'D':
				sum.FilesSkipped[SkipDeleted]++
			case !regular(fc.OldMode) || !regular(fc.NewMode):
				sum.FilesSkipped[SkipNotRegular]++
			case fc.OldOID == fc.NewOID:
				sum.FilesSkipped[SkipUnchanged]++
			case fc.Status == 'M' || fc.Status == 'R':
				ch.pairs = append(ch.pairs, fc)
			default:
				sum.FilesSkipped[SkipNotRegular]++
			}
		}
		if len(ch.pairs) == 0 {
			if err := ch.drop(&opts, sum, DropNoPythonChange); err != nil {
				return nil, err
			}
			continue
		}
		ch.kw = m.Match(keywordText(ch.c))
		out = append(out, ch)
	}
	return out, nil
}

func regular(mode string) bool { return mode == "100644" || mode == "100755" }

// produce reads both sides of every pair, one cat-file process per
// repository, and sends the jobs in order.
func produce(ctx context.Context, repos []Repo, changes []*change, maxBytes int, inflight chan struct{}, jobs chan<- job) error {
	var br *blobReader
	cur := -1
	defer func() {
		if br != nil {
			br.Close()
		}
	}()
	for _, ch := range changes {
		if ch.repo != cur {
			if br != nil {
				br.Close()
			}
			var err error
			br, err = newBlobReader(ctx, repos[ch.repo].Path)
			if err != nil {
				return err
			}
			cur = ch.repo
		}
		for i, fc := range ch.pairs {
			j := job{seq: ch.first + i, ch: ch, fc: fc}
			var err error
			j.before, j.bSize, err = br.Read(fc.OldOID, maxBytes)
			if err != nil {
				return fmt.Errorf("%s %s: %w", ch.c.Hash, fc.OldPath, err)
			}
			j.after, j.aSize, err = br.Read(fc.NewOID, maxBytes)
			if err != nil {
				return fmt.Errorf("%s %s: %w", ch.c.Hash, fc.Path, err)
			}
			select {
			case inflight <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case jobs <- j:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return nil
}

// score computes one pair's candidate record.
func score(e *nfi.Engine, p *syntax.Parser, cache *scoreCache, j job) pairResult {
	ch, fc := j.ch, j.fc
	c := Candidate{
		ID:          fmt.Sprintf("%s@%s:%s", ch.name, short(ch.c.Hash), fc.Path),
		Repo:        ch.name,
		Commit:      ch.c.Hash,
		Parent:      ch.c.Parents[0],
		Kind:        ch.kind,
		PRNumber:    ch.pr,
		Subject:     ch.title,
		Body:        ch.c.Body,
		Author:      ch.c.AuthorName,
		AuthorEmail: ch.c.AuthorEmail,
		Date:        ch.c.CommitDate,
		File:        fc.Path,
		FilesInPR:   len(ch.pairs),
		Before:      string(j.before),
		After:       string(j.after),
		Keywords:    ch.kw,
	}
	if fc.OldPath != fc.Path {
		c.OldFile = fc.OldPath
	}
	r := pairResult{seq: j.seq, ch: ch}
	var fb, fa nfi.FileScore
	if j.before == nil && j.bSize > 0 {
		fb = tooLarge(fc.Path, j.bSize, e.MaxFileSize)
	} else {
		fb = cache.score(e, p, fc.OldOID, fc.Path, j.before)
	}
	if j.after == nil && j.aSize > 0 {
		fa = tooLarge(fc.Path, j.aSize, e.MaxFileSize)
	} else {
		fa = cache.score(e, p, fc.NewOID, fc.Path, j.after)
	}
	if j.before != nil && j.after != nil {
		a, b := SplitLines(c.Before), SplitLines(c.After)
		c.BeforeLines, c.AfterLines = len(a), len(b)
		ops := LineDiff(a, b)
		c.AddedLines, c.DeletedLines = DiffStat(ops)
		var changed []string
		for _, op := range ops {
			if op.Kind != OpEqual {
				changed = append(changed, op.Text)
			}
		}
		r.versionOnly = isVersionOnly(changed)
	}
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(j.before)))
	h.Write(n[:])
	h.Write(j.before)
	h.Write(j.after)
	c.SHA256 = hex.EncodeToString(h.Sum(nil))
	d := nfi.Compare([]nfi.FileScore{fb}, []nfi.FileScore{fa})
	c.ScoresBefore, c.ScoresAfter, c.Improvement = d.Before, d.After, d.Improvement
	for _, f := range d.Flips {
		f.Path = ""
		c.Flipped = append(c.Flipped, f)
	}
	c.Class = Classify(d)
	if c.Class == ScorerError {
		var why []string
		if !fb.Valid {
			why = append(why, "before: "+fileErr(fb))
		}
		if !fa.Valid {
			why = append(why, "after: "+fileErr(fa))
		}
		c.ScorerError = strings.Join(why, "; ")
	}
	r.cand = c
	return r
}

func fileErr(f nfi.FileScore) string {
	if f.Error != nil {
		return f.Status + " at " + f.Error.Error()
	}
	return f.Status
}

func tooLarge(path string, size, limit int) nfi.FileScore {
	return nfi.FileScore{Path: path, Bytes: size, Status: nfi.StatusTooLarge,
		Error: &nfi.FileError{Line: 1, Column: 1, Message: fmt.Sprintf("file is %d bytes, over the %d-byte limit", size, limit)}}
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// collectResults puts results back in history order, finishes each change
// (version-bump check, counts, filters) and writes candidates.
func collectResults(ctx context.Context, results <-chan pairResult, inflight <-chan struct{}, total int, opts Options, write []Class, w io.Writer, sum *Summary) error {
	pending := map[int]pairResult{}
	next := 0
	seen := map[string]bool{}
	perRepo := map[int]int{}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	written := map[Class]bool{}
	for _, c := range write {
		written[c] = true
	}
	for r := range results {
		pending[r.seq] = r
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-inflight
			ch := r.ch
			if !written[r.cand.Class] {
				r.cand.Before, r.cand.After = "", "" // not needed any more
			}
			ch.result = append(ch.result, r)
			if len(ch.result) < len(ch.pairs) {
				continue
			}
			if err := finish(ch, opts, written, seen, perRepo, enc, sum); err != nil {
				return err
			}
			ch.result = nil
			if opts.Progress != nil {
				opts.Progress(next, total)
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// finish accounts for one complete change.
func finish(ch *change, opts Options, written map[Class]bool, seen map[string]bool, perRepo map[int]int, enc *json.Encoder, sum *Summary) error {
	versionOnly := true
	for _, r := range ch.result {
		versionOnly = versionOnly && r.versionOnly
	}
	if versionOnly {
		return ch.drop(&opts, sum, DropRelease)
	}
	sum.ChangesKept++
	rs := &sum.Repos[ch.repo]
	rs.ChangesKept++
	for _, r := range ch.result {
		c := &r.cand
		sum.Pairs++
		rs.Pairs++
		sum.Classes.add(c.Class)
		rs.Classes.add(c.Class)
		for code := range c.Keywords {
			sum.KeywordPairs[code]++
			if c.Class == Positive {
				if a, err := nfi.ParseAspect(code); err == nil {
					if v, ok := c.Improvement.Get(a); ok && v > 1e-12 {
						sum.KeywordPositive[code]++
					}
				}
			}
		}
		if !written[c.Class] {
			continue
		}
		reason := ""
		switch {
		case !within(c.BeforeLines, opts.MinFileLines, opts.MaxFileLines) || !within(c.AfterLines, opts.MinFileLines, opts.MaxFileLines):
			reason = FilterFileLength
		case !within(c.AddedLines+c.DeletedLines, opts.MinDiffLines, opts.MaxDiffLines):
			reason = FilterDiffSize
		case seen[c.SHA256]:
			reason = FilterDuplicate
		case opts.PerRepoCap > 0 && perRepo[ch.repo] >= opts.PerRepoCap:
			reason = FilterRepoCap
		}
		if reason != "" {
			sum.CandidateDrops[reason]++
			continue
		}
		seen[c.SHA256] = true
		perRepo[ch.repo]++
		sum.Candidates++
		rs.Candidates++
		if err := enc.Encode(c); err != nil {
			return fmt.Errorf("write candidate %s: %w", c.ID, err)
		}
	}
	return nil
}

func within(v, lo, hi int) bool { return v >= lo && (hi <= 0 || v <= hi) }

// scoreCache memoizes FileScores by blob id: a file's "after" is often the
// next change's "before". Safe for concurrent use; a blob being scored by
// one worker is waited for by the others.
type scoreCache struct {
	mu    sync.Mutex
	m     map[string]*cacheEntry
	order []string
	cap   int
}

type cacheEntry struct {
	done chan struct{}
	fs   nfi.FileScore
}

func newScoreCache(n int) *scoreCache { return &scoreCache{m: map[string]*cacheEntry{}, cap: n} }

func (c *scoreCache) score(e *nfi.Engine, p *syntax.Parser, oid, path string, src []byte) nfi.FileScore {
	// one blob under two names of different languages scores twice
	oid += ":" + nfi.SourceLanguage(path).String()
	c.mu.Lock()
	if en, ok := c.m[oid]; ok {
		c.mu.Unlock()
		<-en.done
		fs := en.fs
		fs.Path = path
		return fs
	}
	en := &cacheEntry{done: make(chan struct{})}
	c.m[oid] = en
	c.order = append(c.order, oid)
	if len(c.order) > 2*c.cap {
		for _, old := range c.order[:len(c.order)-c.cap] {
			delete(c.m, old)
		}
		c.order = slices.Clone(c.order[len(c.order)-c.cap:])
	}
	c.mu.Unlock()
	en.fs = e.Score(p, visibilityPath(path), src)
	en.fs.Path = path
	close(en.done)
	return en.fs
}

// Mineable reports whether a modified file of a change makes a PR-file
// pair: a file nfi.IsSource accepts (.py, .js, .jsx, .cjs, .mjs, .ts,
// .mts, .cts, .tsx) or a .java file. A file of a language the catalog has
// no rule for parses or not (a scorer_error when not) and has no I_p: its
// pair is no_change.
func Mineable(p string) bool {
	return nfi.IsSource(p) || strings.HasSuffix(p, ".java")
}

// visibilityPath is the path given to the engine (module visibility is
// decided from the file name).
func visibilityPath(p string) string { return path.Clean(p) }
