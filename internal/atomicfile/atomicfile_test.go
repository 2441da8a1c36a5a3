package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
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
