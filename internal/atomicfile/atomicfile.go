// Package atomicfile writes files so that a reader, or a run interrupted at
// any point, sees either the old content or the new one, never a part.
package atomicfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
