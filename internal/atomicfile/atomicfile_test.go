package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/safepath"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	if err := Write(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFunc(p, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want boom", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Fatalf("a failed write changed the file: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temp files left behind: %v", entries)
	}
	if err := Write(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Fatal("want an error for a missing directory")
	}
	if !IsTemp(".tmp-r.json-123") || IsTemp("r.json") {
		t.Fatal("IsTemp")
	}
}

// TestWriteInRefusesLinks: WriteIn writes below root, creating
// directories, and never through a symbolic link on the way (the error
// names the link); a link at the file itself is replaced, not written
// through.
func TestWriteInRefusesLinks(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := WriteFileIn(root, "a/b/c.json", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "a/b/c.json")); err != nil || string(b) != "x" {
		t.Fatalf("got %q %v, want x", b, err)
	}
	os.Symlink(outside, filepath.Join(root, "linked"))
	err := WriteFileIn(root, "linked/c.json", []byte("y"))
	if !errors.Is(err, safepath.ErrUnsafe) || !strings.Contains(err.Error(), "symbolic link linked") {
		t.Errorf("through a linked directory: got %v, want ErrUnsafe naming linked", err)
	}
	host := filepath.Join(outside, "host.txt")
	os.WriteFile(host, []byte("host"), 0o644)
	os.Symlink(host, filepath.Join(root, "a/file.json"))
	if err := WriteFileIn(root, "a/file.json", []byte("z")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(host); string(b) != "host" {
		t.Errorf("host file written through a link: %q", b)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		t.Errorf("%d entries outside, want 1", len(ents))
	}
	if fi, err := os.Lstat(filepath.Join(root, "a/file.json")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("a/file.json: %v %v, want a regular file", fi, err)
	}
}
