package diff

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const multiPatch = `From 1234 Mon Sep 17 00:00:00 2001
Subject: [PATCH] several kinds of change

diff --git a/src/app.py b/src/app.py
index 83db48f..bf269f4 100644
--- a/src/app.py
+++ b/src/app.py
@@ -1,4 +1,5 @@ import os
 import os
-x = 1
+x = 2
+y = 3
 
 def f():
@@ -10,2 +11,1 @@ def f():
-    a = 1
     return a
diff --git a/added.py b/added.py
new file mode 100644
index 0000000..3b18e51
--- /dev/null
+++ b/added.py
@@ -0,0 +1,2 @@
+print(1)
+print(2)
diff --git a/gone.py b/gone.py
deleted file mode 100755
index 3b18e51..0000000
--- a/gone.py
+++ /dev/null
@@ -1 +0,0 @@
-print(1)
diff --git a/old/name.py b/new/name.py
similarity index 90%
rename from old/name.py
rename to new/name.py
index 1111111..2222222 100644
--- a/old/name.py
+++ b/new/name.py
@@ -3 +3 @@
-a
+b
\ No newline at end of file
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/logo.png b/logo.png
index 1111111..2222222 100644
Binary files a/logo.png and b/logo.png differ
`

func TestParse(t *testing.T) {
	t.Parallel()
	files, err := Parse(multiPatch)
	if err != nil {
		t.Fatal(err)
	}
	type summary struct {
		Old, New                           string
		New_, Del, Ren, Bin                bool
		OldMode, NewMode                   uint32
		Removed, Added                     []int
		CompatKey, ExtendedKey, PathResult string
	}
	var got []summary
	for _, f := range files {
		got = append(got, summary{f.OldPath, f.NewPath, f.IsNew, f.IsDelete, f.IsRename, f.IsBinary,
			f.OldMode, f.NewMode, f.RemovedLines(), f.AddedLines(), f.CompatKey(), f.ExtendedKey(), f.Path()})
	}
	want := []summary{
		{"src/app.py", "src/app.py", false, false, false, false, 0o100644, 0o100644, []int{2, 10}, []int{2, 3}, "src/app.py", "src/app.py", "src/app.py"},
		{"", "added.py", true, false, false, false, 0, 0o100644, nil, []int{1, 2}, "/dev/null", "added.py", "added.py"},
		{"gone.py", "", false, true, false, false, 0o100755, 0, []int{1}, nil, "gone.py", "gone.py", "gone.py"},
		{"old/name.py", "new/name.py", false, false, true, false, 0o100644, 0o100644, []int{3}, []int{3}, "old/name.py", "old/name.py", "new/name.py"},
		{"run.sh", "run.sh", false, false, false, false, 0o100644, 0o100755, nil, nil, "run.sh", "run.sh", "run.sh"},
		{"logo.png", "logo.png", false, false, false, true, 0o100644, 0o100644, nil, nil, "logo.png", "logo.png", "logo.png"},
	}
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	h := files[0].Hunks[0]
	if h.OldStart != 1 || h.OldCount != 4 || h.NewStart != 1 || h.NewCount != 5 || h.Section != "import os" {
		t.Errorf("hunk header: got %+v", h)
	}
	last := files[3].Hunks[0].Lines
	if !last[1].NoEOL || last[0].NoEOL {
		t.Errorf("NoEOL: got %v, %v; want false, true", last[0].NoEOL, last[1].NoEOL)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, patch, want string
	}{
		{"miscounted hunk", "diff --git a/ok b/ok\n--- a/ok\n+++ b/ok\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n-a\n+b\n", "parse diff of x.py (patch lines 7-"},
		{"bad line op", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\nd\n", "parse diff"},
		{"bad hunk header", "--- a/x\n+++ b/x\n@@ -1,z +1 @@\n-a\n+b\n", "parse diff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			files, err := Parse(tt.patch)
			if err == nil {
				t.Fatalf("got %d files and no error, want error", len(files))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			if files != nil {
				t.Errorf("got files %v with error", files)
			}
		})
	}
}

func TestParseEmpty(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"", "\n", "just a message\n"} {
		files, err := Parse(p)
		if err != nil || len(files) != 0 {
			t.Errorf("Parse(%q) = %v, %v; want no files, no error", p, files, err)
		}
	}
}

