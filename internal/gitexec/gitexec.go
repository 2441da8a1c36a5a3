// Package gitexec is the one way polynfi runs git. Every command:
//
//   - starts from a clean environment (PATH and a fixed set of variables; no
//     GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE or any other variable of the
//     caller leaks in), with system and global configuration off
//     (GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=/dev/null), no attribute file
//     outside the tree, no prompts, no pager, no editor, C locale, and
//     repository discovery stopped at the directory's parent
//     (GIT_CEILING_DIRECTORIES), so a directory that is not a repository
//     never picks up an enclosing one;
//   - overrides on the command line every configuration key that makes git
//     run a program (core.fsmonitor, core.hooksPath, core.sshCommand,
//     core.gitProxy, core.askPass, core.pager, core.editor, sequence.editor,
//     credential.helper, gpg.program, ...), forbids every
//     transport but local files and bundles (protocol.allow=never,
//     protocol.file.allow=always);
//   - first reads the repository's effective configuration (includes
//     followed, nothing executed) and neutralizes every filter, diff and
//     merge driver command it defines (filter.*.clean/smudge/process,
//     diff.*.textconv/command, merge.*.driver) and every remote helper
//     command; a repository whose configuration moves its work tree
//     (core.worktree) or names an external diff program (diff.external,
//     which no override can unset) is refused.
//   - runs in its own process group, killed as a group when ctx ends.
//
// Source of the key list: git-config(1) and githooks(5), git 2.39.
package gitexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// overrides are -c pairs given to every command; they take precedence over
// any repository configuration.
var overrides = []string{
	"core.fsmonitor=false",
	"core.hooksPath=/dev/null",
	"core.sshCommand=false",
	"core.gitProxy=",
	"core.askPass=",
	"core.pager=cat",
	"core.editor=false",
	"core.attributesFile=/dev/null",
	"core.untrackedCache=false",
	"core.autocrlf=false",
	"core.quotepath=off",
	"sequence.editor=false",
	"credential.helper=",
	"gpg.program=false",
	"gpg.ssh.program=false",
	"gpg.x509.program=false",
	"commit.gpgSign=false",
	"tag.gpgSign=false",
	"log.showSignature=false",
	"protocol.allow=never",
	"protocol.file.allow=always",
	"submodule.recurse=false",
	"fetch.recurseSubmodules=false",
	// Porcelain commands (diff, status, checkout's report) look into a
	// submodule's work tree by running git inside it, with the
	// submodule's own configuration, which neutralize does not read;
	// "dirty" compares submodules by their commits only. This is a
	// default: a submodule.<name>.ignore in .gitmodules or the
	// repository's configuration takes precedence over it, so commands
	// that compare a work tree also pass --ignore-submodules=dirty,
	// which nothing overrides (internal/cli's diffs do).
	"diff.ignoreSubmodules=dirty",
	"status.submoduleSummary=false",
	"advice.detachedHead=false",
	"uploadpack.packObjectsHook=",
	"core.alternateRefsCommand=",
	"init.templateDir=",
}

// Env returns the environment of every git command: PATH from the caller
// Overrides returns the "-c key=value" arguments every git command of
// polynfi starts with (configured programs neutralized), for git commands
// run elsewhere than through this package (inside a sandbox).
func Overrides() []string {
	out := make([]string, 0, 2*len(overrides))
	for _, o := range overrides {
		out = append(out, "-c", o)
	}
	return out
}

// and fixed values, nothing else.
func Env(dir string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=/nonexistent",
		"XDG_CONFIG_HOME=/nonexistent",
		"LC_ALL=C",
		"TZ=UTC",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_ASKPASS=false",
		"SSH_ASKPASS=false",
		"GIT_PAGER=cat",
		"PAGER=cat",
		"GIT_EDITOR=false",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_PROTOCOL_FROM_USER=0",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_AUTHOR_NAME=polynfi", "GIT_AUTHOR_EMAIL=polynfi@localhost",
		"GIT_COMMITTER_NAME=polynfi", "GIT_COMMITTER_EMAIL=polynfi@localhost",
		"GIT_AUTHOR_DATE=2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2000-01-01T00:00:00Z",
	}
	if dir != "" {
		if a, err := filepath.Abs(dir); err == nil {
			env = append(env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(a))
		}
	}
	return env
}

// ErrUnsafeConfig is wrapped by the error for a repository whose
// configuration polynfi refuses to run git with.
var ErrUnsafeConfig = errors.New("unsafe repository configuration")

