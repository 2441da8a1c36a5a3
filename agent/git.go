package agent

// Every git call of the package goes through gitRun, in this file, until
// the project's shared git runner lands.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// gitRun runs git with gitDir and workTree (either may be "": then git
// runs in workTree's or the current directory), stdin, no hooks, no
// fsmonitor, no pager, no prompts, no user or system configuration, and
// returns its stdout (at most max bytes; more is an error). A non-zero exit
// is an error carrying stderr.
func gitRun(ctx context.Context, gitDir, workTree string, stdin []byte, max int, args ...string) ([]byte, error) {
	full := []string{"-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "-c", "core.autocrlf=false",
		"-c", "core.quotePath=false", "-c", "advice.detachedHead=false", "-c", "init.defaultBranch=main"}
	if gitDir != "" {
		full = append(full, "--git-dir="+gitDir)
	}
	if workTree != "" && gitDir != "" {
		full = append(full, "--work-tree="+workTree)
	}
	full = append(full, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	if workTree != "" {
		cmd.Dir = workTree
	}
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0",
		"GIT_ASKPASS=true", "LC_ALL=C", "GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0",
		"GIT_AUTHOR_NAME=polynfi", "GIT_AUTHOR_EMAIL=polynfi@localhost", "GIT_COMMITTER_NAME=polynfi", "GIT_COMMITTER_EMAIL=polynfi@localhost",
		"GIT_AUTHOR_DATE=2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2000-01-01T00:00:00Z")
	cmd.WaitDelay = 5 * time.Second
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out := &capWriter{max: max}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return out.b.Bytes(), fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	if out.over {
		return nil, fmt.Errorf("git %s: output larger than %d bytes", strings.Join(args, " "), max)
	}
	return out.b.Bytes(), nil
}

// capWriter keeps the first max bytes (max ≤ 0: all) and says whether more came.
type capWriter struct {
	b    bytes.Buffer
	max  int
	over bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	if w.max > 0 && w.b.Len()+len(p) > w.max {
		w.over = true
		if room := w.max - w.b.Len(); room > 0 {
			w.b.Write(p[:room])
		}
		return len(p), nil
	}
	w.b.Write(p)
	return len(p), nil
}
