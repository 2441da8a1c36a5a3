package mine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/polynfi/polynfi/internal/gitexec"
)

// gitCmd builds a git command in dir through the project's one git runner
// (package gitexec: clean environment, no configured programs, its own
// process group killed when ctx ends). A repository whose configuration
// gitexec refuses gives a command that fails with that error.
func gitCmd(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd, err := gitexec.Command(ctx, dir, nil, args...)
	if err != nil {
		bad := exec.CommandContext(ctx, "git")
		bad.Err = err // Start, Run and Output return it
		return bad
	}
	return cmd
}

// gitOutput runs git and returns its stdout; stdin may be nil. A non-zero
// exit becomes an error carrying git's stderr.
func gitOutput(ctx context.Context, dir string, stdin []byte, args ...string) ([]byte, error) {
	cmd := gitCmd(ctx, dir, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s in %s: %s", args[0], dir, msg)
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

// blobReader reads blobs through one long-lived `git cat-file --batch`.
// It is not safe for concurrent use; Close it.
type blobReader struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func newBlobReader(ctx context.Context, dir string) (*blobReader, error) {
	cmd := gitCmd(ctx, dir, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start git cat-file in %s: %w", dir, err)
	}
	return &blobReader{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

// Read returns the content of blob oid and its size in bytes. A blob larger
// than limit bytes (limit > 0) is skipped: data is nil and size is set.
func (b *blobReader) Read(oid string, limit int) (data []byte, size int, err error) {
	if _, err := io.WriteString(b.in, oid+"\n"); err != nil {
		return nil, 0, fmt.Errorf("git cat-file: write %s: %w", oid, err)
	}
	hdr, err := b.out.ReadString('\n')
	if err != nil {
		return nil, 0, fmt.Errorf("git cat-file: read header of %s: %w", oid, err)
	}
	f := strings.Fields(hdr)
	if len(f) == 2 && f[1] == "missing" {
		return nil, 0, fmt.Errorf("git cat-file: blob %s is missing", oid)
	}
	if len(f) != 3 {
		return nil, 0, fmt.Errorf("git cat-file: bad header %q", hdr)
	}
	size, err = strconv.Atoi(f[2])
	if err != nil || size < 0 {
		return nil, 0, fmt.Errorf("git cat-file: bad size in header %q", hdr)
	}
	if limit > 0 && size > limit {
		if _, err := io.CopyN(io.Discard, b.out, int64(size)+1); err != nil {
			return nil, 0, fmt.Errorf("git cat-file: skip %s: %w", oid, err)
		}
		return nil, size, nil
	}
	buf := make([]byte, size+1)
	if _, err := io.ReadFull(b.out, buf); err != nil {
		return nil, 0, fmt.Errorf("git cat-file: read %s: %w", oid, err)
	}
	return buf[:size], size, nil
}

// Close ends the git process.
func (b *blobReader) Close() error {
	b.in.Close()
	return b.cmd.Wait()
}
