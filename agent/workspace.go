package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/nfisuite"
)

// Task is one unit an agent works on: an SWE-NFI task or a repository
// instance (exactly one is set).
type Task struct {
	NFI      *dataset.NFITask
	Instance *dataset.Instance
}

// ID is the task's instance_id.
func (t Task) ID() string {
	if t.NFI != nil {
		return t.NFI.InstanceID
	}
	return t.Instance.InstanceID
}

// Kind is "nfi" or "instance".
func (t Task) Kind() string {
	if t.NFI != nil {
		return "nfi"
	}
	return "instance"
}

// Prompt is the text the agent gets (NFIPrompt or InstancePrompt).
func (t Task) Prompt() string {
	if t.NFI != nil {
		return NFIPrompt(t.NFI)
	}
	return InstancePrompt(t.Instance)
}

// Fingerprint is the hex SHA-256 of everything about the task a run
// depends on: a run recorded for another fingerprint is run again.
func (t Task) Fingerprint() string {
	if t.NFI != nil {
		return nfisuite.TaskFingerprint(t.NFI)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d:%s", t.Instance.EvalSHA256(), len(t.Instance.ProblemStatement), t.Instance.ProblemStatement)
	return hex.EncodeToString(h.Sum(nil))
}

// defaultExcludes keep what tools generate out of the collected change
// (on top of the repository's own .gitignore files).
var defaultExcludes = []string{"__pycache__/", "*.py[cod]", ".pytest_cache/", ".mypy_cache/", ".ruff_cache/",
	"node_modules/", ".aider*", ".DS_Store"}

// workspace is one run's scratch: Dir is the work tree the agent edits (a
// git repository of its own with one commit, the code before), gitDir a
// private copy of that repository the agent never sees (the diff is taken
// through it, so whatever the agent does to Dir/.git changes nothing),
// AgentDir the agent's writable side directory holding the prompt file and
// OutDir.
type workspace struct {
	Root, Dir, gitDir, AgentDir, OutDir, PromptFile string
}

// maxPatch bounds a collected diff.
const maxPatch = 64 << 20

// prepare makes the workspace of t under parent: for an NFI task, the
// task's environment (its base repository at the commit, and its support
// files) plus every target file's code before; for an instance, the
// repository at base_commit. Never the reference solution, the task's
// tests or test patch, nor any history beyond the base: the work tree's
// .git holds one commit of its files.
func prepare(ctx context.Context, repos *clones.Repos, t Task, parent string) (*workspace, error) {
	root, err := os.MkdirTemp(parent, safeName(t.ID())+"-")
	if err != nil {
		return nil, err
	}
	w := &workspace{Root: root, Dir: filepath.Join(root, "ws"), gitDir: filepath.Join(root, "git"),
		AgentDir: filepath.Join(root, "agent")}
	w.OutDir = filepath.Join(w.AgentDir, "out")
	w.PromptFile = filepath.Join(w.AgentDir, "prompt.txt")
	fail := func(err error) (*workspace, error) {
		w.remove()
		return nil, err
	}
	repo, commit := "", ""
	if t.NFI != nil {
		commit = t.NFI.BaseCommit
		if env := t.NFI.Environment; env != nil {
			repo = env.Repo
			if env.BaseCommit != "" {
				commit = env.BaseCommit
			}
		}
	} else {
		repo, commit = t.Instance.Repo, t.Instance.BaseCommit
	}
	if repo != "" {
		if repos == nil {
			return fail(fmt.Errorf("task %s needs repository %s: give --repos-dir", t.ID(), repo))
		}
		if commit == "" {
			return fail(fmt.Errorf("task %s: repository %s without a base commit", t.ID(), repo))
		}
		dir, _, err := repos.Workspace(ctx, repo, commit, root)
		if err != nil {
			return fail(err)
		}
		if err := os.Rename(dir, w.Dir); err != nil {
			return fail(err)
		}
		os.RemoveAll(filepath.Dir(dir))
		// Drop the clone's refs and borrowed objects: the agent gets the
		// files at the base commit and nothing of later history.
		if err := os.RemoveAll(filepath.Join(w.Dir, ".git")); err != nil {
			return fail(err)
		}
	} else if err := os.MkdirAll(w.Dir, 0o755); err != nil {
		return fail(err)
	}
	if t.NFI != nil {
		var files []dataset.FileContent
		if t.NFI.Environment != nil {
			files = append(files, t.NFI.Environment.Files...)
		}
		for _, f := range t.NFI.Files {
			if f.Before != "" {
				files = append(files, dataset.FileContent{Path: f.Path, Content: f.Before})
			}
		}
		for _, f := range files {
			if err := writeIn(w.Dir, f.Path, f.Content); err != nil {
				return fail(fmt.Errorf("workspace of %s: %w", t.ID(), err))
			}
		}
	}
	for _, d := range []string{w.OutDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fail(err)
		}
	}
	if err := os.WriteFile(w.PromptFile, []byte(t.Prompt()), 0o644); err != nil {
		return fail(err)
	}
	// The base commit: in the work tree for the agent, copied to the
	// private git directory for collection.
	if _, err := gitRun(ctx, "", w.Dir, nil, 0, "init", "--quiet"); err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(filepath.Join(w.Dir, ".git", "info"), 0o755); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(w.Dir, ".git", "info", "exclude"), []byte(strings.Join(defaultExcludes, "\n")+"\n"), 0o644); err != nil {
		return fail(err)
	}
	if _, err := gitRun(ctx, "", w.Dir, nil, 0, "add", "-A"); err != nil {
		return fail(err)
	}
	if _, err := gitRun(ctx, "", w.Dir, nil, 0, "commit", "--quiet", "--allow-empty", "--no-verify", "-m", "base"); err != nil {
		return fail(err)
	}
	if err := copyTree(filepath.Join(w.Dir, ".git"), w.gitDir); err != nil {
		return fail(fmt.Errorf("copy the base repository: %w", err))
	}
	return w, nil
}

