package harness

import (
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
)

func TestIsSourcePath(t *testing.T) {
	for p, want := range map[string]bool{
		"ledgerkit/ledger.py": true, "src/index.ts": true, "src/main/java/a/B.java": true, "lib/qs.js": true,
		"conftest.py": false, "tests/helpers.py": false, "test_x.py": false, "src/test/java/a/BTest.java": false,
		"setup.py": false, "jest.config.js": false, "webpack.config.js": false, ".eslintrc.js": false, "build.gradle": false,
		"pom.xml": false, "package.json": false, "pyproject.toml": false, "Makefile": false, "build.sh": false,
		"README.md": false, "ledgerkit/data.json": false, ".github/scripts/x.py": false, "ledgerkit/until.dat": false,
	} {
		if got := IsSourcePath(p); got != want {
			t.Errorf("IsSourcePath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestSourceOnly(t *testing.T) {
	patch := `diff --git a/pkg/a.py b/pkg/a.py
--- a/pkg/a.py
+++ b/pkg/a.py
@@ -1 +1 @@
-x = 1
+x = 2
diff --git a/conftest.py b/conftest.py
new file mode 100644
--- /dev/null
+++ b/conftest.py
@@ -0,0 +1 @@
+import sys
diff --git a/setup.cfg b/setup.cfg
--- a/setup.cfg
+++ b/setup.cfg
@@ -1 +1 @@
-[metadata]
+[tool:pytest]
`
	q, dropped, ok, why := SourceOnly(dataset.Prediction{ModelPatch: patch})
	if !ok || strings.Join(dropped, ",") != "conftest.py,setup.cfg" {
		t.Fatalf("ok %v (%s), dropped %v", ok, why, dropped)
	}
	if !strings.Contains(q.ModelPatch, "+x = 2") || strings.Contains(q.ModelPatch, "conftest") || strings.Contains(q.ModelPatch, "setup.cfg") {
		t.Errorf("source-only patch:\n%s", q.ModelPatch)
	}
	q, dropped, ok, _ = SourceOnly(dataset.Prediction{Files: map[string]string{"pkg/a.py": "x = 2\n", "pytest.ini": "[pytest]\n"}})
	if !ok || len(dropped) != 1 || dropped[0] != "pytest.ini" || len(q.Files) != 1 {
		t.Errorf("files: %v %v", dropped, q.Files)
	}
}