func TestParsePlainUnified(t *testing.T) {
	t.Parallel()
	p := "--- foo.py\t2024-01-01 10:00:00\n+++ foo.py\t2024-01-02 10:00:00\n@@ -1 +1 @@\n-a\n+b\n"
	files, err := Parse(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].OldPath != "foo.py" || files[0].NewPath != "foo.py" {
		t.Errorf("got %+v, want one file foo.py", files)
	}
}

func TestParsePrefixedUnified(t *testing.T) {
	t.Parallel()
	p := "--- a/x/y.py\n+++ b/x/y.py\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ b/n.py\n@@ -0,0 +1 @@\n+c\n"
	files, err := Parse(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].OldPath != "x/y.py" || files[0].NewPath != "x/y.py" || files[0].IsRename ||
		!files[1].IsNew || files[1].NewPath != "n.py" {
		t.Errorf("got %+v", files)
	}
}

func TestApply(t *testing.T) {
	t.Parallel()
	files, err := Parse(multiPatch)
	if err != nil {
		t.Fatal(err)
	}
	old := "import os\nx = 1\n\ndef f():\n    pass\n\n\n\n\n    a = 1\n    return a\n"
	got, err := Apply([]byte(old), files[0])
	if err != nil {
		t.Fatal(err)
	}
	want := "import os\nx = 2\ny = 3\n\ndef f():\n    pass\n\n\n\n\n    return a\n"
	if string(got) != want {
		t.Errorf("Apply modified: got %q, want %q", got, want)
	}
	// The added lines' numbers point at the added text in the result.
	lines := strings.Split(string(got), "\n")
	for _, n := range files[0].AddedLines() {
		if !strings.HasPrefix(lines[n-1], "x = 2") && !strings.HasPrefix(lines[n-1], "y = 3") {
			t.Errorf("added line %d is %q", n, lines[n-1])
		}
	}

	got, err = Apply(nil, files[1])
	if err != nil || string(got) != "print(1)\nprint(2)\n" {
		t.Errorf("Apply added: got %q, %v", got, err)
	}
	got, err = Apply([]byte("print(1)\n"), files[2])
	if err != nil || len(got) != 0 {
		t.Errorf("Apply deleted: got %q, %v", got, err)
	}
	got, err = Apply([]byte("1\n2\na\n"), files[3])
	if err != nil || string(got) != "1\n2\nb" {
		t.Errorf("Apply no-EOL: got %q, %v; want %q", got, err, "1\n2\nb")
	}

	_, err = Apply([]byte("import os\nx = 9\n\ndef f():\n"), files[0])
	if !errors.Is(err, ErrConflict) {
		t.Errorf("Apply on mismatching content: got %v, want ErrConflict", err)
	}
	if err != nil && !strings.Contains(err.Error(), "src/app.py") {
		t.Errorf("conflict error %q does not name the file", err)
	}
	if _, err := Apply(nil, File{NewPath: "x"}); err == nil {
		t.Error("Apply of a File not from Parse: got no error")
	}
}