// prepareBare makes the host side of a run whose repository is in its
// container (Runner.startInImage): the prompt file and the agent's side
// directory only.
func prepareBare(t Task, parent string) (*workspace, error) {
	root, err := os.MkdirTemp(parent, safeName(t.ID())+"-")
	if err != nil {
		return nil, err
	}
	w := &workspace{Root: root, Dir: filepath.Join(root, "ws"), AgentDir: filepath.Join(root, "agent")}
	w.OutDir = filepath.Join(w.AgentDir, "out")
	w.PromptFile = filepath.Join(w.AgentDir, "prompt.txt")
	if err := os.MkdirAll(w.OutDir, 0o755); err != nil {
		w.remove()
		return nil, err
	}
	if err := os.WriteFile(w.PromptFile, []byte(t.Prompt()), 0o644); err != nil {
		w.remove()
		return nil, err
	}
	return w, nil
}

func (w *workspace) remove() { _ = os.RemoveAll(w.Root) }

// writeIn writes content at rel under dir through the project's path
// checker (safepath: clean relative path, no symbolic link on the way).
func writeIn(dir, rel, content string) error {
	return safepath.WriteFile(dir, rel, []byte(content), 0o644)
}

// copyTree copies directory src to dst (regular files, directories and
// symbolic links; modes kept).
func copyTree(src, dst string) error { return copyTreeSkip(src, dst, nil) }

// copyTreeSkip is copyTree leaving out the paths skip reports (a skipped
// directory with everything under it); src may also be a single file.
func copyTreeSkip(src, dst string, skip func(string) bool) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if skip != nil && p != src && errors.Is(err, fs.ErrNotExist) {
				return nil // gone meanwhile (copies that skip things tolerate it)
			}
			return err
		}
		if skip != nil && p != src && skip(p) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		err = copyEntry(src, dst, p, d)
		if err != nil && skip != nil && p != src && errors.Is(err, fs.ErrNotExist) {
			return nil // gone meanwhile (copies that skip things tolerate it)
		}
		return err
	})
}

