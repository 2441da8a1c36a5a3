package harness

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/runtime"
)

// TestReadFilesWriteTree writes files into a work tree with writeTree (in
// a container through the session, an existing file overwritten in place
// and one in a subdirectory) and reads them back with readFiles in one
// command: a regular file comes back byte for byte (NUL bytes and no final
// newline included), a link, a directory, a missing path and a file
// larger than max do not, and files past the output budget come back
// through CopyOut all the same.
func TestReadFilesWriteTree(t *testing.T) {
	for name, sb := range sessionSandboxes(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			wt := &tree{sb: sb, tmp: "/tmp/.polynfi-readfiles"}
			defer wt.endSession()
			if name == "local" {
				wt.tmp = t.TempDir()
			}
			if _, err := wt.script(ctx, `mkdir -p sub dir && printf old > a.txt && ln -sf a.txt link && head -c 3000 /dev/zero > big`); err != nil {
				t.Fatal(err)
			}
			files := []runtime.File{{Path: "a.txt", Data: []byte("new\ncontent")}, {Path: "sub/b.py", Data: []byte("x = 1\n")}}
			if err := wt.writeTree(ctx, files); err != nil {
				t.Fatal(err)
			}
			if err := wt.writeTree(ctx, []runtime.File{{Path: "nul.bin", Data: []byte("a\x00b\n\x00")}}); err != nil {
				t.Fatal(err) // not through the session (a NUL byte): CopyIn
			}
			paths := []string{"a.txt", "sub/b.py", "nul.bin", "link", "dir", "missing", "big"}
			want := map[string]string{"a.txt": "new\ncontent", "sub/b.py": "x = 1\n", "nul.bin": "a\x00b\n\x00"}
			for _, budget := range []int{readBudget, 12} {
				got, err := wt.readFilesWithin(ctx, paths, 2048, budget)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Errorf("budget %d: read %d files, want %d: %q", budget, len(got), len(want), got)
				}
				for p, w := range want {
					if string(got[p]) != w {
						t.Errorf("budget %d: %s = %q, want %q", budget, p, got[p], w)
					}
				}
			}
		})
	}
}

// TestParseRead: rd's answer splits into one record per path; an answer
// that is short, has bytes after the last record or a bad size does not
// frame.
func TestParseRead(t *testing.T) {
	paths := []string{"a", "b", "c"}
	files, later, ok := parseRead(paths, []byte("3\x00x\x00y-\x00+\x00"))
	if !ok || len(files) != 1 || !bytes.Equal(files["a"], []byte("x\x00y")) || strings.Join(later, ",") != "c" {
		t.Errorf("parseRead = %q %q %v", files, later, ok)
	}
	for _, bad := range []string{"3\x00x\x00y-\x00", "3\x00x\x00y-\x00+\x00z", "9\x00abc-\x00-\x00", "x\x00-\x00-\x00", "-1\x00-\x00-\x00-\x00"} {
		if _, _, ok := parseRead(paths, []byte(bad)); ok {
			t.Errorf("parseRead(%q) frames", bad)
		}
	}
}
