package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/polynfi/polynfi/internal/gitexec"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runtime"
)

// sandboxGitEnv is the environment of every git and patch command the
// harness runs in a sandbox: gitexec's clean environment (no system or
// global configuration, no prompts or pagers, C locale, a fixed identity
// and date) without its PATH, which is the sandbox's own.
func sandboxGitEnv() []string {
	var out []string
	for _, kv := range gitexec.Env("") {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return out
}

// gitFunc defines g, git as gitexec.ShellFunc runs it (the environment
// is the command's: sandboxGitEnv), for the scripts tree.script runs.
func gitFunc() string { return gitexec.ShellFunc(false) }

// harnessCommand is one of the harness's own commands in the sandbox (git,
// patch, a look-up): the clean git environment, 5 minutes at most, and for
// the local runtime the host's file system read-only (HostView: the work
// tree's borrowed git objects and the harness's patch files are outside
// the minimal view a test command gets) with the work tree, .git included,
// writable. Containers ignore HostView.
func harnessCommand(argv []string) runtime.Command {
	return runtime.Command{Args: argv, Env: sandboxGitEnv(), Timeout: harnessTimeout, HostView: true}
}

// harnessTimeout bounds each of the harness's own commands in a sandbox.
const harnessTimeout = 5 * time.Minute

// tree is the repository's work tree inside a sandbox: its Workdir. Every
// git command on it runs in the sandbox (so that the same code serves the
// local runtime and containers).
type tree struct {
	sb runtime.Sandbox
	// tmp is a directory for the harness's own files (patches), outside
	// the work tree, as the sandbox sees it.
	tmp string
	// copyS accumulates the seconds spent copying files in.
	copyS float64
	// evalScript is the eval script's path in the sandbox, copied in with
	// the patches ("" when none was).
	evalScript string
	// sess runs the harness's commands until the tests run (see session);
	// nil before the first command and after a session ended.
	sess *session
	// noSession: commands are plain execs from now on (the tests ran, or
	// no session could be started).
	noSession bool
}

// exec runs one of the harness's own commands (harnessCommand(argv)) in
// the sandbox: in the session while there is one (started on first use),
// as a plain exec after endSession or when no session can start.
func (t *tree) exec(ctx context.Context, argv []string) (runtime.Result, error) {
	return t.execTimeout(ctx, argv, harnessTimeout)
}

// execTimeout is exec with the command's timeout.
func (t *tree) execTimeout(ctx context.Context, argv []string, timeout time.Duration) (runtime.Result, error) {
	cmd := harnessCommand(argv)
	cmd.Timeout = timeout
	if err := t.ensureSession(ctx); err != nil {
		return runtime.Result{ExitCode: -1}, err
	}
	if t.sess == nil {
		return t.sb.Exec(ctx, cmd)
	}
	r, err := t.sess.run(ctx, argv, cmd.Timeout)
	if t.sess.dead {
		t.sess.close()
		t.sess = nil
	}
	return r, err
}

// ensureSession starts the session unless there is one or none is to be
// had (endSession was called, or a session could not start: then t.sess
// stays nil). The error is an InfraError or ctx's.
func (t *tree) ensureSession(ctx context.Context) error {
	if t.noSession || t.sess != nil {
		return nil
	}
	s, err := startSession(ctx, t.sb)
	switch {
	case err == nil:
		t.sess = s
	case errors.Is(err, errNoSession):
		t.noSession = true
	default:
		return err
	}
	return nil
}

// endSession closes the session, if any, and waits for its shell to exit;
// every later command is a plain exec. It must be called before the test
// command runs.
func (t *tree) endSession() {
	t.noSession = true
	if t.sess != nil {
		t.sess.close()
		t.sess = nil
	}
}

// script runs a bash script in the work tree with g defined and args as
// $1..$n, and returns its stdout. A non-zero exit is an error carrying
// stderr; an Exec error (an InfraError, a cancelled ctx) is returned
// wrapped.
func (t *tree) script(ctx context.Context, script string, args ...string) ([]byte, error) {
	argv := append([]string{"bash", "-c", gitFunc() + script, "polynfi"}, args...)
	r, err := t.exec(ctx, argv)
	if err != nil {
		return nil, err
	}
	if r.ExitCode != 0 || r.TimedOut {
		first := strings.SplitN(strings.TrimSpace(script), "\n", 2)[0]
		return r.Stdout, fmt.Errorf("%s: exit %d: %s", first, r.ExitCode, strings.TrimSpace(string(r.Stderr)))
	}
	return r.Stdout, nil
}

// lstatFunc defines lst, which prints one character per argument: l for
// a symbolic link, d for a directory, f for anything else that exists, -
// for nothing.
const lstatFunc = `lst() { for p in "$@"; do
  if [ -L "$p" ]; then printf l; elif [ -d "$p" ]; then printf d; elif [ -e "$p" ]; then printf f; else printf -- -; fi
done; }
`

// lookups returns every prefix of paths (slash-separated, relative to the
// work tree) once, in a stable order: what safepath.UnderFS may look up.
// Paths that fail safepath.Check are left out (the checker rejects them
// before any lookup).
func lookups(paths []string) []string {
	seen := map[string]bool{}
	var pre []string
	for _, p := range paths {
		if safepath.Check(p) != nil {
			continue
		}
		for _, q := range safepath.Prefixes(p) {
			if !seen[q] {
				seen[q] = true
				pre = append(pre, q)
			}
		}
	}
	return pre
}

// modes turns lst's answer for pre into a safepath.Lstat; a path it was
// not asked about reads as missing.
func modes(pre []string, answer []byte) (safepath.Lstat, error) {
	if len(answer) != len(pre) {
		return nil, fmt.Errorf("look up paths in the work tree: %d answers for %d paths", len(answer), len(pre))
	}
	m := make(map[string]os.FileMode, len(pre))
	for i, q := range pre {
		switch answer[i] {
		case 'l':
			m[q] = os.ModeSymlink
		case 'd':
			m[q] = os.ModeDir
		case 'f':
			m[q] = 0
		}
	}
	return func(p string) (os.FileMode, bool) {
		mode, ok := m[p]
		return mode, ok
	}, nil
}

// lstat reads, in one command in the sandbox, the type of every prefix of
// paths and returns a safepath.Lstat over them.
func (t *tree) lstat(ctx context.Context, paths []string) (safepath.Lstat, error) {
	pre := lookups(paths)
	if len(pre) == 0 {
		return modes(nil, nil)
	}
	b, err := t.script(ctx, lstatFunc+`lst "$@"`, pre...)
	if err != nil {
		return nil, fmt.Errorf("look up paths in the work tree: %w", err)
	}
	return modes(pre, b)
}

// base returns the commit checked out in the work tree, and the types of
// the prefixes of paths in it (one command). A work tree that is not a git
// repository (an image that copied the sources without .git) is made one,
// its files committed as the base; one without an index (images polynfi
// builds leave it out) gets it rebuilt from HEAD.
func (t *tree) base(ctx context.Context, paths []string) (string, safepath.Lstat, error) {
	pre := lookups(paths)
	out, err := t.script(ctx, lstatFunc+`if ! g rev-parse --verify -q HEAD >/dev/null 2>&1; then
  g init -q . && g add --all --force . && g commit -q --allow-empty -m "polynfi base" >/dev/null || exit 1
fi
[ -f "$(g rev-parse --git-dir)/index" ] || g reset -q || exit 1
g rev-parse --verify HEAD && lst "$@"`, pre...)
	if err != nil {
		return "", nil, fmt.Errorf("base commit of the work tree: %w", err)
	}
	sha, answer, _ := strings.Cut(string(out), "\n")
	lstat, err := modes(pre, []byte(answer))
	return strings.TrimSpace(sha), lstat, err
}

// copyPatches writes files into the harness's directory of the sandbox
// and returns their paths there, by name: in one request of the session
// in a container (see session.write), else in one copy through the
// runtime (the local runtime's copy is a write on the host).
func (t *tree) copyPatches(ctx context.Context, files map[string]string) (map[string]string, error) {
	start := time.Now()
	defer func() { t.copyS += time.Since(start).Seconds() }()
	var fs []runtime.File
	paths := map[string]string{}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fs = append(fs, runtime.File{Path: name, Mode: 0o644, Data: []byte(files[name])})
		paths[name] = strings.TrimSuffix(t.tmp, "/") + "/" + name
	}
	if t.sb.Info().Runtime != "local" {
		if err := t.ensureSession(ctx); err != nil {
			return nil, err
		}
		if t.sess != nil {
			ok, err := t.sess.write(ctx, t.tmp, fs)
			if t.sess.dead {
				t.sess.close()
				t.sess = nil
			}
			if err != nil {
				return nil, fmt.Errorf("copy the patches into the sandbox: %w", err)
			}
			if ok {
				return paths, nil
			}
		}
	}
	if err := t.sb.CopyIn(ctx, t.tmp, fs); err != nil {
		return nil, fmt.Errorf("copy the patches into the sandbox: %w", err)
	}
	return paths, nil
}

