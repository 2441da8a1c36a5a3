package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/testlog"
)

// What a model patch may not change in the tests, and what polynfi does
// about it. Source: SWE-bench harness (the test files of the test patch are
// checked out again after the model patch); polynfi evaluation issue #13.
//
//   - Test files (the test patch's files; files named test_*.py, *_test.py,
//     *_test.go, *.test.js/ts/jsx/tsx, *.spec.*; files under a test, tests or
//     __tests__ directory or src/test/) and files that exist only to
//     configure a test runner (conftest.py, pytest.ini, jest.config.*,
//     .mocharc.*, mocha.opts, vitest.config.*, karma.conf.*, and
//     sitecustomize.py, usercustomize.py and *.pth, which Python runs at
//     start-up; .pytest.ini and pytest.toml; everything under .mvn/, whose
//     maven.config and jvm.config Maven reads as command-line options)
//     are reset to base + test patch after the model patch: whatever the
//     patch did to them is undone before the tests run.
//   - Files at the places where runners write JUnit XML reports
//     (testlog.JUnitReportPatterns, e.g. target/surefire-reports/TEST-*.xml)
//     are reset too: a report the patch ships there (which a test command
//     that prints the reports, or a runner that skips its tests, would
//     leave in place) is gone before the tests run.
//   - Test configuration inside files that also hold other things
//     (package.json's jest, mocha and test scripts; pyproject.toml's
//     [tool.pytest*]; setup.cfg's [tool:pytest]; tox.ini's [pytest];
//     pom.xml's surefire/failsafe and test-skipping settings; Gradle test
//     blocks) cannot be reset without losing the rest: a patch that changes
//     it is unresolved in every mode (it could skip, deselect or rewrite the
//     outcome of any test).
//   - Every such path is listed in Record.TestEdits, and in strict mode a
//     patch with any test edit is unresolved.

var testDirs = map[string]bool{"test": true, "tests": true, "__tests__": true}

var reTestName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(test_.*\.py|.*_test\.py|.*_test\.go|.*\.(test|spec)\.[cm]?[jt]sx?|.*Test\.java|.*Tests\.java|.*IT\.java)$`)
})

var runnerConfigNames = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(conftest\.py|pytest\.ini|\.pytest\.ini|pytest\.toml|jest\.config\.[cm]?[jt]s(on)?|jest\.setup\.[cm]?[jt]s|\.mocharc(\.[a-z]+)?|mocha\.opts|vitest\.config\.[cm]?[jt]s|karma\.conf\.[cm]?[jt]s|sitecustomize\.py|usercustomize\.py|.*\.pth|junit-platform\.properties|\.babelrc|babel\.config\.[cm]?[jt]s(on)?)$`)
})

// isTestFile reports whether p is a test file or a runner-only
// configuration file (reset after the model patch).
func isTestFile(p string) bool {
	base := path.Base(p)
	if reTestName().MatchString(base) || runnerConfigNames().MatchString(base) {
		return true
	}
	if strings.HasPrefix(p, "src/test/") || strings.Contains(p, "/src/test/") {
		return true
	}
	if strings.HasPrefix(p, ".mvn/") || strings.Contains(p, "/.mvn/") {
		return true
	}
	for _, el := range strings.Split(path.Dir(p), "/") {
		if testDirs[el] {
			return true
		}
	}
	return false
}

// isReportPath reports whether p is at a place where test runners write
// JUnit XML reports (testlog.JUnitReportPatterns).
func isReportPath(p string) bool {
	for _, pat := range testlog.JUnitReportPatterns() {
		if ok, _ := path.Match(pat, p); ok {
			return true
		}
	}
	return false
}

