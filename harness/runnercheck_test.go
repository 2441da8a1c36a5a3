package harness

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/syntax"
)

// TestCheckRunnerInternals: each rule on a file that breaks it (the rule
// and line found), and ordinary library code that looks alike (nothing
// found).
func TestCheckRunnerInternals(t *testing.T) {
	p := syntax.NewParser()
	defer p.Close()
	cases := []struct {
		name, file, src string
		want            string // "rule@line" of each finding, space-separated
	}{
		{"pytest hook in a library", "pkg/mod.py", "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    yield\n", "pytest-hook@5"},
		{"_pytest import", "pkg/mod.py", "x = 1\nfrom _pytest.reports import TestReport\nimport _pytest.runner as r\n", "pytest-internals@2 pytest-internals@3"},
		{"plugin registered", "pkg/mod.py", "import gc\nfor o in gc.get_objects():\n    o.pluginmanager.register(P())\n", "pytest-internals@3"},
		{"sys.modules patched", "pkg/mod.py", "import sys\nsys.modules['pytest'] = fake\nsys.modules.update({'_pytest': fake})\n", "sys-modules@2 sys-modules@3 pytest-internals@3"},
		{"builtins patched", "pkg/mod.py", "import builtins\nbuiltins.print = lambda *a: None\nsetattr(builtins, 'open', o)\n__builtins__['exit'] = e\n", "builtins@2 builtins@3 builtins@4"},
		{"os._exit", "pkg/mod.py", "import os\n\ndef f():\n    os._exit(0)\n", "os-exit@4"},
		{"atexit hook printing", "pkg/mod.py", "import atexit, sys\natexit.register(lambda: sys.stdout.write('PASSED'))\n", "atexit-output@2"},
		{"ordinary python", "pkg/mod.py", "import os, sys, atexit\n\ndef pytestlike():\n    pass\n\natexit.register(cleanup)\nsys.exit(1)\nmodules = sys.modules.get('x')\n", ""},
		{"stdout.write replaced", "lib/a.js", "process.stdout.write = function (s) { return true; };\n", "stdout-replace@1"},
		{"process.exit called and replaced", "lib/a.js", "const x = 1;\nif (x) { process.exit(0); }\nprocess.exit = () => {};\n", "process-exit@2 process-exit@3"},
		{"mocha detected", "lib/a.js", "if (typeof describe === 'function') {\n  describe('x', function () { it('y', function () {}); });\n}\n", "runner-global@1 runner-global@2 runner-global@2"},
		{"jest globals in TypeScript", "src/a.ts", "declare const jest: any, process: any;\nif (process.env.JEST_WORKER_ID) { jest.fn(); }\nimport { expect } from '@jest/globals';\n", "runner-global@2 runner-global@2 runner-global@3"},
		{"mocha required", "lib/a.js", "const Mocha = require('mocha');\n", "runner-global@1"},
		{"ordinary javascript", "lib/a.js", "const test = /x/.test(s);\nfunction it2() {}\nconst describe2 = 1;\nprocess.stdout.write('hello');\nmodule.exports = { test };\n", ""},
		{"System.exit", "src/main/java/a/A.java", "package a;\nclass A {\n  void f() {\n    System.exit(0);\n    Runtime.getRuntime().halt(0);\n  }\n}\n", "system-exit@4 system-exit@5"},
		{"JUnit listener", "src/main/java/a/L.java", "package a;\nimport org.junit.platform.launcher.TestExecutionListener;\npublic class L implements TestExecutionListener {\n}\n", "junit-listener@2 junit-listener@3"},
		{"sys.meta_path hook", "pkg/mod.py", "import sys\nsys.meta_path.insert(0, Finder())\nsys.path_hooks.append(h)\nsys.meta_path = [F()]\ni = sys.meta_path.index(x)\n", "import-hook@2 import-hook@3 import-hook@4"},
		{"sys.stdout replaced", "pkg/mod.py", "import sys\nsys.stdout = Fake()\nsys.__stderr__ = Fake()\n", "stdout-replace@2 stdout-replace@3"},
		{"pytest reached by name", "pkg/mod.py", "import importlib\nm = importlib.import_module('pytest')\nr = __import__(\"_pytest.runner\")\npm = getattr(cfg, 'pluginmanager')\n", "pytest-internals@2 pytest-internals@3 pytest-internals@4"},
		{"require.cache patched", "lib/a.js", "const p = require.resolve('mocha/lib/reporters/json');\nrequire.cache[p] = { exports: Fake };\ndelete require['cache'][p];\n", "module-loader@2 module-loader@3"},
		{"Module._load and prototype.require", "lib/a.js", "const Module = require('module');\nconst orig = Module._load;\nModule.prototype.require = function (id) { return orig(id); };\nrequire('module')._resolveFilename = r;\nmodule.constructor._extensions['.js'] = c;\n", "module-loader@2 module-loader@3 module-loader@4 module-loader@5"},
		{"ordinary module code", "lib/a.js", "const path = require('path');\nmodule.exports = { load: cache._load, x: require('./x') };\nconst c = obj.cache;\n", ""},
		{"ordinary java", "src/main/java/a/A.java", "package a;\nimport java.util.List;\nclass A implements Runnable {\n  public void run() { System.out.println(\"exit\"); }\n}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, f := range CheckRunnerInternals(p, c.file, []byte(c.src), nil) {
				if f.File != c.file || f.Text == "" {
					t.Errorf("finding %+v", f)
				}
				got = append(got, f.Rule+"@"+strconv.Itoa(f.Line))
			}
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("found %q, want %q", g, c.want)
			}
		})
	}
	// Only the lines the patch adds count.
	src := "import os\n\ndef f():\n    os._exit(0)\n\ndef g():\n    os._exit(1)\n"
	if got := CheckRunnerInternals(p, "m.py", []byte(src), map[int]bool{7: true}); len(got) != 1 || got[0].Line != 7 {
		t.Errorf("added line 7 only: %+v", got)
	}
	// A file the patch adds, or gives as a binary patch, is checked whole
	// (nil); a changed file on its added lines; an unparsable patch is
	// an error (checkRunnerInternals: the finding "unparsed").
	newFile := "diff --git a/pkg/_hook.py b/pkg/_hook.py\nnew file mode 100644\n--- /dev/null\n+++ b/pkg/_hook.py\n@@ -0,0 +1,2 @@\n+import os\n+os._exit(0)\n"
	binary := "diff --git a/pkg/_b.py b/pkg/_b.py\nnew file mode 100644\nindex 0000000..e69de29\nGIT binary patch\nliteral 12\nTcmeZZ_sL4vE!OtT=K=r#6tV+M\n\nliteral 0\nHcmV?d00001\n\n"
	changed := "diff --git a/pkg/m.py b/pkg/m.py\n--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1,2 +1,3 @@\n x = 1\n+y = 2\n z = 3\n"
	paths, added, err := patchAddedLines(newFile + binary + changed)
	if err != nil || strings.Join(paths, " ") != "pkg/_b.py pkg/_hook.py pkg/m.py" {
		t.Fatalf("paths %v, err %v", paths, err)
	}
	if added["pkg/_hook.py"] != nil || added["pkg/_b.py"] != nil || len(added["pkg/m.py"]) != 1 || !added["pkg/m.py"][2] {
		t.Errorf("added lines: %v", added)
	}
	if _, _, err := patchAddedLines("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,5 +1,1 @@\n-a\n"); err == nil {
		t.Errorf("a malformed patch parsed")
	}
	// Path rules.
	created := map[string]bool{"src/main/java/org/junit/Assert.java": true, "src/test/java/org/junit/jupiter/api/Assertions.java": true,
		"pytest.py": true, "src/_pytest/__init__.py": true, "src/_pytest/python_api.py": true, "sitecustomize.py": true, "lib/node_modules/expect/index.js": true, "node_modules/jest/x.js": true,
		"src/main/java/org/junitx/A.java": true, "pkg/my_pytest.py": true, "docs/org/junit/notes.md": true}
	got := CheckRunnerPaths([]string{"conftest.py", "tests/conftest.py", "pkg/sub/conftest.py", "src/main/resources/META-INF/services/org.junit.platform.launcher.TestExecutionListener", "README.md",
		"src/main/java/org/junit/Assert.java", "src/test/java/org/junit/jupiter/api/Assertions.java", "pytest.py", "src/_pytest/python_api.py",
		"src/_pytest/__init__.py", "sitecustomize.py", "lib/node_modules/expect/index.js", "node_modules/jest/x.js", "src/main/java/org/junitx/A.java", "pkg/my_pytest.py", "docs/org/junit/notes.md",
		"src/main/java/org/junit/Test.java", "src/_pytest/main.py"}, func(p string) bool { return created[p] })
	var rules []string
	for _, f := range got {
		rules = append(rules, f.File+":"+f.Rule)
	}
	// the last two exist already (changed, not created): the framework's own repository
	if g := strings.Join(rules, " "); g != "conftest.py:conftest pkg/sub/conftest.py:conftest src/main/resources/META-INF/services/org.junit.platform.launcher.TestExecutionListener:junit-listener"+
		" src/main/java/org/junit/Assert.java:framework-shadow src/test/java/org/junit/jupiter/api/Assertions.java:framework-shadow pytest.py:framework-shadow"+
		" src/_pytest/__init__.py:framework-shadow sitecustomize.py:framework-shadow lib/node_modules/expect/index.js:framework-shadow node_modules/jest/x.js:framework-shadow" {
		t.Errorf("path rules: %s", g)
	}
}

// TestCheckRunnerInternalsUnparsable: a changed file that nests too deep
// for syntax's parse budget cannot be checked, and says so in a finding
// (it could hide any other finding); strict mode then does not resolve.
func TestCheckRunnerInternalsUnparsable(t *testing.T) {
	p := syntax.NewParser()
	defer p.Close()
	p.SetBudget(200*time.Millisecond, time.Microsecond)
	src := "line one\nlet x: " + strings.Repeat("Array<", 20000) + "number" + strings.Repeat(">", 20000) + ";\n"
	fs := CheckRunnerInternals(p, "src/test/java/T.java", []byte(src), nil)
	if len(fs) != 1 || fs[0].Rule != "unchecked" || fs[0].Line != 2 || fs[0].File != "src/test/java/T.java" {
		t.Fatalf("findings %v", fs)
	}
}