// copyPatch writes patch into the harness's directory of the sandbox as
// name and returns its path there.
func (t *tree) copyPatch(ctx context.Context, name, patch string) (string, error) {
	start := time.Now()
	err := t.sb.CopyIn(ctx, t.tmp, []runtime.File{{Path: name, Mode: 0o644, Data: []byte(patch)}})
	t.copyS += time.Since(start).Seconds()
	if err != nil {
		return "", fmt.Errorf("copy %s into the sandbox: %w", name, err)
	}
	return strings.TrimSuffix(t.tmp, "/") + "/" + name, nil
}

// readFunc defines rd, which prints, for each path argument (relative to
// the work tree), a record: "-\0" when it is not a regular file (a link, a
// directory, nothing) or is larger than $RD_MAX bytes; "+\0" when reading
// it would take the output past $RD_BUDGET bytes in all (the caller reads
// it another way); else its size in decimal, "\0" and its bytes.
const readFunc = `rd() { local used=0 n p; for p in "$@"; do
  if [ -f "$p" ] && [ ! -L "$p" ] && n=$(wc -c < "$p" 2>/dev/null) && n=$((n)) && [ "$n" -le "$RD_MAX" ]; then
    if [ $((used + n)) -gt "$RD_BUDGET" ]; then printf '+\0'; continue; fi
    used=$((used + n)); printf '%s\0' "$n"; head -c "$n" -- "$p" || return 1
  else printf -- '-\0'; fi
done; }
`

