// Package clones finds the local clones of the repositories a dataset
// names and makes workspaces and one-commit checkouts from them, without
// network and without writing to the clones. It is polynfi's one place
// that clones repositories (a bundle into the cache, a shared clone per
// workspace); harness, agent, nfisuite and images ask it for a workspace,
// a checkout or a tree. Every git command goes through internal/gitexec.
package clones

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/internal/gitexec"
)

// gitCmd runs git in dir through the project's one git runner (package
// gitexec: clean environment, no configured programs) and returns its
// stdout. A non-zero exit is an error carrying stderr.
func gitCmd(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return gitexec.Output(ctx, dir, nil, args...)
}

// CheckBase returns an error naming the dataset field when the repository
// in dir does not hold the instance's base commit (a base_commit that is
// no commit there, or a name git would read as an option).
func CheckBase(ctx context.Context, dir, base string) error {
	if strings.HasPrefix(base, "-") {
		return fmt.Errorf("base_commit %q is not a commit", base)
	}
	ok, err := gitexec.HasCommit(ctx, dir, base)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("base_commit %q is not a commit of the repository", base)
	}
	return nil
}

// ErrRepoNotFound is returned (wrapped) when no clone or bundle of a
// repository is in the repositories directory.
var ErrRepoNotFound = errors.New("repository not found")

// Repos finds local clones of repositories and makes workspaces from them,
// without network and without writing to the clones. Dir holds one clone
// per repository, as Dir/owner__name or Dir/owner/name (normal or bare,
// optionally with a ".git" suffix), or a git bundle Dir/owner__name.bundle;
// a bundle is cloned (bare, offline) into CacheDir once per Repos and
// reused across runs. Repos is safe for concurrent use.
type Repos struct {
	Dir      string
	CacheDir string

	mu      sync.Mutex
	sources map[string]*repoSource
}

type repoSource struct {
	once sync.Once
	dir  string
	err  error
}

// New returns a Repos over dir, caching cloned bundles in cacheDir.
func New(dir, cacheDir string) *Repos {
	// git commands run with other working directories, so relative paths
	// given on the command line must be made absolute here, once.
	if a, err := filepath.Abs(dir); err == nil && dir != "" {
		dir = a
	}
	if a, err := filepath.Abs(cacheDir); err == nil && cacheDir != "" {
		cacheDir = a
	}
	return &Repos{Dir: dir, CacheDir: cacheDir, sources: map[string]*repoSource{}}
}

// Source returns the git directory (a work tree or bare repository) to make
// workspaces of repo ("owner/name") from.
func (r *Repos) Source(ctx context.Context, repo string) (string, error) {
	r.mu.Lock()
	s, ok := r.sources[repo]
	if !ok {
		s = &repoSource{}
		r.sources[repo] = s
	}
	r.mu.Unlock()
	s.once.Do(func() { s.dir, s.err = r.locate(ctx, repo) })
	return s.dir, s.err
}

func isGitDir(p string) bool {
	if fi, err := os.Stat(filepath.Join(p, ".git")); err == nil && (fi.IsDir() || fi.Mode().IsRegular()) {
		return true
	}
	_, e1 := os.Stat(filepath.Join(p, "HEAD"))
	fi, e2 := os.Stat(filepath.Join(p, "objects"))
	return e1 == nil && e2 == nil && fi.IsDir()
}

func (r *Repos) locate(ctx context.Context, repo string) (string, error) {
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return "", fmt.Errorf("repository %q: want owner/name", repo)
	}
	flat := owner + "__" + name
	for _, c := range []string{flat, filepath.Join(owner, name), flat + ".git", filepath.Join(owner, name+".git")} {
		p := filepath.Join(r.Dir, c)
		if isGitDir(p) {
			return p, nil
		}
	}
	bundle := filepath.Join(r.Dir, flat+".bundle")
	if _, err := os.Stat(bundle); err != nil {
		return "", fmt.Errorf("%s in %s (want %s, %s or %s.bundle): %w", repo, r.Dir, flat, filepath.Join(owner, name), flat, ErrRepoNotFound)
	}
	bundle, err := filepath.Abs(bundle)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(r.CacheDir, 0o755); err != nil {
		return "", fmt.Errorf("repository cache: %w", err)
	}
	dest := filepath.Join(r.CacheDir, flat+".git")
	if isGitDir(dest) {
		// Refresh from the bundle, in case it changed since the last run.
		if _, err := gitCmd(ctx, dest, "fetch", "--quiet", "--force", bundle, "+refs/*:refs/*"); err != nil {
			return "", fmt.Errorf("update %s from %s: %w", dest, bundle, err)
		}
		return dest, nil
	}
	tmp, err := os.MkdirTemp(r.CacheDir, ".clone-"+flat+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if _, err := gitCmd(ctx, r.CacheDir, "clone", "--quiet", "--bare", bundle, filepath.Join(tmp, "repo.git")); err != nil {
		return "", fmt.Errorf("clone bundle %s: %w", bundle, err)
	}
	if err := os.Rename(filepath.Join(tmp, "repo.git"), dest); err != nil {
		if isGitDir(dest) { // another process won the race
			return dest, nil
		}
		return "", err
	}
	return dest, nil
}

