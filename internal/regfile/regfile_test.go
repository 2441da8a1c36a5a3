package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFileRefusesWhatIsNotRegular(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reg := filepath.Join(dir, "data.jsonl")
	if err := os.WriteFile(reg, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(reg, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{reg, link} {
		if b, err := ReadFile(p); err != nil || string(b) != "{}\n" {
			t.Errorf("ReadFile(%s) = %q, %v; want the content", p, b, err)
		}
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for p, kind := range map[string]string{fifo: "named pipe", dir: "directory", "/dev/null": "device"} {
		_, err := ReadFile(p)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p+": not a regular file ("+kind+"), not read") {
			t.Errorf("ReadFile(%s) error %v, want not a regular file (%s)", p, err, kind)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
}

// TestReadFileSizes reads files on both sides of exactReadMax (one buffer
// of the file's size below it, io.ReadAll above it) and of the 512-byte
// start of io.ReadAll's buffer: each must come back whole.
func TestReadFileSizes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []int{0, 1, 511, 512, 513, 20_000, exactReadMax - 1, exactReadMax, exactReadMax + 1, 3*exactReadMax + 7} {
		want := make([]byte, n)
		for i := range want {
			want[i] = byte('a' + i%23)
		}
		p := filepath.Join(dir, "f.py")
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p)
		if err != nil || string(got) != string(want) {
			t.Errorf("ReadFile of a %d-byte file: %d bytes, %v; want the %d bytes written", n, len(got), err, n)
		}
	}
}