// readBudget bounds what one readFiles command prints (the runtimes keep
// runtime.DefaultMaxOutput of a command's output).
const readBudget = 16 << 20

// readFiles reads the regular files at paths in the work tree (relative
// to it; not through a link at the last component), each at most max
// bytes, in one command: by path, the files read; a path that is not a
// regular file or is larger than max is left out. Files past the
// command's output budget are read with Sandbox.CopyOut, one each. The
// error is an InfraError or ctx's; an answer that does not frame as asked
// (a file that changed while it was read) is read again with CopyOut.
func (t *tree) readFiles(ctx context.Context, paths []string, max int64) (map[string][]byte, error) {
	return t.readFilesWithin(ctx, paths, max, readBudget)
}

// readFilesWithin is readFiles with the command's output budget.
func (t *tree) readFilesWithin(ctx context.Context, paths []string, max int64, budget int) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(paths) == 0 {
		return out, nil
	}
	ans, err := t.script(ctx, readFunc+`RD_MAX=$1 RD_BUDGET=$2; shift 2; rd "$@"`,
		append([]string{strconv.FormatInt(max, 10), strconv.Itoa(budget)}, paths...)...)
	if err != nil && runtime.InfraReason(err) != "" || ctx.Err() != nil {
		return nil, err
	}
	var rest []string // to read with CopyOut
	if err != nil {
		rest = paths
	} else if files, later, ok := parseRead(paths, ans); ok {
		out, rest = files, later
	} else {
		rest = paths
	}
	for _, p := range rest {
		got, err := t.sb.CopyOut(ctx, p, max)
		if err != nil {
			if runtime.InfraReason(err) != "" || ctx.Err() != nil {
				return nil, err
			}
			continue
		}
		if len(got) == 1 {
			out[p] = got[0].Data
		}
	}
	return out, nil
}

// parseRead splits rd's answer for paths into the files read and the
// paths to read another way ("+"); ok is false when the answer does not
// frame as one record per path with nothing after the last.
func parseRead(paths []string, ans []byte) (files map[string][]byte, later []string, ok bool) {
	files = map[string][]byte{}
	for _, p := range paths {
		head, rest, found := bytes.Cut(ans, []byte{0})
		if !found {
			return nil, nil, false
		}
		switch string(head) {
		case "-":
			ans = rest
			continue
		case "+":
			later = append(later, p)
			ans = rest
			continue
		}
		n, err := strconv.Atoi(string(head))
		if err != nil || n < 0 || n > len(rest) {
			return nil, nil, false
		}
		files[p], ans = rest[:n:n], rest[n:]
	}
	if len(ans) != 0 {
		return nil, nil, false
	}
	return files, later, true
}

// writeTree writes files (paths relative to the work tree, checked by the
// caller, their parent directories present) over what is there: through
// the session in one request when there is one and it can (see
// session.write), else in one Sandbox.CopyIn.
func (t *tree) writeTree(ctx context.Context, files []runtime.File) error {
	if t.sb.Info().Runtime != "local" {
		if err := t.ensureSession(ctx); err != nil {
			return err
		}
		if t.sess != nil {
			ok, err := t.sess.write(ctx, t.sb.Workdir(), files)
			if t.sess.dead {
				t.sess.close()
				t.sess = nil
			}
			if err != nil {
				return err
			}
			if ok {
				return nil
			}
		}
	}
	return t.sb.CopyIn(ctx, "", files)
}
