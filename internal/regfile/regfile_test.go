package regfile

import (
	"errors"
	"io"
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

// TestReadSizedShortReads reads through readers that return the content
// in pieces: the stated size stops reading only after a read that came
// back short (a regular file's end), and content past the stated size (a
// file that grew after its stat) is read whole.
func TestReadSizedShortReads(t *testing.T) {
	content := []byte("0123456789abcdef")
	for _, size := range []int{len(content), len(content) - 5, 1} {
		for _, chunk := range []int{1, 3, 100} {
			r := &chunkReader{data: content, chunk: chunk}
			got, err := readSized(r, size)
			if err != nil {
				t.Fatalf("size %d, chunks of %d: %v", size, chunk, err)
			}
			// a reader that returns fewer bytes than asked before its end
			// is not a regular file: readSized may stop at size there,
			// and must not stop before it
			if size == len(content) || chunk >= len(content) {
				if string(got) != string(content) {
					t.Errorf("size %d, chunks of %d: read %q, want %q", size, chunk, got, content)
				}
			} else if len(got) < size || string(got) != string(content[:len(got)]) {
				t.Errorf("size %d, chunks of %d: read %q, want a prefix of %q of at least %d bytes", size, chunk, got, content, size)
			}
		}
	}
}

// chunkReader returns data at most chunk bytes per Read, then io.EOF.
type chunkReader struct {
	data  []byte
	chunk int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.chunk, len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}