// copyEntry copies the entry d at p under src to the same place under dst.
func copyEntry(src, dst, p string, d os.DirEntry) error {
	rel, _ := filepath.Rel(src, p)
	to := filepath.Join(dst, rel)
	info, err := d.Info()
	if err != nil {
		return err
	}
	switch {
	case d.IsDir():
		return os.MkdirAll(to, info.Mode().Perm()|0o700)
	case info.Mode()&os.ModeSymlink != 0:
		l, err := os.Readlink(p)
		if err != nil {
			return err
		}
		return os.Symlink(l, to)
	case info.Mode().IsRegular():
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, info.Mode().Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	}
	return nil
}

// MaxStateBytes bounds the copy of an agent's state (its preset's
// StateDirs) made for each run, in bytes.
const MaxStateBytes = 256 << 20

// stateSkip are the entries of a state directory never copied into a
// run's home: other sessions' transcripts, histories, logs and caches
// (Claude Code's projects/, todos/, shell-snapshots/; Codex's sessions/,
// log/), which a run must not read and does not need.
var stateSkip = map[string]bool{"projects": true, "todos": true, "shell-snapshots": true, "statsig": true, "ide": true,
	"debug": true, "sessions": true, "log": true, "logs": true, "history.jsonl": true, "cache": true, "file-history": true}

// privateHome makes the run's home directory (Root/home, bound at the home
// directory's path inside the sandbox) holding a copy of each of state
// (paths under home; stateSkip left out, symbolic links kept as links):
// the agent finds its login and configuration there, what it writes
// there is the run's own (and discarded with the workspace), and no run
// sees another's sessions. The error names a state path that cannot be
// copied or a copy larger than MaxStateBytes; the directory is returned
// whenever it may exist, for the caller to remove (it holds the agent's
// login).
func (w *workspace) privateHome(home string, state []string) (string, error) {
	dst := filepath.Join(w.Root, "home")
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return dst, err
	}
	var total int64
	for _, src := range state {
		rel, err := filepath.Rel(home, src)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		to := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
			return dst, err
		}
		err = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil // removed meanwhile by the agent's other sessions
				}
				return err
			}
			if p != src && filepath.Dir(p) == src && stateSkip[d.Name()] {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			info, err := d.Info()
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if info.Mode().IsRegular() {
				if total += info.Size(); total > MaxStateBytes {
					return fmt.Errorf("more than %d bytes to copy", MaxStateBytes)
				}
			}
			return nil
		})
		if err != nil {
			return dst, fmt.Errorf("agent state %s: %w", src, err)
		}
		// The agent's other sessions (outside polynfi) may write and
		// remove files there meanwhile: one gone during the copy is left out.
		if err := copyTreeSkip(src, to, func(p string) bool { return filepath.Dir(p) == src && stateSkip[filepath.Base(p)] }); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return dst, fmt.Errorf("agent state %s: %w", src, err)
		}
	}
	return dst, nil
}

// change is what the agent changed in its workspace, against the base.
type change struct {
	Patch   string            // git diff --binary of the work tree against the base
	Paths   []string          // changed paths, sorted
	Files   map[string]string // NFI tasks: path → complete new content ("" = deleted)
	Skipped []string          // NFI tasks: changed paths left out of Files, with why
}

