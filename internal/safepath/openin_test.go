package safepath

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenIn: a regular file below root is read; a link as the file or
// as a directory on the way (inside root or out of it), a FIFO, a
// directory and a ".." path are refused with an error naming the path,
// without blocking on the FIFO; a missing file is fs.ErrNotExist.
func TestOpenIn(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(root, "m/i/run-0"), 0o755)
	os.WriteFile(filepath.Join(root, "m/i/run-0/result.json"), []byte("ok"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("host"), 0o644)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "m/i/run-0/patch.diff"))
	os.Symlink("result.json", filepath.Join(root, "m/i/run-0/inside.json"))
	os.Symlink(outside, filepath.Join(root, "linkdir"))
	os.Symlink("m", filepath.Join(root, "alias"))
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFileIn(root, "m/i/run-0/result.json"); err != nil || string(b) != "ok" {
		t.Fatalf("regular file: got %q %v", b, err)
	}
	for _, c := range []struct{ p, want string }{
		{"m/i/run-0/patch.diff", "symbolic link"},
		{"m/i/run-0/inside.json", "symbolic link"},
		{"linkdir/secret", "symbolic link linkdir"},
		{"alias/i/run-0/result.json", "symbolic link alias"},
		{"fifo", "named pipe"},
		{"m", "directory"},
		{"../" + filepath.Base(outside) + "/secret", "does not stay under its root"},
	} {
		b, err := ReadFileIn(root, c.p)
		if err == nil || !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.p) {
			t.Errorf("%s: got %q, %v; want an ErrUnsafe naming it (%s)", c.p, b, err, c.want)
		}
	}
	if _, err := ReadFileIn(root, "m/i/run-0/missing.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: got %v, want fs.ErrNotExist", err)
	}
	// The root itself may be a link.
	os.Symlink(root, filepath.Join(outside, "rootlink"))
	if b, err := ReadFileIn(filepath.Join(outside, "rootlink"), "m/i/run-0/result.json"); err != nil || string(b) != "ok" {
		t.Errorf("root through a link: got %q %v", b, err)
	}
	if err := MkdirAllIn(root, "linkdir/new"); !errors.Is(err, ErrUnsafe) {
		t.Errorf("MkdirAllIn through a link: got %v, want ErrUnsafe", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); err == nil {
		t.Error("MkdirAllIn created a directory through a link")
	}
}
