package cli

// Every git call of score and diff goes through runGit, so that moving to
// the project's shared safe git runner is a change of this one function.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// errNotGitRepo is returned when a git-aware mode runs outside a work tree.
var errNotGitRepo = errors.New("not inside a git work tree")

// gitError is a git command that failed; Stderr is its (trimmed) message.
type gitError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *gitError) Error() string {
	msg := e.Stderr
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}
func (e *gitError) Unwrap() error { return e.Err }

// safeGitConfig neutralises repository configuration that would make git
// run a program or read outside the repository while polynfi reads it: a
// repository under review may be hostile. System and global configuration
// are not read at all (see gitEnv).
var safeGitConfig = []string{
	"-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.pager=cat",
	"-c", "core.quotePath=false",
	"-c", "core.attributesFile=/dev/null",
	"-c", "protocol.allow=never",
	"-c", "core.untrackedCache=false",
}

func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") {
			continue // GIT_DIR, GIT_WORK_TREE, GIT_EXTERNAL_DIFF... from the caller's shell
		}
		env = append(env, kv)
	}
	return append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0",
		"GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
}

// gitCommand prepares git with the safe configuration in dir, in its own
// process group, killed with the group when ctx ends.
func gitCommand(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append(append([]string{}, safeGitConfig...), args...)...)
	cmd.Dir = dir
	cmd.Env = gitEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// runGit runs git in dir and returns its standard output.
func runGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := gitCommand(ctx, dir, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &gitError{Args: args, Stderr: strings.TrimSpace(stderr.String()), Err: err}
	}
	return stdout.Bytes(), nil
}

// gitRoot returns the top directory of the work tree holding dir.
func gitRoot(ctx context.Context, dir string) (string, error) {
	out, err := runGit(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		var ge *gitError
		if errors.As(err, &ge) {
			return "", fmt.Errorf("%s: %w", dir, errNotGitRepo)
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
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
		var ge *gitError
		if errors.As(err, &ge) {
			return "", false, nil
		}
		return "", false, err
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
// relative to dir; directories end in "/"), from .gitignore files,
// .git/info/exclude (the global excludes file is not read). ok is false
// when dir is not in a git work tree or git is not installed.
func gitIgnored(ctx context.Context, dir string) (ignored map[string]bool, ok bool) {
	out, err := runGit(ctx, dir, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", ".")
	if err != nil {
		return nil, false
	}
	ignored = map[string]bool{}
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			ignored[strings.TrimSuffix(p, "/")] = true
		}
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
	cmd := gitCommand(ctx, root, "cat-file", "--batch")
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
