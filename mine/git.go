package mine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/polynfi/polynfi/internal/gitexec"
)

// gitOutput runs git in dir through the project's one git runner
// (gitexec.Output: clean environment, no configured programs, its own
// process group killed when ctx ends) and returns its stdout; stdin may be
// nil. A non-zero exit becomes an error carrying git's stderr.
func gitOutput(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	var in io.Reader
	if stdin != nil {
		in = bytes.NewReader(stdin)
	}
	out, err := gitexec.Output(ctx, dir, in, args...)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// commit is one commit of the first-parent history as git log reports it.
type commit struct {
	Hash        string
	Parents     []string
	AuthorName  string
	AuthorEmail string
	AuthorDate  string // ISO 8601 strict
	CommitDate  string // ISO 8601 strict
	Subject     string
	Body        string
}

const (
	recSep   = "\x1e"
	fieldSep = "\x1f"
)

// logFormat asks git log for one record per commit: fields separated by
// U+001F, records introduced by U+001E (neither occurs in commit messages in
// practice; a message that holds one is cut there).
const logFormat = "--format=" + "%x1e%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cI%x1f%s%x1f%b"

// firstParentLog lists the first-parent history of rev in dir, oldest first,
// restricted to the committer-date window [since, until] when set.
func firstParentLog(ctx context.Context, dir, rev string, since, until time.Time) ([]commit, error) {
	args := []string{"log", "--first-parent", "--reverse", "--no-color", "--encoding=UTF-8", logFormat}
	if !since.IsZero() {
		args = append(args, "--since="+since.Format(time.RFC3339))
	}
	if !until.IsZero() {
		args = append(args, "--until="+until.Format(time.RFC3339))
	}
	args = append(args, rev, "--")
	out, err := gitOutput(ctx, dir, nil, args...)
	if err != nil {
		return nil, err
	}
	return parseLog(out)
}

// parseLog parses the output of logFormat.
func parseLog(out []byte) ([]commit, error) {
	var cs []commit
	for i, rec := range strings.Split(string(out), recSep) {
		if i == 0 {
			if strings.TrimSpace(rec) != "" {
				return nil, fmt.Errorf("git log: unexpected output before the first record: %.40q", rec)
			}
			continue
		}
		f := strings.SplitN(rec, fieldSep, 8)
		if len(f) != 8 {
			return nil, fmt.Errorf("git log: record %d has %d fields, want 8", i, len(f))
		}
		c := commit{
			Hash:        f[0],
			AuthorName:  clean(f[2]),
			AuthorEmail: clean(f[3]),
			AuthorDate:  f[4],
			CommitDate:  f[5],
			Subject:     clean(f[6]),
			Body:        clean(strings.TrimRight(f[7], "\n")),
		}
		if p := strings.Fields(f[1]); len(p) > 0 {
			c.Parents = p
		}
		if len(c.Hash) < 40 {
			return nil, fmt.Errorf("git log: record %d: bad commit hash %q", i, c.Hash)
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// clean makes git's text valid UTF-8 (odd encodings in old histories) and
// trims surrounding space.
func clean(s string) string {
	return strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
}

// authors returns name and email of each given commit, keyed by hash.
func authors(ctx context.Context, dir string, hashes []string) (map[string][2]string, error) {
	m := map[string][2]string{}
	if len(hashes) == 0 {
		return m, nil
	}
	in := strings.Join(hashes, "\n") + "\n"
	out, err := gitOutput(ctx, dir, []byte(in), "log", "--no-walk=unsorted", "--stdin", "--encoding=UTF-8", "--format=%H%x1f%an%x1f%ae")
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Split(line, fieldSep)
		if len(f) == 3 {
			m[f[0]] = [2]string{clean(f[1]), clean(f[2])}
		}
	}
	return m, nil
}

// fileChange is one entry of git diff-tree --raw.
type fileChange struct {
	OldMode, NewMode string
	OldOID, NewOID   string
	Status           byte // A, C, D, M, R, T, U, X
	OldPath, Path    string
}

// diffTrees runs one git diff-tree over every (commit, first parent) pair
// and returns the raw file changes per commit. Renames are detected (-M).
func diffTrees(ctx context.Context, dir string, pairs [][2]string) (map[string][]fileChange, error) {
	res := map[string][]fileChange{}
	if len(pairs) == 0 {
		return res, nil
	}
	var in strings.Builder
	for _, p := range pairs {
		in.WriteString(p[0] + " " + p[1] + "\n")
	}
	out, err := gitOutput(ctx, dir, []byte(in.String()), "diff-tree", "--stdin", "-r", "-M", "--raw", "-z")
	if err != nil {
		return nil, err
	}
	return parseDiffTree(out)
}

// parseDiffTree parses `git diff-tree --stdin -r --raw -z` output: a commit
// hash, then for each file ":oldmode newmode oldoid newoid STATUS" followed by
// one path (two for renames and copies), every item NUL-terminated.
func parseDiffTree(out []byte) (map[string][]fileChange, error) {
	res := map[string][]fileChange{}
	items := strings.Split(string(out), "\x00")
	cur := ""
	for i := 0; i < len(items); i++ {
		it := items[i]
		if it == "" || it == "\n" {
			continue
		}
		it = strings.TrimPrefix(it, "\n")
		if !strings.HasPrefix(it, ":") {
			cur = strings.TrimSpace(it)
			if _, ok := res[cur]; !ok {
				res[cur] = nil
			}
			continue
		}
		if cur == "" {
			return nil, errors.New("git diff-tree: file entry before any commit")
		}
		f := strings.Fields(it[1:])
		if len(f) != 5 || f[4] == "" {
			return nil, fmt.Errorf("git diff-tree: bad entry %q", it)
		}
		fc := fileChange{OldMode: f[0], NewMode: f[1], OldOID: f[2], NewOID: f[3], Status: f[4][0]}
		n := 1
		if fc.Status == 'R' || fc.Status == 'C' {
			n = 2
		}
		if i+n >= len(items) {
			return nil, fmt.Errorf("git diff-tree: entry %q lacks its path", it)
		}
		if n == 2 {
			fc.OldPath, fc.Path = items[i+1], items[i+2]
		} else {
			fc.OldPath, fc.Path = items[i+1], items[i+1]
		}
		i += n
		res[cur] = append(res[cur], fc)
	}
	return res, nil
}

// blobReader reads blobs through one long-lived `git cat-file --batch`
// (gitexec.Batch). It is not safe for concurrent use; Close it.
type blobReader struct{ *gitexec.Batch }

func newBlobReader(ctx context.Context, dir string) (*blobReader, error) {
	b, err := gitexec.NewBatch(ctx, dir)
	if err != nil {
		return nil, err
	}
	return &blobReader{b}, nil
}

// Read returns the content of blob oid and its size in bytes. A blob larger
// than limit bytes (limit > 0) is skipped: data is nil and size is set.
func (b *blobReader) Read(oid string, limit int) (data []byte, size int, err error) {
	o, ok, err := b.Batch.Read(oid, true, limit)
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		return nil, 0, fmt.Errorf("git cat-file: blob %s is missing", oid)
	}
	return o.Data, o.Size, nil
}
