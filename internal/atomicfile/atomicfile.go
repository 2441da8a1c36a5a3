// Package atomicfile writes files so that a reader, or a run interrupted at
// any point, sees either the old content or the new one, never a part.
package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/polynfi/polynfi/internal/safepath"
)

// Write writes data to path through a temp file in the same directory,
// synced, then renamed over path (mode 0644). On error the temp file is
// removed and path is untouched; the error names path.
func Write(path string, data []byte) error {
	return WriteFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is Write with the content produced by fill.
func WriteFunc(path string, fill func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	werr := fill(f)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}

// IsTemp reports whether name is one of Write's temp files (".tmp-..."),
// which readers of a directory should skip.
func IsTemp(name string) bool { return bytes.HasPrefix([]byte(filepath.Base(name)), []byte(".tmp-")) }

// WriteIn is WriteFunc for the file at p (a relative path without ".."
// elements) under the directory root, for directories whose content is
// not trusted (a run directory): the parent directories of p are created
// as needed, and none of them, below root, may be a symbolic link (the
// error wraps safepath.ErrUnsafe and names p); every lookup is confined
// to root (os.Root), and the final rename replaces a link at p rather
// than writing through it. root itself may be a link.
func WriteIn(root, p string, fill func(io.Writer) error) error {
	full := filepath.Join(root, filepath.FromSlash(p))
	dir := filepath.Dir(filepath.FromSlash(p))
	if dir != "." {
		if err := safepath.MkdirAllIn(root, dir); err != nil {
			return fmt.Errorf("write %s: %w", full, err)
		}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("write %s: %w", full, err)
	}
	defer r.Close()
	var f *os.File
	var tmp string
	for i := 0; ; i++ {
		tmp = filepath.Join(dir, ".tmp-"+filepath.Base(p)+"-"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err = r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil || !errors.Is(err, fs.ErrExist) || i == 100 {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", full, err)
	}
	werr := fill(f)
	if werr == nil {
		werr = f.Chmod(0o644)
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = r.Rename(tmp, filepath.FromSlash(p))
	}
	if werr != nil {
		r.Remove(tmp)
		return fmt.Errorf("write %s: %w", full, werr)
	}
	return nil
}

// WriteFileIn is WriteIn with data.
func WriteFileIn(root, p string, data []byte) error {
	return WriteIn(root, p, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