// collect takes the change through the private git directory: every file
// of the work tree (ignored ones and .git excepted) against the base
// commit. For an NFI task it also reads each changed file's content: the
// prediction's files (complete code after), target files included whether
// changed or not; symbolic links and files that are not UTF-8 text are
// left out with a note.
func (w *workspace) collect(ctx context.Context, t Task) (*change, error) {
	if _, err := gitRun(ctx, w.gitDir, w.Dir, nil, 0, "add", "-A"); err != nil {
		return nil, fmt.Errorf("collect the change: %w", err)
	}
	patch, err := gitRun(ctx, w.gitDir, w.Dir, nil, maxPatch, "diff", "--cached", "--binary", "--no-renames", "--no-ext-diff", "--no-textconv", "--no-color", "HEAD")
	if err != nil {
		return nil, fmt.Errorf("collect the change: %w", err)
	}
	names, err := gitRun(ctx, w.gitDir, w.Dir, nil, 0, "diff", "--cached", "--name-status", "-z", "--no-renames", "HEAD")
	if err != nil {
		return nil, fmt.Errorf("collect the change: %w", err)
	}
	c := &change{Patch: string(patch)}
	status := map[string]string{}
	parts := bytes.Split(bytes.TrimRight(names, "\x00"), []byte{0})
	for i := 0; i+1 < len(parts); i += 2 {
		p := string(parts[i+1])
		status[p] = string(parts[i])
		c.Paths = append(c.Paths, p)
	}
	sort.Strings(c.Paths)
	if t.NFI == nil {
		return c, nil
	}
	c.Files = map[string]string{}
	for _, p := range c.Paths {
		if status[p] == "D" {
			c.Files[p] = ""
			continue
		}
		if err := safepath.Under(w.Dir, p, false); err != nil {
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: %v", p, err))
			continue
		}
		full := filepath.Join(w.Dir, filepath.FromSlash(p))
		fi, err := os.Lstat(full)
		if err != nil || !fi.Mode().IsRegular() {
			c.Skipped = append(c.Skipped, p+": not a regular file")
			continue
		}
		b, err := os.ReadFile(full)
		if err != nil {
			return nil, err
		}
		if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
			c.Skipped = append(c.Skipped, p+": not UTF-8 text")
			continue
		}
		c.Files[p] = string(b)
	}
	return c, nil
}

// applyGold applies the reference solution in the work tree: an NFI
// task's human after (a file whose after is "" is deleted), an instance's
// gold patch (git apply).
func (w *workspace) applyGold(ctx context.Context, t Task) error {
	if t.NFI != nil {
		for _, f := range t.NFI.Files {
			if f.After == "" {
				if err := safepath.Remove(w.Dir, f.Path); err != nil {
					return err
				}
				continue
			}
			if err := writeIn(w.Dir, f.Path, f.After); err != nil {
				return err
			}
		}
		return nil
	}
	if strings.TrimSpace(t.Instance.Patch) == "" {
		return nil
	}
	// In the work tree (git apply takes paths from its working directory;
	// no agent has touched this repository).
	_, err := gitRun(ctx, "", w.Dir, []byte(t.Instance.Patch), 0, "apply", "--whitespace=nowarn", "-")
	return err
}

// predictionFor builds the prediction of one run from its change.
func predictionFor(t Task, name string, run int, c *change) *dataset.Prediction {
	p := &dataset.Prediction{InstanceID: t.ID(), ModelNameOrPath: name, Run: run}
	if c == nil {
		return p
	}
	if t.NFI != nil {
		p.Files = c.Files
	} else {
		p.ModelPatch = c.Patch
	}
	return p
}

// predictionLine is the JSON of a prediction as `polynfi eval` reads it;
// model_patch is always present for an instance ("" for none) so that the
// line is a valid prediction even when the agent changed nothing.
func predictionLine(p *dataset.Prediction, isNFI bool) ([]byte, error) {
	m := map[string]any{"instance_id": p.InstanceID, "model_name_or_path": p.ModelNameOrPath, "run": p.Run,
		"duration_s": p.DurationS, "tokens_in": p.TokensIn, "tokens_out": p.TokensOut, "cost_usd": p.CostUSD}
	if isNFI && len(p.Files) > 0 {
		m["files"] = p.Files
	} else {
		m["model_patch"] = p.ModelPatch
	}
	return json.Marshal(m)
}

func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] == '.' {
		return "_" + string(b)
	}
	return string(b)
}
