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
	"io"
	"io/fs"
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

// ErrNotRegular is wrapped by the error of OpenIn and ReadFileIn for a
// path that is a symbolic link, or not a regular file, where a regular
// file is expected.
var ErrNotRegular = errors.New("not a regular file")

// localPath rejects a path that is empty, absolute or has a ".." element
// (OpenIn's paths are a run directory's, which may hold hidden names).
func localPath(p string) error {
	if p == "" || strings.ContainsRune(p, 0) || !filepath.IsLocal(filepath.FromSlash(p)) {
		return fmt.Errorf("%w: path %q does not stay under its root", ErrUnsafe, p)
	}
	return nil
}

// checkDirs walks the directories of p under r (not p itself): each must
// be a directory, not a symbolic link. A missing one is fs.ErrNotExist.
func checkDirs(r *os.Root, p string) error {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(filepath.FromSlash(p))), "/")
	for i := 0; i < len(parts)-1; i++ {
		pre := strings.Join(parts[:i+1], "/")
		fi, err := r.Lstat(pre)
		if err != nil {
			return err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%w: %s goes through symbolic link %s", ErrUnsafe, p, pre)
		}
		if !fi.IsDir() {
			return fmt.Errorf("%w: %s: %s is not a directory", ErrUnsafe, p, pre)
		}
	}
	return nil
}

// OpenIn opens the regular file at p (a relative path, slash or OS
// separated, without ".." elements) under the directory root for
// reading, following no symbolic link below root (root itself may be
// one): a link as the file or as any directory on the way is refused
// (the error wraps ErrUnsafe and ErrNotRegular, and names root and p), and
// so is a named pipe, socket, device or directory, which is opened
// non-blocking and never read. Every lookup is confined to root (os.Root),
// so a directory swapped for a link while OpenIn runs cannot lead outside
// it. A missing file is an error wrapping fs.ErrNotExist. The caller
// closes the file.
func OpenIn(root, p string) (*os.File, error) {
	name := filepath.Join(root, filepath.FromSlash(p))
	if err := localPath(p); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := checkDirs(r, p); err != nil {
		if errors.Is(err, ErrUnsafe) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return nil, err
	}
	dir, base := filepath.Split(filepath.Clean(filepath.FromSlash(p)))
	if dir == "" {
		dir = "."
	}
	d, err := r.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	// The last element is opened relative to its directory with
	// O_NOFOLLOW (os.Root would follow a link that stays inside root).
	fd, err := syscall.Openat(int(d.Fd()), base, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return nil, fmt.Errorf("%s: %w: %w: a symbolic link", name, ErrUnsafe, ErrNotRegular)
	case errors.Is(err, syscall.ENOENT):
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	case err != nil:
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	f := os.NewFile(uintptr(fd), name)
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w: %w (%s)", name, ErrUnsafe, ErrNotRegular, fileKind(fi.Mode()))
	}
	// Reads of a regular file do not block; clear O_NONBLOCK all the same.
	_ = syscall.SetNonblock(fd, false)
	return f, nil
}

// ReadFileIn reads the regular file at p under root as OpenIn opens it.
func ReadFileIn(root, p string) ([]byte, error) {
	f, err := OpenIn(root, p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// MkdirAllIn creates the directory p under root and its parents, refusing
// (ErrUnsafe, naming p) a symbolic link or a non-directory on the way;
// lookups are confined to root.
func MkdirAllIn(root, p string) error {
	if err := localPath(p); err != nil {
		return err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	return mkdirAllIn(r, p)
}

func mkdirAllIn(r *os.Root, p string) error {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(filepath.FromSlash(p))), "/")
	for i := range parts {
		pre := strings.Join(parts[:i+1], "/")
		fi, err := r.Lstat(pre)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := r.Mkdir(pre, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
			if fi, err = r.Lstat(pre); err != nil {
				return err
			}
		case err != nil:
			return err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%w: %s goes through symbolic link %s (in %s)", ErrUnsafe, p, pre, r.Name())
		}
		if !fi.IsDir() {
			return fmt.Errorf("%w: %s: %s is not a directory (in %s)", ErrUnsafe, p, pre, r.Name())
		}
	}
	return nil
}

// fileKind names a file mode's type for messages.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}
