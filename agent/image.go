package agent

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/gitexec"
	"github.com/polynfi/polynfi/runtime"
)

// Copy is a host file or directory copied into every agent container
// before the agent starts (the agent's program, its configuration):
// Host's regular files go under Container (an absolute path), keeping
// their permission bits.
type Copy struct {
	Host, Container string
}

// ParseCopy reads "HOST:CONTAINER" (--agent-copy): HOST must exist and
// CONTAINER be absolute.
func ParseCopy(s string) (Copy, error) {
	h, c, ok := strings.Cut(s, ":")
	if !ok || h == "" || !strings.HasPrefix(c, "/") {
		return Copy{}, fmt.Errorf("%q: want HOST_PATH:/CONTAINER_PATH", s)
	}
	abs, err := filepath.Abs(h)
	if err != nil {
		return Copy{}, err
	}
	if _, err := os.Stat(abs); err != nil {
		return Copy{}, fmt.Errorf("%q: %w", s, err)
	}
	return Copy{Host: abs, Container: filepath.Clean(c)}, nil
}

// files reads c's regular files; for a single file, its base name under
// Container's parent is Container itself.
func (c Copy) files() (dir string, files []runtime.File, err error) {
	fi, err := os.Stat(c.Host)
	if err != nil {
		return "", nil, err
	}
	if !fi.IsDir() {
		b, err := os.ReadFile(c.Host)
		if err != nil {
			return "", nil, err
		}
		return filepath.Dir(c.Container), []runtime.File{{Path: filepath.Base(c.Container), Mode: fi.Mode().Perm(), Data: b}}, nil
	}
	err = filepath.WalkDir(c.Host, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(c.Host, p)
		files = append(files, runtime.File{Path: filepath.ToSlash(rel), Mode: info.Mode().Perm(), Data: b})
		return nil
	})
	return c.Container, files, err
}

// inImage reports whether t runs in its own instance image: a repository
// instance, a container runtime and an image resolver.
func (r *Runner) inImage(t Task) bool {
	return t.Instance != nil && r.opt.Images != nil && r.opt.Runtime.Name() != "local"
}

// containerGit defines g, git with polynfi's overrides (configured
// programs neutralized, whatever the agent wrote into .git/config), any
// owner accepted, and the clean git environment (gitexec.ShellFunc).
func containerGit() string { return gitexec.ShellFunc(true) }

// baseScript runs in the instance's container before the agent, in the
// repository (its work directory): it prints the image's HEAD, then
// replaces the image's .git (whose refs may reach commits after the base,
// the reference solution among them) by a repository of one commit of the
// files as they are, so that the agent sees no later history and its
// change is taken against exactly what it started from. $1 is the
// agent's side directory.
const baseScript = `set -e
g rev-parse --verify -q HEAD 2>/dev/null || echo none
rm -rf .git
g init -q .
mkdir -p .git/info
printf '%s\n' ` + "__EXCLUDES__" + ` > .git/info/exclude
g add -A .
g commit -q --allow-empty --no-verify -m base
mkdir -p "$1/out"
`