// mixedConfig names the test-configuration part of a file that also holds
// other settings, or "" when p is not such a file.
func mixedConfig(p string) string {
	switch b := path.Base(p); {
	case b == "package.json":
		return "package.json: jest, mocha, ava, c8, nyc and test scripts"
	case b == "pyproject.toml":
		return "pyproject.toml: [tool.pytest*]"
	case b == "setup.cfg":
		return "setup.cfg: [tool:pytest]"
	case b == "tox.ini":
		return "tox.ini: [pytest]"
	case b == "pom.xml":
		return "pom.xml: surefire, failsafe and test-skipping settings"
	case b == "build.gradle" || b == "build.gradle.kts":
		return "Gradle: test settings"
	}
	return ""
}

// testConfigPart extracts the test-configuration part of a mixed file's
// content, as a canonical string (two contents with equal parts configure
// the tests alike). An unreadable file gives its whole content.
func testConfigPart(p string, data []byte) string {
	switch b := path.Base(p); b {
	case "package.json":
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) != nil {
			return string(data)
		}
		part := map[string]any{}
		for _, k := range []string{"jest", "mocha", "ava", "c8", "nyc"} {
			if v, ok := m[k]; ok {
				part[k] = json.RawMessage(v)
			}
		}
		var scripts map[string]json.RawMessage
		_ = json.Unmarshal(m["scripts"], &scripts)
		for k, v := range scripts {
			if strings.Contains(k, "test") {
				part["scripts."+k] = json.RawMessage(v)
			}
		}
		out, _ := json.Marshal(part)
		return string(out)
	case "pyproject.toml":
		var m map[string]any
		if _, err := toml.Decode(string(data), &m); err != nil {
			return string(data)
		}
		tool, _ := m["tool"].(map[string]any)
		out, _ := json.Marshal(map[string]any{"pytest": tool["pytest"]})
		return string(out)
	case "setup.cfg", "tox.ini":
		want := "[tool:pytest]"
		if b == "tox.ini" {
			want = "[pytest]"
		}
		return iniSection(data, want)
	case "pom.xml":
		return grepLines(data, regexp.MustCompile(`(?i)surefire|failsafe|skipTests|maven\.test|testFailureIgnore|<include>|<exclude>|<includes>|<excludes>|testSourceDirectory|<groups>|<excludedGroups>|<test>|forkCount|<argLine>`))
	case "build.gradle", "build.gradle.kts":
		return grepLines(data, regexp.MustCompile(`(?i)test`))
	}
	return ""
}

func iniSection(data []byte, header string) string {
	var b strings.Builder
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "[") {
			in = strings.EqualFold(l, header)
		}
		if in && l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, ";") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func grepLines(data []byte, re *regexp.Regexp) string {
	var b strings.Builder
	for _, l := range strings.Split(string(data), "\n") {
		if re.MatchString(l) {
			b.WriteString(strings.TrimSpace(l) + "\n")
		}
	}
	return b.String()
}

