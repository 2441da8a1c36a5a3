//go:build unix

package regfile

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
)

// readFile is ReadFile on a file descriptor of its own, without an
// os.File: the runtime's poller is not asked to register a regular file
// (an epoll_ctl that fails, per file) and nothing is left to a cleanup.
// Scoring reads thousands of small files, where these calls were a
// fifth of the time (issue 29).
func readFile(path string) ([]byte, error) {
	// as open: a stat error is left to the open, whose error callers know
	if err := Check(path); errors.Is(err, ErrNotRegular) {
		return nil, err
	}
	var fd int
	for {
		var err error
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC|syscall.O_NOCTTY, 0)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(fd, &st)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
		}
	}
	if m := fileMode(uint32(st.Mode)); !m.IsRegular() {
		return nil, notRegular(path, m)
	}
	r := fdReader{fd: fd, path: path}
	size := st.Size
	if size <= 0 || size > exactReadMax {
		return io.ReadAll(r)
	}
	return readSized(r, int(size))
}

// maxRead bounds one read(2), as os.File does (darwin refuses reads of 2
// GB and more).
const maxRead = 1 << 30

// fdReader reads a file descriptor (io.Reader: 0 bytes read is io.EOF).
type fdReader struct {
	fd   int
	path string
}

func (r fdReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if len(p) > maxRead {
		p = p[:maxRead]
	}
	for {
		n, err := syscall.Read(r.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: r.path, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// fileMode is the fs.FileMode type bits of a stat mode.
func fileMode(mode uint32) fs.FileMode {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 0
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}