// collectScript runs in the container after the agent (its processes
// killed first): the change against the base commit, as a binary diff and
// as name-status, into $1.
const collectScript = `kill -9 -1 2>/dev/null
rm -f -- "$1/change.diff" "$1/change.names"
g add -A . && g diff --cached --binary --no-renames --no-ext-diff --no-textconv --no-color HEAD > "$1/change.diff" &&
g diff --cached --name-status -z --no-renames HEAD > "$1/change.names"
`

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// startInImage resolves t's image (as `polynfi eval --runtime docker`
// does), starts the container at the repository (harness.ContainerWorkdir)
// with the network, and prepares it: a base repository of one commit, the
// prompt, Options.Copy, then Options.Setup. The error is for the record
// (status error); ctx's cancellation is returned as such.
func (r *Runner) startInImage(ctx context.Context, j job, rec *Record, spec runtime.Spec) (runtime.Sandbox, placement, error) {
	in := *j.task.Instance
	t := time.Now()
	choice, err := r.opt.Images.Resolve(ctx, in)
	rec.Timing.ImageS = time.Since(t).Seconds()
	if choice.Image != "" || choice.Source != "" {
		c := choice
		rec.Image = &c
	}
	if err != nil {
		return nil, placement{}, fmt.Errorf("image: %w", err)
	}
	spec.Image, spec.Workdir, spec.Limits, spec.Language = choice.Image, harness.ContainerWorkdir(in), r.opt.Limits, in.Language
	sb, err := r.opt.Runtime.Start(ctx, spec)
	if err != nil {
		if sb != nil {
			_ = sb.Remove(context.WithoutCancel(ctx))
		}
		return nil, placement{}, fmt.Errorf("start the sandbox: %w", err)
	}
	pl := placement{workdir: sb.Workdir(), agentDir: containerAgentDir, outDir: containerAgentDir + "/out", promptFile: containerAgentDir + "/prompt.txt"}
	fail := func(err error) (runtime.Sandbox, placement, error) { return sb, pl, err }
	var ex []string
	for _, e := range defaultExcludes {
		ex = append(ex, shellQuote(e))
	}
	script := containerGit() + strings.Replace(baseScript, "__EXCLUDES__", strings.Join(ex, " "), 1)
	res, err := sb.Exec(ctx, runtime.Command{Args: []string{"bash", "-c", script, "polynfi", pl.agentDir}, Timeout: 10 * time.Minute})
	if err != nil {
		return fail(fmt.Errorf("prepare the repository in the container: %w", err))
	}
	if res.ExitCode != 0 {
		return fail(fmt.Errorf("prepare the repository in the container (git is needed in the image): exit %d: %s", res.ExitCode, strings.TrimSpace(string(res.Stderr))))
	}
	if head := strings.TrimSpace(string(res.Stdout)); head != in.BaseCommit && !strings.HasPrefix(in.BaseCommit, head) {
		rec.Notes = append(rec.Notes, fmt.Sprintf("the image's repository was at %s, not base_commit %s: the agent got the image's files", head, in.BaseCommit))
	}
	if err := sb.CopyIn(ctx, pl.agentDir, []runtime.File{{Path: "prompt.txt", Data: []byte(j.task.Prompt())}}); err != nil {
		return fail(fmt.Errorf("copy the prompt into the container: %w", err))
	}
	if err := r.copyAgentFiles(ctx, sb); err != nil {
		return fail(err)
	}
	return sb, pl, nil
}

// ContainerUser is the user an agent's command runs as in a container
// ("UID:GID"): runtime.AgentUID and AgentGID (nobody, 65534), as the
// local runtime's agent view runs it, never the image's user (root in
// most images). The container allows no new privileges (setuid programs
// do not raise it), so the agent holds no capability.
var ContainerUser = fmt.Sprintf("%d:%d", runtime.AgentUID, runtime.AgentGID)

// containerHome is the agent's HOME in a container, unless --agent-env
// sets HOME: a directory of its own under containerAgentDir.
const containerHome = containerAgentDir + "/home"

// handOverScript runs as the image's user after Options.Copy and
// Options.Setup, before the agent: it makes the workspace ($1), the
// agent's directory ($2: the prompt, out/, home/) and the files
// Options.Copy put there (NUL-separated paths on stdin) the agent user's
// ($3), each symbolic link itself, never what it points to (chown -R
// without -L or -H follows none).
const handOverScript = `set -e
mkdir -p -- "$2/home" "$2/out"
chown -R -h "$3" -- "$1" "$2"
if command -v xargs >/dev/null; then xargs -0 -r chown -h "$3" --
else while IFS= read -r -d '' f; do chown -h "$3" -- "$f"; done; fi
`