// guardTests undoes a model patch's edits to test files in the work tree
// (see above), removes the files it creates that would shadow a test
// framework (CheckRunnerPaths), and reports them, then leaves the tree as PolyBench does:
// HEAD at base, both patches as uncommitted changes (the index reset to
// base), and the test start marker (testStartMarker) touched: a JUnit
// report counts only when newer. snap is the commit of base + test patch;
// testPatch the instance's test patch (its files are reset whatever their
// names); patchPaths the paths the model patch names (an ignored file it
// creates is not in git's lists). The changed paths are listed, the index
// reset and the marker touched in one command; the test files, when there
// are any to reset, in a second.
func guardTests(ctx context.Context, t *tree, base, snap, testPatch string, patchPaths []string) (*runrecord.TestEdits, error) {
	out, err := t.script(ctx, `{ g diff --name-only -z --no-renames --no-ext-diff --no-textconv "$1" -- && g ls-files -z --others --exclude-standard; } || exit 1
g reset --quiet --mixed "$2" && touch "$(g rev-parse --git-dir)/$3"`, snap, base, testStartMarker)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var changed []string
	for _, p := range append(strings.Split(string(out), "\x00"), patchPaths...) {
		if p != "" && p != diff.DevNull && !seen[p] && safepath.Check(p) == nil {
			seen[p] = true
			changed = append(changed, p)
		}
	}
	inTestPatch := map[string]bool{}
	if files, err := diff.Parse(testPatch); err == nil {
		for _, f := range files {
			inTestPatch[f.OldPath], inTestPatch[f.NewPath] = true, true
		}
	} else {
		for _, p := range diff.ScanPaths(testPatch) {
			inTestPatch[p.Old], inTestPatch[p.New] = true, true
		}
	}
	sort.Strings(changed)
	te := &runrecord.TestEdits{}
	var reset, shadow []string
	for _, p := range changed {
		switch {
		case inTestPatch[p] || isTestFile(p) || isReportPath(p):
			reset = append(reset, p)
		case shadowedFramework(p) != "":
			shadow = append(shadow, p)
		case mixedConfig(p) != "":
			before, _ := t.script(ctx, `g cat-file blob "$1:$2" 2>/dev/null || true`, snap, p)
			var after []byte
			if files, err := t.sb.CopyOut(ctx, p, 16<<20); err == nil && len(files) == 1 {
				after = files[0].Data
			}
			if testConfigPart(p, before) != testConfigPart(p, after) {
				te.Config = append(te.Config, mixedConfig(p)+" ("+p+")")
			}
		}
	}
	if len(shadow) > 0 {
		// A file the patch creates where a test framework would be loaded
		// from (CheckRunnerPaths) is removed with the test files; one that
		// exists at snap (the framework's own repository) stays.
		out, err := t.script(ctx, `s=$1; shift; for p in "$@"; do g cat-file -e "$s:$p" 2>/dev/null || printf '%s\0' "$p"; done`, append([]string{snap}, shadow...)...)
		if err != nil {
			return nil, err
		}
		for _, p := range strings.Split(string(out), "\x00") {
			if p != "" && seen[p] {
				reset = append(reset, p)
			}
		}
		sort.Strings(reset)
	}
	if len(reset) > 0 {
		// Only paths that pass the path check are touched, and a path
		// through a link is refused (the checkout and rm run in the
		// sandbox, where git and rm do not follow links on their own).
		lstat, err := t.lstat(ctx, reset)
		if err != nil {
			return nil, err
		}
		for _, p := range reset {
			if err := safepath.UnderFS(lstat, p, true); err != nil {
				return nil, fmt.Errorf("reset test file %s: %w", p, err)
			}
		}
		if _, err := t.script(ctx, `s=$1 b=$2; shift 2
for p in "$@"; do
  if g cat-file -e "$s:$p" 2>/dev/null; then g checkout -q --no-overlay "$s" -- ":(literal)$p" || exit 1
  else rm -f -- "$p" || exit 1; fi
done
g reset --quiet --mixed "$b"`, append([]string{snap, base}, reset...)...); err != nil {
			return nil, fmt.Errorf("reset test files: %w", err)
		}
		te.Reset = reset
	}
	if !te.Any() {
		return nil, nil
	}
	return te, nil
}

// applyTestEdits makes v unresolved where the model patch's edits to the
// tests forbid it: in every mode when it changed test configuration that
// could not be reset, in strict mode when it changed any test file or
// configuration (even those reset before the run).
func applyTestEdits(v *grading.Verdicts, te *runrecord.TestEdits) {
	if te == nil {
		return
	}
	if len(te.Config) > 0 {
		reason := "the model patch changes test configuration: " + strings.Join(te.Config, "; ")
		for _, p := range []*grading.Verdict{&v.PolyBench, &v.SWEBench, &v.Strict, v.MultiSWEBench, v.SWEBenchPro} {
			if p != nil && p.Status == grading.StatusResolved {
				p.Resolved, p.Status, p.Reason = false, grading.StatusUnresolved, reason
			}
		}
	}
	if te.Any() && v.Strict.Status == grading.StatusResolved {
		v.Strict.Resolved, v.Strict.Status = false, grading.StatusUnresolved
		v.Strict.Reason = "strict: the model patch edits tests or test configuration (" + strings.Join(append(append([]string{}, te.Reset...), te.Config...), ", ") + ")"
	}
}
