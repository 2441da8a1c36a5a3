package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestScanPaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		patch string
		want  []Paths
	}{
		{"git kinds", multiPatch, []Paths{
			{"src/app.py", "src/app.py"},
			{DevNull, "added.py"},
			{"gone.py", DevNull},
			{"old/name.py", "new/name.py"},
			{"run.sh", "run.sh"}, // no index line: the "diff" operands
			{"logo.png", "logo.png"},
		}},
		// Hunk counts are wrong (a line is missing): strict Parse fails, the
		// header scan does not. Source: SWE-PolyBench
		// test/metrics/test_patch_metrics.py sample patches.
		{"miscounted hunks", "\ndiff --git a/src/main.py b/src/main.py\nindex 1234567..8901234 100644\n--- a/src/main.py\n+++ b/src/main.py\n@@ -10,7 +10,7 @@ def main():\n-x\n+y\n\ndiff --git a/README.md b/README.md\nindex abcdef0..1234567 100644\n--- a/README.md\n+++ b/README.md\n@@ -1,5 +1,7 @@\n # T\n", []Paths{
			{"src/main.py", "src/main.py"}, {"README.md", "README.md"},
		}},
		{"empty new file", "diff --git a/e.py b/e.py\nnew file mode 100644\nindex 0000000..e69de29\n", []Paths{{DevNull, "e.py"}}},
		{"full index new file keeps the path", "diff --git a/e.py b/e.py\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\n", []Paths{{"e.py", "e.py"}}},
		{"pure rename", "diff --git a/x.py b/y.py\nsimilarity index 100%\nrename from x.py\nrename to y.py\n", []Paths{{"x.py", "y.py"}}},
		{"directory named a", "diff --git a/a/x.py b/a/x.py\nindex 1111111..2222222 100644\n--- a/a/x.py\n+++ b/a/x.py\n@@ -1 +1 @@\n-1\n+2\n", []Paths{{"x.py", "a/x.py"}}},
		{"plain unified, one section", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-1\n+2\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-1\n+2\n", []Paths{{"x", "x"}}},
		{"plain unified with timestamps", "--- x.py\t2024-01-01\n+++ x.py\t2024-01-02\n@@ -1 +1 @@\n-1\n+2\n--- y.py\t2024-01-01\n+++ y.py\t2024-01-02\n@@ -1 +1 @@\n-1\n+2\n", []Paths{{"x.py", "x.py"}, {"y.py", "y.py"}}},
		{"binary new", "diff --git a/i.png b/i.png\nnew file mode 100644\nindex 0000000..1111111\nBinary files /dev/null and b/i.png differ\n", []Paths{{DevNull, "i.png"}}},
		{"dot elements", "diff --git a/./src//x.py b/./src//x.py\nindex 1111111..2222222 100644\n--- a/./src//x.py\n+++ b/./src//x.py\n@@ -1 +1 @@\n-1\n+2\n", []Paths{{"src/x.py", "src/x.py"}}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := ScanPaths(tt.patch)
			if d := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("ScanPaths (-want +got):\n%s", d)
			}
		})
	}
}

func TestKeys(t *testing.T) {
	t.Parallel()
	p := Paths{Old: DevNull, New: "n.py"}
	if p.CompatKey() != DevNull || p.ExtendedKey() != "n.py" {
		t.Errorf("added: got %q, %q", p.CompatKey(), p.ExtendedKey())
	}
	p = Paths{Old: "o.py", New: DevNull}
	if p.CompatKey() != "o.py" || p.ExtendedKey() != "o.py" {
		t.Errorf("deleted: got %q, %q", p.CompatKey(), p.ExtendedKey())
	}
}