// handOver gives the agent's user (ContainerUser) the workspace, its
// directory and Options.Copy's files in the container (handOverScript).
func (r *Runner) handOver(ctx context.Context, sb runtime.Sandbox, pl placement) error {
	var list strings.Builder
	for _, c := range r.opt.Copy {
		dir, files, err := c.files()
		if err != nil {
			return fmt.Errorf("--agent-copy %s: %w", c.Host, err)
		}
		for _, f := range files {
			list.WriteString(path.Join(dir, f.Path))
			list.WriteByte(0)
		}
	}
	res, err := sb.Exec(ctx, runtime.Command{Args: []string{"bash", "-c", handOverScript, "polynfi", pl.workdir, pl.agentDir, ContainerUser},
		Stdin: strings.NewReader(list.String()), Timeout: 10 * time.Minute})
	if err != nil {
		return fmt.Errorf("hand the workspace to the agent's user %s: %w", ContainerUser, err)
	}
	if res.ExitCode != 0 || res.TimedOut {
		return fmt.Errorf("hand the workspace to the agent's user %s: exit %d (timed out: %v): %s", ContainerUser, res.ExitCode, res.TimedOut, tail(res.Stderr, 2000))
	}
	return nil
}

// copyAgentFiles copies Options.Copy into the sandbox.
func (r *Runner) copyAgentFiles(ctx context.Context, sb runtime.Sandbox) error {
	for _, c := range r.opt.Copy {
		dir, files, err := c.files()
		if err != nil {
			return fmt.Errorf("--agent-copy %s: %w", c.Host, err)
		}
		if err := sb.CopyIn(ctx, dir, files); err != nil {
			return fmt.Errorf("--agent-copy %s into the container: %w", c.Host, err)
		}
	}
	return nil
}

// setup runs Options.Setup in the sandbox (network on, the agent's
// environment, the run's timeout); its output goes to the record's notes
// when it fails.
func (r *Runner) setup(ctx context.Context, sb runtime.Sandbox, env []string) error {
	if strings.TrimSpace(r.opt.Setup) == "" {
		return nil
	}
	res, err := sb.Exec(ctx, runtime.Command{Script: r.opt.Setup, Env: env, Timeout: r.opt.Timeout})
	if err != nil {
		return fmt.Errorf("agent setup: %w", err)
	}
	if res.ExitCode != 0 || res.TimedOut {
		return fmt.Errorf("agent setup: exit %d (timed out: %v): %s", res.ExitCode, res.TimedOut, tail(res.Stderr, 2000))
	}
	return nil
}

func tail(b []byte, n int) string {
	s := strings.TrimSpace(string(b))
	if len(s) > n {
		s = "..." + s[len(s)-n:]
	}
	return s
}

// collectInImage takes the agent's change in the container against the
// base commit startInImage made: the binary diff (at most maxPatch bytes)
// and the changed paths.
func (r *Runner) collectInImage(ctx context.Context, sb runtime.Sandbox, pl placement) (*change, error) {
	res, err := sb.Exec(ctx, runtime.Command{Args: []string{"bash", "-c", containerGit() + collectScript, "polynfi", pl.agentDir}, Timeout: 10 * time.Minute})
	if err != nil {
		return nil, fmt.Errorf("collect the change in the container: %w", err)
	}
	if res.ExitCode != 0 {
		return nil, fmt.Errorf("collect the change in the container: exit %d: %s", res.ExitCode, tail(res.Stderr, 2000))
	}
	files, err := sb.CopyOut(ctx, pl.agentDir+"/change.diff", maxPatch)
	if err != nil {
		return nil, fmt.Errorf("collect the change: %w", err)
	}
	names, err := sb.CopyOut(ctx, pl.agentDir+"/change.names", maxPatch)
	if err != nil {
		return nil, fmt.Errorf("collect the change: %w", err)
	}
	if len(files) != 1 || len(names) != 1 {
		return nil, fmt.Errorf("collect the change: the diff is missing or larger than %d bytes", maxPatch)
	}
	c := &change{Patch: string(files[0].Data)}
	parts := bytes.Split(bytes.TrimRight(names[0].Data, "\x00"), []byte{0})
	for i := 0; i+1 < len(parts); i += 2 {
		c.Paths = append(c.Paths, string(parts[i+1]))
	}
	sort.Strings(c.Paths)
	return c, nil
}
