// Package regfile opens the files polynfi reads as input (a dataset, a
// predictions file, a settings file, a labelled sheet) only when they are
// regular files. A named pipe would block the reader until something
// writes to it, a device or a socket might never end: such a path is
// refused with an error naming it and its kind, without being opened for
// reading when it is one already (os.Stat), and without blocking when it
// becomes one between the check and the open (the open is non-blocking
// and the opened file is checked again).
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (after symbolic links).
var ErrNotRegular = errors.New("not a regular file")

// Kind names the kind of a file mode: "regular file", "directory",
// "named pipe", "socket", "device", "symbolic link", "irregular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "device"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	}
	return "irregular file"
}

// notRegular is the error for path of mode m:
// "PATH: not a regular file (named pipe), not read".
func notRegular(path string, m fs.FileMode) error {
	return fmt.Errorf("%s: %w (%s), not read", path, ErrNotRegular, Kind(m))
}

// Check returns nil when path names a regular file (after symbolic
// links), the error wrapping ErrNotRegular when it names something else,
// and os.Stat's error when it cannot be examined. It opens nothing.
func Check(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return notRegular(path, st.Mode())
	}
	return nil
}

// Open opens path for reading when it is a regular file; otherwise it
// returns an error wrapping ErrNotRegular (or the open's error) and no
// file. The caller closes the file.
func Open(path string) (*os.File, error) {
	f, _, err := open(path)
	return f, err
}

// open is Open that also returns the opened file's status.
func open(path string) (*os.File, fs.FileInfo, error) {
	if err := Check(path); errors.Is(err, ErrNotRegular) {
		return nil, nil, err
	}
	// a stat error is left to the open, whose error callers know
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(path, st.Mode())
	}
	// O_NONBLOCK does not change how a regular file reads.
	return f, st, nil
}

// exactReadMax is the largest file (bytes) ReadFile reads into one buffer
// of its size: two reads (the bytes, then the end) where io.ReadAll's
// doubling buffer from 512 bytes takes some eight reads, copies and
// clears for a 20 kB file (issue 29: read was 14,800 of the standard
// library's syscalls for 1,790 files). Larger files go through
// io.ReadAll, whose buffer grows with what is read: one buffer of a
// 50 MB file's size raised its peak RSS by ~40 MB (bench/vs_ruff.py's
// memory row).
const exactReadMax = 1 << 20

// ReadFile is os.ReadFile for regular files only (Open).
func ReadFile(path string) ([]byte, error) { return readFile(path) }

// readFileOS is ReadFile through an os.File (platforms without readFile's
// file descriptors).
func readFileOS(path string) ([]byte, error) {
	f, st, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := st.Size()
	if size <= 0 || size > exactReadMax {
		return io.ReadAll(f)
	}
	return readSized(f, int(size))
}

// readSized reads the regular file r to its end into one buffer for size
// bytes and a byte more. A read that stops short of the buffer's end with
// exactly size bytes in it is the end: a regular file's read(2) returns
// less than asked only at the end of the file, so the read of 0 bytes
// that would confirm it (a system call per file) is not made. A file that
// grew meanwhile fills the extra byte and is read whole.
func readSized(r io.Reader, size int) ([]byte, error) {
	data := make([]byte, 0, size+1)
	for {
		want := cap(data) - len(data)
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return data, err
		}
		if n > 0 && n < want && len(data) == size {
			return data, nil
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
