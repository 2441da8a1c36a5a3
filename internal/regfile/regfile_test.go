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
