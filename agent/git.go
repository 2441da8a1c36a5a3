package agent

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/polynfi/polynfi/internal/gitexec"
)

// gitRun runs git through gitexec (the project's one git runner: clean
// environment, no configuration that runs programs) and returns its
// stdout, at most max bytes (max ≤ 0: all; more is an error). With gitDir
// set, the command uses that repository with workTree as its work tree and
// runs in gitDir, so that only gitDir's configuration is read (never the
// agent's own .git in the work tree); otherwise it runs in workTree.
func gitRun(ctx context.Context, gitDir, workTree string, stdin []byte, max int, args ...string) ([]byte, error) {
	dir := workTree
	if gitDir != "" {
		dir = gitDir
		args = append([]string{"--git-dir=" + gitDir, "--work-tree=" + workTree}, args...)
	}
	cmd, err := gitexec.Command(ctx, dir, nil, args...)
	if err != nil {
		return nil, err
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out := &capWriter{max: max}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &stderr
	err = cmd.Run()
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
