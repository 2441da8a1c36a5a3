// Package safepath is the one path checker of polynfi: every path that a
// patch, a prediction, a dataset row or a sandbox copy names is checked here
// before anything is written under a root directory (a work tree, a
// workspace, a sandbox).
//
// Check is lexical: a clean, relative, slash-separated path with no "." or
// ".." element, no NUL, no backslash, no drive letter and no ".git" element
// (any case). Under adds the file system: no existing component of the path
// under root may be a symbolic link (the last one may be when the caller
// edits the link itself), so a write cannot leave root through a link that
// the repository or an earlier write put there. WriteFile and Remove check
// and act, and open the file with O_NOFOLLOW so that a link created between
// the check and the write is not followed either.
package safepath

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrUnsafe is wrapped by every error of this package that rejects a path.
var ErrUnsafe = errors.New("unsafe path")

// Check rejects p unless it is a clean relative slash path that stays under
// its root and outside any .git directory.
func Check(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("%w: empty path", ErrUnsafe)
	case strings.ContainsRune(p, 0):
		return fmt.Errorf("%w: path %q contains NUL", ErrUnsafe, p)
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("%w: path %q is absolute", ErrUnsafe, p)
	case strings.Contains(p, `\`):
		return fmt.Errorf("%w: path %q contains a backslash", ErrUnsafe, p)
	case len(p) > 1 && p[1] == ':':
		return fmt.Errorf("%w: path %q has a drive letter", ErrUnsafe, p)
	}
	for _, el := range strings.Split(p, "/") {
		switch el {
		case "", ".", "..":
			return fmt.Errorf("%w: path %q has a %q element", ErrUnsafe, p, el)
		}
		// ".git" in any case, and the 8.3 short name git itself refuses.
		if strings.EqualFold(el, ".git") || strings.EqualFold(el, "git~1") {
			return fmt.Errorf("%w: path %q is inside .git", ErrUnsafe, p)
		}
	}
	if path.Clean(p) != p {
		return fmt.Errorf("%w: path %q is not clean", ErrUnsafe, p)
	}
	return nil
}

// Lstat reports the type bits of the file at p, a clean relative slash
// path under some root, without following a final link; ok is false when
// nothing is there. It lets Under's walk read a tree the caller cannot
// reach with os.Lstat (a work tree inside a container).
type Lstat func(p string) (mode os.FileMode, ok bool)

// RootLstat is the Lstat of the directory root on this machine.
func RootLstat(root string) Lstat {
	return func(p string) (os.FileMode, bool) {
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return 0, false
		}
		return fi.Mode(), true
	}
}

// Under checks p with Check and then walks its existing components under
// root: none may be a symbolic link, except the last one when lastMayBeLink.
// Components that do not exist yet are fine (they will be created as
// directories under root).
func Under(root, p string, lastMayBeLink bool) error {
	return UnderFS(RootLstat(root), p, lastMayBeLink)
}

// UnderFS is Under over the tree lstat reads.
func UnderFS(lstat Lstat, p string, lastMayBeLink bool) error {
	if err := Check(p); err != nil {
		return err
	}
	parts := strings.Split(p, "/")
	for i := range parts {
		pre := strings.Join(parts[:i+1], "/")
		mode, ok := lstat(pre)
		if !ok {
			return nil
		}
		if mode&os.ModeSymlink != 0 && !(lastMayBeLink && i == len(parts)-1) {
			return fmt.Errorf("%w: %s goes through symbolic link %s", ErrUnsafe, p, pre)
		}
		if i < len(parts)-1 && !mode.IsDir() {
			return fmt.Errorf("%w: %s: %s is not a directory", ErrUnsafe, p, pre)
		}
	}
	return nil
}

// Prefixes returns every leading part of p ("a", "a/b", "a/b/c" for
// "a/b/c"): the paths UnderFS may look up.
func Prefixes(p string) []string {
	parts := strings.Split(p, "/")
	out := make([]string, len(parts))
	for i := range parts {
		out[i] = strings.Join(parts[:i+1], "/")
	}
	return out
}

// LinkTarget rejects a symbolic link at p (relative to root) whose target
// is absolute or leaves root.
func LinkTarget(p, target string) error {
	if strings.HasPrefix(target, "/") {
		return fmt.Errorf("%w: symbolic link %s points to absolute path %q", ErrUnsafe, p, target)
	}
	if j := path.Join(path.Dir(p), target); j == ".." || strings.HasPrefix(j, "../") {
		return fmt.Errorf("%w: symbolic link %s points outside its root (%q)", ErrUnsafe, p, target)
	}
	if j := path.Join(path.Dir(p), target); Check(j) != nil && j != "." {
		return fmt.Errorf("%w: symbolic link %s points to %q", ErrUnsafe, p, target)
	}
	return nil
}

// MkdirAll creates the parent directories of p under root, refusing links.
func mkdirParents(root, p string) error {
	parts := strings.Split(p, "/")
	cur := root
	for _, el := range parts[:len(parts)-1] {
		cur = filepath.Join(cur, el)
		fi, err := os.Lstat(cur)
		switch {
		case err == nil && fi.IsDir():
			continue
		case err == nil:
			return fmt.Errorf("%w: %s: %s is not a directory", ErrUnsafe, p, cur)
		case errors.Is(err, os.ErrNotExist):
			if err := os.Mkdir(cur, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
				return err
			}
		default:
			return err
		}
	}
	return nil
}

// WriteFile writes data to p under root (perm 0 means 0o644), creating
// parent directories; p is checked with Under, an existing file at p is
// replaced only when it is a regular file, and the file is opened with
// O_NOFOLLOW.
func WriteFile(root, p string, data []byte, perm os.FileMode) error {
	if err := Under(root, p, false); err != nil {
		return err
	}
	if err := mkdirParents(root, p); err != nil {
		return err
	}
	if perm == 0 {
		perm = 0o644
	}
	full := filepath.Join(root, filepath.FromSlash(p))
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, perm)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return fmt.Errorf("%w: %s is a symbolic link", ErrUnsafe, p)
		}
		return err
	}
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("%w: %s is not a regular file", ErrUnsafe, p)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Remove removes the file or link p under root (not what a link points
// to); a missing file is not an error.
func Remove(root, p string) error {
	if err := Under(root, p, true); err != nil {
		return err
	}
	err := os.Remove(filepath.Join(root, filepath.FromSlash(p)))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