// driverKey reports whether a configuration key names a program that git
// may run and that the fixed overrides do not already cover.
func driverKey(k string) bool {
	k = strings.ToLower(k)
	sect, rest, ok := strings.Cut(k, ".")
	if !ok {
		return false
	}
	last := rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		last = rest[i+1:]
	}
	switch sect {
	case "filter":
		return last == "clean" || last == "smudge" || last == "process"
	case "diff":
		return last == "textconv" || last == "command"
	case "merge":
		return last == "driver"
	case "remote":
		return last == "uploadpack" || last == "receivepack" || last == "vcs" || last == "proxy"
	case "difftool", "mergetool":
		return last == "cmd" || last == "path"
	case "pager", "alias", "credential":
		return true
	case "core":
		return last == "fsmonitor" || last == "hookspath" || last == "sshcommand" || last == "gitproxy" ||
			last == "askpass" || last == "editor" || last == "pager"
	}
	return false
}

// args returns the git argv (without "git") for args in dir: overrides,
// then the neutralized keys of dir's configuration.
func argv(ctx context.Context, dir string, args []string) ([]string, error) {
	full := make([]string, 0, 2*len(overrides)+len(args)+4)
	for _, o := range overrides {
		full = append(full, "-c", o)
	}
	if dir != "" {
		extra, err := neutralize(ctx, dir)
		if err != nil {
			return nil, err
		}
		for _, o := range extra {
			full = append(full, "-c", o)
		}
	}
	return append(full, args...), nil
}

// neutralize reads the effective configuration of the repository at dir
// (if any) and returns -c pairs that empty every driver command it defines.
func neutralize(ctx context.Context, dir string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "-c", "core.fsmonitor=false", "config", "--list", "--null", "--includes", "--show-scope")
	cmd.Dir = dir
	cmd.Env = Env(dir)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		return nil, nil // not a repository, or no configuration: nothing to neutralize
	}
	var extra []string
	seen := map[string]bool{}
	// Records: scope NUL key NEWLINE value NUL.
	recs := strings.Split(string(out), "\x00")
	for i := 0; i+1 < len(recs); i += 2 {
		scope := recs[i]
		key, _, _ := strings.Cut(recs[i+1], "\n")
		if scope == "command" {
			continue
		}
		lk := strings.ToLower(key)
		if lk == "core.worktree" {
			return nil, fmt.Errorf("%w in %s: core.worktree is set (the work tree would be elsewhere)", ErrUnsafeConfig, dir)
		}
		if lk == "diff.external" {
			// An empty value cannot unset it (git would run ""): refuse.
			return nil, fmt.Errorf("%w in %s: diff.external names a program", ErrUnsafeConfig, dir)
		}
		if driverKey(key) && !seen[lk] {
			seen[lk] = true
			if strings.HasPrefix(lk, "diff.") && strings.HasSuffix(lk, ".textconv") {
				// An empty textconv is run as "" (an error); cat converts
				// nothing and keeps the diff readable.
				extra = append(extra, key+"=cat")
				continue
			}
			extra = append(extra, key+"=")
			if strings.HasPrefix(lk, "filter.") {
				sect := key[:strings.LastIndexByte(key, '.')]
				if !seen[strings.ToLower(sect)+".required"] {
					seen[strings.ToLower(sect)+".required"] = true
					extra = append(extra, sect+".required=false")
				}
			}
		}
	}
	return extra, nil
}

// Command returns a git command for args in dir with the clean
// environment, the overrides and its own process group. extraEnv adds
// KEY=VALUE pairs (e.g. GIT_INDEX_FILE for a private index).
func Command(ctx context.Context, dir string, extraEnv []string, args ...string) (*exec.Cmd, error) {
	full, err := argv(ctx, dir, args)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = dir
	cmd.Env = append(Env(dir), extraEnv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return err
	}
	cmd.WaitDelay = 5 * time.Second
	return cmd, nil
}

// Output runs git args in dir with stdin (nil: none) and returns its
// stdout. A non-zero exit is an error carrying git's stderr; when ctx ends
// the error is ctx.Err().
func Output(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd, err := Command(ctx, dir, nil, args...)
	if err != nil {
		return nil, err
	}
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.Bytes(), fmt.Errorf("git %s in %s: %s", strings.Join(args, " "), dir, msg)
	}
	return stdout.Bytes(), nil
}

// Combined runs git args in dir and returns stdout and stderr together
// (for messages shown to a user, e.g. git apply's), and the run's error.
func Combined(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd, err := Command(ctx, dir, nil, args...)
	if err != nil {
		return nil, err
	}
	if stdin != nil {
		cmd.Stdin = stdin
	}
	out, err := cmd.CombinedOutput()
	if err != nil && ctx.Err() != nil {
		return out, ctx.Err()
	}
	return out, err
}
