package cli

// Every git call of score and diff goes through the project's one git
// runner, internal/gitexec (runGit, and gitexec.Command for cat-file).

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/internal/gitexec"
)

// errNotGitRepo is returned when a git-aware mode runs outside a work tree.
var errNotGitRepo = errors.New("not inside a git work tree")

// runGit runs git in dir through the project's safe runner (gitexec:
// clean environment, no system or global configuration, every configured
// program neutralized, repository discovery stopped at dir's parent, so
// dir must be the work tree's top; see gitRoot).
func runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return gitexec.Output(ctx, dir, nil, args...)
}

// gitRoot returns the top directory of the work tree holding dir: the
// nearest directory upwards with a .git entry (directory, or file of a
// linked worktree), confirmed by git. gitexec stops repository discovery
// at the directory it runs in, so the top is found here first.
func gitRoot(ctx context.Context, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			out, err := runGit(ctx, d, "rev-parse", "--show-toplevel")
			if err != nil {
				if ctx.Err() != nil {
					return "", err
				}
				return "", fmt.Errorf("%s: %w: %v", dir, errNotGitRepo, err)
			}
			return strings.TrimSpace(string(out)), nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s: %w", dir, errNotGitRepo)
		}
	}
}

// gitCommit resolves ref to a full commit ID; a ref that names no commit
// is a usage error.
func gitCommit(ctx context.Context, root, ref string) (string, error) {
	if strings.HasPrefix(ref, "-") {
		return "", usagef("revision %q: must not start with '-'", ref)
	}
	out, err := runGit(ctx, root, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if err != nil {
		if ctx.Err() != nil {
			return "", err
		}
		return "", usagef("revision %q: no such commit in %s", ref, root)
	}
	return strings.TrimSpace(string(out)), nil
}

// gitMergeBase returns the best common ancestor of a and b (as `git diff
// a...b` and a pull request's "files changed" use); ok is false when they
// have none.
func gitMergeBase(ctx context.Context, root, a, b string) (string, bool, error) {
	out, err := runGit(ctx, root, "merge-base", a, b)
	if err != nil {
		if ctx.Err() != nil {
			return "", false, err
		}
		return "", false, nil // no common ancestor (exit 1)
	}
	return strings.TrimSpace(string(out)), true, nil
}

// gitChange is one changed file of `git diff --raw`: Status is git's
// letter (A, M, D, R, C, T); OldOID/NewOID are blob IDs (all zeros for a
// side that is absent or, for the work tree, not hashed); paths are
// relative to the work tree's root with forward slashes.
type gitChange struct {
	Status           byte
	OldPath, NewPath string
	OldOID, NewOID   string
}

// gitChangedPython lists the .py files that differ between commit base and
// head ("" for the work tree), renames detected.
func gitChangedPython(ctx context.Context, root, base, head string) ([]gitChange, error) {
	args := []string{"diff", "--raw", "-z", "-M", "--no-ext-diff", "--no-textconv", "--abbrev=40", base}
	if head != "" {
		args = append(args, head)
	}
	args = append(args, "--", "*.py")
	out, err := runGit(ctx, root, args...)
	if err != nil {
		return nil, err
	}
	return parseRawDiff(out)
}

// parseRawDiff reads `git diff --raw -z` output:
// ":OLDMODE NEWMODE OLDOID NEWOID STATUS\x00PATH\x00[PATH2\x00]".
func parseRawDiff(out []byte) ([]gitChange, error) {
	fields := strings.Split(string(out), "\x00")
	var changes []gitChange
	for i := 0; i < len(fields); i++ {
		meta := fields[i]
		if meta == "" {
			continue
		}
		parts := strings.Fields(strings.TrimPrefix(meta, ":"))
		if !strings.HasPrefix(meta, ":") || len(parts) != 5 || i+1 >= len(fields) {
			return nil, fmt.Errorf("git diff --raw: unexpected record %q", meta)
		}
		c := gitChange{Status: parts[4][0], OldOID: parts[2], NewOID: parts[3]}
		i++
		c.OldPath, c.NewPath = fields[i], fields[i]
		if c.Status == 'R' || c.Status == 'C' {
			if i+1 >= len(fields) {
				return nil, fmt.Errorf("git diff --raw: rename without target %q", meta)
			}
			i++
			c.NewPath = fields[i]
		}
		switch c.Status {
		case 'A':
			c.OldPath = ""
		case 'D':
			c.NewPath = ""
		}
		changes = append(changes, c)
	}
	return changes, nil
}

// gitUntrackedPython lists the untracked, not ignored .py files of the work tree.
func gitUntrackedPython(ctx context.Context, root string) ([]string, error) {
	out, err := runGit(ctx, root, "ls-files", "-z", "--others", "--exclude-standard", "--", "*.py")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// gitIgnored returns the ignored files and directories under dir (paths
// relative to dir, slash-separated; directories without their final
// "/"), from .gitignore files and .git/info/exclude (no global excludes
// file). ok is false when dir is not in a git work tree or git fails.
func gitIgnored(ctx context.Context, dir string) (ignored map[string]bool, ok bool) {
	root, err := gitRoot(ctx, dir)
	if err != nil {
		return nil, false
	}
	abs, _ := filepath.Abs(dir)
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, false
	}
	rel = filepath.ToSlash(rel)
	out, err := runGit(ctx, root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", rel)
	if err != nil {
		return nil, false
	}
	prefix := rel + "/"
	if rel == "." {
		prefix = ""
	}
	ignored = map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" {
			continue
		}
		p = strings.TrimSuffix(p, "/")
		ignored[strings.TrimPrefix(p, prefix)] = true
	}
	return ignored, true
}

// blobReader reads blobs with one `git cat-file --batch` process.
// Not safe for concurrent use; Close it.
type blobReader struct {
	closed bool
	err    error
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
}

func newBlobReader(ctx context.Context, root string) (*blobReader, error) {
	cmd, err := gitexec.Command(ctx, root, nil, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return &blobReader{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

// read returns the content of the blob oid; the error names it when git
// has no such object.
func (b *blobReader) read(oid string) ([]byte, error) {
	if _, err := io.WriteString(b.in, oid+"\n"); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	hdr, err := b.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file %s: %w", oid, err)
	}
	f := strings.Fields(hdr)
	if len(f) == 2 && f[1] == "missing" {
		return nil, fmt.Errorf("git object %s: missing", oid)
	}
	if len(f) != 3 || f[1] != "blob" {
		return nil, fmt.Errorf("git object %s: unexpected header %q", oid, strings.TrimSpace(hdr))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 {
		return nil, fmt.Errorf("git object %s: bad size %q", oid, f[2])
	}
	data := make([]byte, n+1) // content and the trailing newline
	if _, err := io.ReadFull(b.out, data); err != nil {
		return nil, fmt.Errorf("git object %s: %w", oid, err)
	}
	return data[:n], nil
}

// Close ends the git process; it may be called more than once.
func (b *blobReader) Close() error {
	if !b.closed {
		b.closed = true
		b.in.Close()
		b.err = b.cmd.Wait()
	}
	return b.err
}

// isZeroOID reports an all-zero object ID (git's "not hashed" or "absent").
func isZeroOID(oid string) bool { return strings.Trim(oid, "0") == "" }

// repoPath joins a repository-relative slash path to root.
func repoPath(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
