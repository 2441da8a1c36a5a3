package agent

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runtime"
)

// Paths of a run in a container.
const (
	// DefaultContainerWorkdir is the workspace's path in a container.
	DefaultContainerWorkdir = "/workspace"
	// containerAgentDir holds the prompt file and the output directory.
	containerAgentDir = "/polynfi-agent"
	// DefaultMaxWorkspace bounds a workspace copied out of a container.
	DefaultMaxWorkspace = 1 << 30
)

// placement says where the run's paths are as the agent sees them: the
// host's for the local runtime, fixed paths in a container otherwise.
type placement struct {
	local                                 bool
	workdir, agentDir, outDir, promptFile string
}

func (r *Runner) place(ws *workspace) placement {
	if r.opt.Runtime.Name() == "local" {
		return placement{local: true, workdir: ws.Dir, agentDir: ws.AgentDir, outDir: ws.OutDir, promptFile: ws.PromptFile}
	}
	wd := r.opt.ContainerWorkdir
	if wd == "" {
		wd = DefaultContainerWorkdir
	}
	return placement{workdir: wd, agentDir: containerAgentDir, outDir: containerAgentDir + "/out", promptFile: containerAgentDir + "/prompt.txt"}
}

// copyIn copies the prepared workspace (without its .git: a container's
// copy gets a fresh one-commit repository when the image has git) and the
// prompt into the container.
func (r *Runner) copyIn(ctx context.Context, sb runtime.Sandbox, ws *workspace, pl placement) error {
	var files []runtime.File
	err := filepath.WalkDir(ws.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(ws.Dir, p)
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, runtime.File{Path: filepath.ToSlash(rel), Mode: info.Mode().Perm(), Data: b})
		return nil
	})
	if err != nil {
		return err
	}
	if err := sb.CopyIn(ctx, pl.workdir, files); err != nil {
		return err
	}
	prompt, err := os.ReadFile(ws.PromptFile)
	if err != nil {
		return err
	}
	if err := sb.CopyIn(ctx, pl.agentDir, []runtime.File{{Path: "prompt.txt", Data: prompt}, {Path: "out/.keep"}}); err != nil {
		return err
	}
	// Best effort: the agent's own repository of the base (images without
	// git simply have none).
	_, _ = sb.Exec(ctx, runtime.Command{Script: "git init -q && git add -A && git -c user.name=polynfi -c user.email=polynfi@localhost commit -qm base",
		Timeout: 2 * time.Minute})
	return nil
}

// copyBack replaces the host workspace's files (its .git kept) with the
// container's workspace, so that collection diffs what the agent left.
// Regular files only; the container's .git is not copied.
func (r *Runner) copyBack(ctx context.Context, sb runtime.Sandbox, ws *workspace, pl placement) error {
	max := r.opt.MaxWorkspace
	if max <= 0 {
		max = DefaultMaxWorkspace
	}
	files, err := sb.CopyOut(ctx, pl.workdir, max)
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(ws.Dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == ".git" {
			continue
		}
		if err := os.RemoveAll(filepath.Join(ws.Dir, e.Name())); err != nil {
			return err
		}
	}
	for _, f := range files {
		if f.Path == ".git" || strings.HasPrefix(f.Path, ".git/") || safepath.Check(f.Path) != nil {
			continue
		}
		if err := safepath.WriteFile(ws.Dir, f.Path, f.Data, f.Mode); err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	return nil
}