func TestCRLF(t *testing.T) {
	t.Parallel()
	// A file with CRLF line endings: the diff lines carry the "\r".
	p := "diff --git a/w.py b/w.py\nindex 1111111..2222222 100644\n--- a/w.py\n+++ b/w.py\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"
	files, err := Parse(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := files[0].Hunks[0].Lines[1].Text; got != "b\r" {
		t.Errorf("removed text: got %q, want %q", got, "b\r")
	}
	got, err := Apply([]byte("a\r\nb\r\n"), files[0])
	if err != nil || string(got) != "a\r\nc\r\n" {
		t.Errorf("Apply CRLF: got %q, %v", got, err)
	}
	// A patch whose own line ends are CRLF (e.g. saved on Windows) still
	// lists its paths.
	crlf := strings.ReplaceAll(multiPatch, "\n", "\r\n")
	if got := ScanPaths(crlf); len(got) != 6 || got[0].Old != "src/app.py" {
		t.Errorf("ScanPaths on CRLF patch: got %+v", got)
	}
	// ... and parses as GNU patch reads it: paths and lines without the
	// CR, so its canonical rendering (what GNU patch is given) exists.
	whole := strings.ReplaceAll("diff --git a/w.py b/w.py\n--- a/w.py\n+++ b/w.py\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n", "\n", "\r\n")
	wf, err := Parse(whole)
	if err != nil {
		t.Fatal(err)
	}
	if f := wf[0]; f.OldPath != "w.py" || f.NewPath != "w.py" || f.Hunks[0].Lines[1].Text != "b" {
		t.Errorf("CRLF patch: paths %q %q, removed line %q", f.OldPath, f.NewPath, f.Hunks[0].Lines[1].Text)
	}
	if _, ok, why := Canonical(wf); !ok {
		t.Errorf("CRLF patch has no canonical rendering: %s", why)
	}
}

func TestCheckPath(t *testing.T) {
	t.Parallel()
	ok := []string{"a.py", "src/x/y.js", "...", ".github/workflows/ci.yml", "a/.gitignore"}
	bad := []string{"", "/etc/passwd", "../x", "a/../../x", "a//b", "./a", "a/", ".git/config", "x/.GIT/hooks/pre-commit", `a\b`, "a\x00b"}
	for _, p := range ok {
		if err := CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q) = %v, want nil", p, err)
		}
	}
	for _, p := range bad {
		if err := CheckPath(p); err == nil {
			t.Errorf("CheckPath(%q) = nil, want error", p)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(multiPatch)
	f.Add("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")
	f.Add("diff --git a/x b/x\nnew file mode 100644\nindex 0000000..e69de29\n")
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n+b\n")
	f.Add("diff --git a/w b/w\n--- a/w\n+++ b/w\n@@ -1 +1 @@\n-a\r\n+b\r\n\\ No newline at end of file\n")
	f.Fuzz(func(t *testing.T, patch string) {
		files, err := Parse(patch)
		paths := ScanPaths(patch) // must not panic on any input
		_ = paths
		if err != nil {
			if files != nil {
				t.Fatalf("files returned with error %v", err)
			}
			return
		}
		for _, fl := range files {
			prevOld, prevNew := 0, 0
			for _, h := range fl.Hunks {
				var nOld, nNew int
				for _, l := range h.Lines {
					switch l.Op {
					case Delete:
						nOld++
						if l.OldLine <= prevOld || l.NewLine != 0 {
							t.Fatalf("%s: removed line numbers not increasing: %+v", fl.Path(), l)
						}
						prevOld = l.OldLine
					case Add:
						nNew++
						if l.NewLine <= prevNew || l.OldLine != 0 {
							t.Fatalf("%s: added line numbers not increasing: %+v", fl.Path(), l)
						}
						prevNew = l.NewLine
					case Context:
						nOld++
						nNew++
						prevOld, prevNew = l.OldLine, l.NewLine
					}
				}
				if nOld != h.OldCount || nNew != h.NewCount {
					t.Fatalf("%s: hunk counts %d,%d disagree with lines %d,%d", fl.Path(), h.OldCount, h.NewCount, nOld, nNew)
				}
			}
			// Applying to the old side reconstructed from the hunks must not
			// panic; conflicts are fine.
			_, _ = Apply(nil, fl)
		}
	})
}