// Workspace makes a fresh work tree of repo at commit in a new directory
// under parent and returns it with a function that removes it. The clone
// is only read: the work tree is a shared clone (objects borrowed through
// alternates), so nothing written in it reaches the source.
func (r *Repos) Workspace(ctx context.Context, repo, commit, parent string) (dir string, remove func(), err error) {
	src, err := r.Source(ctx, repo)
	if err != nil {
		return "", func() {}, err
	}
	src, err = filepath.Abs(src)
	if err != nil {
		return "", func() {}, err
	}
	base, err := os.MkdirTemp(parent, "ws-")
	if err != nil {
		return "", func() {}, err
	}
	remove = func() { _ = os.RemoveAll(base) }
	dir = filepath.Join(base, "repo")
	if _, err := gitCmd(ctx, base, "clone", "--quiet", "--shared", "--no-checkout", src, dir); err != nil {
		remove()
		return "", func() {}, fmt.Errorf("workspace of %s: %w", repo, err)
	}
	if err := CheckBase(ctx, dir, commit); err != nil {
		remove()
		return "", func() {}, fmt.Errorf("workspace of %s: %w", repo, err)
	}
	if _, err := gitCmd(ctx, dir, "checkout", "--quiet", "--detach", commit); err != nil {
		remove()
		return "", func() {}, fmt.Errorf("workspace of %s at %s: %w", repo, commit, err)
	}
	return dir, remove, nil
}

// Checkout makes a repository of one commit of repo in dir (which must
// not exist): the files at commit, and a .git holding that commit (same
// id; a shallow repository, its parents absent), its tree and blobs, with
// HEAD detached at it, and nothing else: no branch, tag, remote, reflog,
// stash, ORIG_HEAD or FETCH_HEAD, no object of another commit. It has its
// own objects and no link to the source, so that it can be copied
// elsewhere (an image build context) and stay a working repository, and
// code run in it cannot find later history (the fix of an instance).
// commit may be abbreviated; it must name a commit of the clone.
func (r *Repos) Checkout(ctx context.Context, repo, commit, dir string) error {
	src, err := r.Source(ctx, repo)
	if err != nil {
		return err
	}
	src, err = filepath.Abs(src)
	if err != nil {
		return err
	}
	full, err := gitCmd(ctx, src, "rev-parse", "--verify", "--quiet", "--end-of-options", commit+"^{commit}")
	if err != nil {
		return fmt.Errorf("checkout of %s: base_commit %q is not a commit of the repository: %w", repo, commit, err)
	}
	sha := strings.TrimSpace(string(full))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("checkout of %s: %w", repo, err)
	}
	// Fetching the one commit by id, at depth 1, over the file transport
	// (a plain path would copy or link the whole object store); no ref is
	// written for it, not even FETCH_HEAD. One packing thread: the same
	// pack every time, so that the engine's layer cache holds for COPY.
	steps := [][]string{
		{"init", "--quiet", "--template="},
		{"-c", "protocol.version=2", "-c", "pack.threads=1", "-c", "gc.auto=0", "fetch", "--quiet", "--depth=1", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules",
			"file://" + filepath.ToSlash(src), sha},
		{"checkout", "--quiet", "--detach", sha},
	}
	for _, a := range steps {
		if _, err := gitCmd(ctx, dir, a...); err != nil {
			return fmt.Errorf("checkout of %s at %s: %w", repo, commit, err)
		}
	}
	// The checkout's reflog of HEAD: not needed.
	if err := os.RemoveAll(filepath.Join(dir, ".git", "logs")); err != nil {
		return fmt.Errorf("checkout of %s: %w", repo, err)
	}
	return nil
}

// TreeOf returns the id of the tree of commit in repo's clone: what a
// checkout of it holds, whatever clone it is made from.
func (r *Repos) TreeOf(ctx context.Context, repo, commit string) (string, error) {
	src, err := r.Source(ctx, repo)
	if err != nil {
		return "", err
	}
	out, err := gitCmd(ctx, src, "rev-parse", "--verify", "--quiet", "--end-of-options", commit+"^{tree}")
	if err != nil {
		return "", fmt.Errorf("tree of %s at %s: %w", repo, commit, err)
	}
	return strings.TrimSpace(string(out)), nil
}
