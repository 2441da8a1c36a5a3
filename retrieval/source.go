package retrieval

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/polynfi/polynfi/internal/gitexec"
)

// Source gives the content of files at an instance's base commit.
// ReadFile returns ok=false, with no error, when path does not exist there
// (or is not a regular file); err is for a failure to read at all.
type Source interface {
	ReadFile(path string) (content []byte, ok bool, err error)
}

// SourceFunc adapts a function to Source.
type SourceFunc func(path string) ([]byte, bool, error)

// ReadFile calls f.
func (f SourceFunc) ReadFile(path string) ([]byte, bool, error) { return f(path) }

// MemSource is an in-memory Source: repository-relative path to content.
type MemSource map[string]string

// ReadFile returns the stored content.
func (m MemSource) ReadFile(path string) ([]byte, bool, error) {
	s, ok := m[path]
	if !ok {
		return nil, false, nil
	}
	return []byte(s), true, nil
}

// GitSource reads files of one commit from a local clone with
// `git cat-file --batch` (gitexec.Batch), one short-lived process per file; nothing is
// checked out. It is safe for concurrent use.
type GitSource struct {
	ctx    context.Context
	dir    string
	commit string
}

// NewGitSource returns a Source over commit in the clone at dir. Cancelling
// ctx stops pending reads.
func NewGitSource(ctx context.Context, dir, commit string) *GitSource {
	return &GitSource{ctx: ctx, dir: dir, commit: commit}
}

// ReadFile returns the blob at commit:path. A missing path, a path naming a
// tree or submodule, and a path with a newline are ok=false. An unknown
// commit is an error.
func (g *GitSource) ReadFile(path string) ([]byte, bool, error) {
	if path == "" || strings.ContainsAny(path, "\n\x00") {
		return nil, false, nil
	}
	b, err := gitexec.NewBatch(g.ctx, g.dir)
	if err != nil {
		return nil, false, err
	}
	o, ok, err := b.Read(g.commit+":"+path, true, 0)
	if cerr := b.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return nil, false, fmt.Errorf("git cat-file %s:%s in %s: %w", g.commit, path, g.dir, err)
	}
	if !ok {
		if ok, err := g.commitExists(); err != nil || !ok {
			if err == nil {
				err = errors.New("no such commit")
			}
			return nil, false, fmt.Errorf("read %s at %s in %s: %w", path, g.commit, g.dir, err)
		}
		return nil, false, nil
	}
	if o.Type != "blob" {
		return nil, false, nil
	}
	return o.Data, true, nil
}

func (g *GitSource) commitExists() (bool, error) {
	return gitexec.HasCommit(g.ctx, g.dir, g.commit)
}
