package harness

import (
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
)

// TestIsSourcePath: non-source is configuration, build scripts, runner
// plugins and configuration, test files and helpers, CI and tool files;
// the data and resources the program reads are source (kept by the clean
// room), whatever their extension.
func TestIsSourcePath(t *testing.T) {
	for p, want := range map[string]bool{
		// Program files.
		"ledgerkit/ledger.py": true, "src/index.ts": true, "src/main/java/a/B.java": true, "lib/qs.js": true, "cmd/x/main.go": true,
		// Data, resources and documents the program ships.
		"ledgerkit/data.json": true, "ledgerkit/rates.csv": true, "ledgerkit/until.dat": true, "src/main/resources/app.properties": true,
		"lib/locales/en.json": true, "README.md": true, "docs/usage.rst": true, "ledgerkit/schema.yaml": true,
		// Test files, test helpers, runner configuration and plugins.
		"conftest.py": false, "ledgerkit/conftest.py": false, "tests/helpers.py": false, "tests/data/rates.csv": false, "test_x.py": false,
		"src/test/java/a/BTest.java": false, "src/test/resources/x.json": false, "pytest.ini": false, ".mocharc.yml": false,
		"jest.config.js": false, "sitecustomize.py": false, "ledgerkit/evil.pth": false,
		"src/main/resources/META-INF/services/org.junit.platform.launcher.TestExecutionListener": false,
		"src/main/resources/junit-platform.properties":                                           false,
		// Build scripts and configuration.
		"setup.py": false, "webpack.config.js": false, ".eslintrc.js": false, "build.gradle": false, "build.gradle.kts": false,
		"pom.xml": false, "package.json": false, "pyproject.toml": false, "setup.cfg": false, "tox.ini": false, "Makefile": false,
		"build.sh": false, "scripts/run_tests.sh": false, "tsconfig.json": false, "requirements-dev.txt": false, "go.mod": false,
		"Cargo.toml": false, "build.rs": false, "phpunit.xml.dist": false, "Gemfile": false,
		// CI and tool files.
		".github/workflows/ci.yml": false, ".github/scripts/x.py": false, ".npmrc": false, "ledgerkit/.hidden.json": false,
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
