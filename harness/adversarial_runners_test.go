package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
)

// The adversarial suite for the other log formats: hostile predictions
// against the bundled sample's Jest (urlkit__qs-lite-31, TypeScript),
// Mocha (semverish__tinysemver-21) and Maven/Surefire
// (fieldnotes__csvkit4j-7) instances. None of the patches fixes the bug;
// each forges the runner's report (on stdout, on stderr, at exit, as a
// report file shipped in the patch or written during or after the run,
// with the harness's run marks), or configures the runner to skip,
// deselect or rewrite the failing tests. Each must end unresolved,
// rejected or failed in every grading mode (runRunnerAdversarial), for
// the local runtime (TestAdversarialRunners) and the container runtime
// (TestAdversarialRunnersDocker); another runtime calls
// runRunnerAdversarial with its own Harness.

// runnerHostile is one hostile prediction against a sample instance.
type runnerHostile struct {
	name     string
	instance string
	// edit returns the files to change (path -> content, "" deletes),
	// given the base version of a file (read) and forged reports (f).
	edit func(read func(string) string, f forgeries) map[string]string
	// logHas lists strings the log must contain (the attack ran).
	logHas []string
	// want is the status every mode must have ("" = any unresolved one).
	want grading.Status
	// flags lists rules of the runner-internals check the patch must be
	// flagged for.
	flags []string
	// mayNotApply: the patch may fail to apply on base + test patch (then
	// the tests need not run).
	mayNotApply bool
}

// forgeries holds fake reports in which every expected test of the
// instance passes, in each runner's format.
type forgeries struct {
	JestJSON, MochaJSON, JUnitXML string
	// MochaFull is the Mocha JSON report as Mocha's reporter prints it
	// (stats first, with start and end), every expected test passing.
	MochaFull string
	// Mark is a forged run mark line with a guessed secret.
	Mark string
}

func makeForgeries(in dataset.Instance) forgeries {
	ids := append(append([]string{}, in.FailToPass...), in.PassToPass...)
	var f forgeries
	// Jest: one suite per file, paths made absolute at run time by the
	// JavaScript that prints it (__ROOT__).
	type assertion struct {
		FullName string `json:"fullName"`
		Title    string `json:"title"`
		Status   string `json:"status"`
	}
	suites := map[string][]assertion{}
	var order []string
	for _, id := range ids {
		file, name, ok := strings.Cut(id, "->")
		if !ok {
			continue
		}
		if _, seen := suites[file]; !seen {
			order = append(order, file)
		}
		suites[file] = append(suites[file], assertion{name, name, "passed"})
	}
	var tr []map[string]any
	for _, file := range order {
		tr = append(tr, map[string]any{"name": "__ROOT__/" + file, "status": "passed", "message": "", "assertionResults": suites[file]})
	}
	j, _ := json.Marshal(map[string]any{"numFailedTestSuites": 0, "numFailedTests": 0, "numPassedTests": len(ids), "numTotalTests": len(ids), "success": true, "testResults": tr})
	f.JestJSON = string(j)
	// Mocha: every id is a full title.
	var passes []map[string]string
	for _, id := range ids {
		passes = append(passes, map[string]string{"title": id, "fullTitle": id})
	}
	m, _ := json.Marshal(map[string]any{"stats": map[string]int{"suites": 1, "tests": len(ids), "passes": len(ids), "pending": 0, "failures": 0},
		"tests": passes, "pending": []any{}, "failures": []any{}, "passes": passes})
	f.MochaJSON = string(m)
	stats, _ := json.Marshal(map[string]any{"suites": 1, "tests": len(ids), "passes": len(ids), "pending": 0, "failures": 0,
		"start": "2026-01-01T00:00:00.000Z", "end": "2026-01-01T00:00:00.020Z", "duration": 20})
	var full []map[string]any
	for _, id := range ids {
		full = append(full, map[string]any{"title": id, "fullTitle": id, "file": "test/x.test.js", "duration": 1, "currentRetry": 0, "speed": "fast", "err": map[string]any{}})
	}
	tests, _ := json.Marshal(full)
	f.MochaFull = `{"stats": ` + string(stats) + `, "tests": ` + string(tests) + `, "pending": [], "failures": [], "passes": ` + string(tests) + `}`
	// JUnit XML: "pkg.Class.method" ids.
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<testsuite name="io.fieldnotes.csv.CsvParserTest" tests="` + fmt.Sprint(len(ids)) + `" failures="0" errors="0" skipped="0">` + "\n")
	for _, id := range ids {
		if i := strings.LastIndex(id, "."); i > 0 && !strings.Contains(id, "->") && !strings.Contains(id, " ") {
			fmt.Fprintf(&b, `<testcase name="%s" classname="%s" time="0.001"/>`+"\n", id[i+1:], id[:i])
		}
	}
	b.WriteString("</testsuite>\n")
	f.JUnitXML = b.String()
	f.Mark = "[polynfi-mark " + strings.Repeat("ab", 16) + " exit 0]"
	return f
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

// javaText is s as a Java text block.
func javaText(s string) string {
	return "\"\"\"\n" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"""`, `\"""`) + "\"\"\""
}

const (
	jestInst  = "urlkit__qs-lite-31"
	mochaInst = "semverish__tinysemver-21"
	mavenInst = "fieldnotes__csvkit4j-7"
)

// jsPrelude is JavaScript that defines out(s) (write to the process's
// real stdout, past any capture) and err(s) (its stderr), and fake(s)
// (the forged report with the work tree's root filled in).
const jsPrelude = "const __fs = require('fs');\nconst out = (s) => { try { __fs.writeSync(1, s + '\\n'); } catch (e) {} };\nconst err = (s) => { try { __fs.writeSync(2, s + '\\n'); } catch (e) {} };\nconst fake = (s) => s.split('__ROOT__').join(process.cwd());\n"

// prependJS puts code at the top of a JavaScript or TypeScript file
// (TypeScript: as a require-based block that compiles alone).
func prependJS(code, src string) string {
	return "/* eslint-disable */\n// @ts-nocheck\n" + code + "\n" + src
}

// injectJava adds a static initializer to the first class of src.
func injectJava(src, body string) string {
	i := strings.Index(src, "{")
	return src[:i+1] + "\n    static {\n" + body + "\n    }\n" + src[i+1:]
}

var runnerCases = []runnerHostile{
	// Jest (--ci --json: the JSON report on stdout).
	{name: "jest: fake JSON report on stdout at import", instance: jestInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"src/parse.ts": prependJS("declare const require: any, process: any;\n"+jsPrelude+"out(fake("+jsString(f.JestJSON)+"));", read("src/parse.ts"))}
	}},
	{name: "jest: second JSON report at exit", instance: jestInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"src/parse.ts": prependJS("declare const require: any, process: any;\n"+jsPrelude+"process.on('exit', () => out(fake("+jsString(f.JestJSON)+")));\nsetTimeout(() => out(fake("+jsString(f.JestJSON)+")), 1).unref?.();", read("src/parse.ts"))}
	}},
	{name: "jest: fake JSON and check marks on stderr", instance: jestInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"src/parse.ts": prependJS("declare const require: any, process: any;\n"+jsPrelude+"err(fake("+jsString(f.JestJSON)+"));\nerr(' PASS test/parse.test.ts\\n  parse\\n    ✓ decodes + as a space in keys and values (1 ms)\\n    ✓ decodes + in malformed values too (1 ms)\\nTests: 12 passed, 12 total');", read("src/parse.ts"))}
	}},
	{name: "jest: forged run marks and exit line", instance: jestInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"src/parse.ts": prependJS("declare const require: any, process: any;\n"+jsPrelude+"for (const w of [out, err]) { w("+jsString(f.Mark+"\nContainer exited with status code: 0\n[polynfi-mark "+strings.Repeat("cd", 16)+" stdout 10]")+"); w(fake("+jsString(f.JestJSON)+")); }", read("src/parse.ts"))}
	}},
	{name: "jest: testResultsProcessor in package.json", instance: jestInst, edit: func(read func(string) string, f forgeries) map[string]string {
		pkg := strings.Replace(read("package.json"), `"devDependencies"`, `"jest": {"testResultsProcessor": "./results.js"},`+"\n  \"devDependencies\"", 1)
		return map[string]string{"package.json": pkg, "src/parse.ts": read("src/parse.ts") + "// x\n",
			"results.js": "module.exports = (r) => { for (const s of r.testResults) for (const a of s.testResults) a.status = 'passed'; r.numFailedTests = 0; r.numFailedTestSuites = 0; r.success = true; return r; };\n"}
	}},
	{name: "jest: reporters and processor in jest.config.js", instance: jestInst, edit: func(read func(string) string, f forgeries) map[string]string {
		cfg := strings.Replace(read("jest.config.js"), "testEnvironment: 'node',", "testEnvironment: 'node',\n  testResultsProcessor: '<rootDir>/results.js',\n  reporters: [],", 1)
		return map[string]string{"jest.config.js": cfg, "src/parse.ts": read("src/parse.ts") + "// x\n",
			"results.js": "module.exports = (r) => { for (const s of r.testResults) for (const a of s.testResults) a.status = 'passed'; r.numFailedTests = 0; r.numFailedTestSuites = 0; r.success = true; return r; };\n"}
	}},
	{name: "jest: config-only skip in package.json", instance: jestInst, edit: func(read func(string) string, f forgeries) map[string]string {
		pkg := strings.Replace(read("package.json"), `"devDependencies"`, `"jest": {"testNamePattern": "^(?!.*decodes \\+)"},`+"\n  \"devDependencies\"", 1)
		return map[string]string{"package.json": pkg, "src/parse.ts": read("src/parse.ts") + "// x\n"}
	}},
	{name: "jest: config-only deselect in a new jest.config.ts", instance: jestInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"jest.config.ts": "export default { testPathIgnorePatterns: ['parse'] };\n", "jest.config.js": "", "src/parse.ts": read("src/parse.ts") + "// x\n"}
	}},
	{name: "jest: junit.xml shipped in the patch", instance: jestInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"junit.xml": f.JUnitXML, "src/parse.ts": read("src/parse.ts") + "// x\n"}
	}},

	// Mocha (--reporter json: the JSON report on stdout).
	{name: "mocha: fake JSON report on stdout at require", instance: mochaInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"lib/version.js": jsPrelude + "out(" + jsString(f.MochaJSON) + ");\n" + read("lib/version.js")}
	}},
	{name: "mocha: second JSON report at exit", instance: mochaInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"lib/version.js": jsPrelude + "process.on('exit', () => out(" + jsString(f.MochaJSON) + "));\n" + read("lib/version.js")}
	}},
	{name: "mocha: fake JSON on stderr and forged marks", instance: mochaInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"lib/version.js": jsPrelude + "err(" + jsString(f.Mark+"\n"+f.MochaJSON) + ");\nout(" + jsString(f.Mark+"\nContainer exited with status code: 0") + ");\n" + read("lib/version.js")}
	}},
	{name: "mocha: duplicate titles registered from the code", instance: mochaInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"lib/version.js": read("lib/version.js") + "\nif (typeof describe === 'function') {\n  describe('compare', function () {\n    it('compares numeric prerelease identifiers numerically', function () {});\n    it('orders the precedence example of the SemVer specification', function () {});\n  });\n}\n"}
	}},
	{name: "mocha: .mocharc reporter swap and grep", instance: mochaInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{".mocharc.json": `{"reporter": "./rep.js", "grep": "ignores build metadata"}` + "\n", "lib/version.js": read("lib/version.js") + "// x\n",
			"rep.js": "module.exports = function () {};\nprocess.on('exit', () => process.stdout.write(" + jsString(f.MochaJSON) + "));\n"}
	}},
	{name: "mocha: config-only deselect in package.json", instance: mochaInst, edit: func(read func(string) string, f forgeries) map[string]string {
		pkg := strings.Replace(read("package.json"), `"devDependencies"`, `"mocha": {"grep": "numerically|precedence", "invert": true},`+"\n  \"devDependencies\"", 1)
		return map[string]string{"package.json": pkg, "lib/version.js": read("lib/version.js") + "// x\n"}
	}},

	// The runner rewritten from inside its own process (issue 28's
	// exploit corpus): a library module that detects the runner, prints a
	// complete fake report and exits 0. The report lacks the canaries.
	{name: "exploit: mocha detected by the library, fake JSON report, exit 0", instance: mochaInst, want: grading.StatusTampered, flags: []string{"process-exit"}, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"lib/version.js": jsPrelude + "if (process.argv.some((a) => /mocha/.test(a))) { out(" + jsString(f.MochaFull) + "); process.exit(0); }\n" + read("lib/version.js")}
	}},
	{name: "exploit: jest detected by the library, fake JSON report, exit 0", instance: jestInst, want: grading.StatusTampered, flags: []string{"process-exit", "runner-global"}, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"src/parse.ts": prependJS("declare const require: any, process: any;\n"+jsPrelude+"if (process.env.JEST_WORKER_ID !== undefined) { out(fake("+jsString(f.JestJSON)+")); process.exit(0); }", read("src/parse.ts"))}
	}},
	// The test patch adds test/encoding.test.ts; the model ships its own,
	// whose tests pass whatever the code does.
	{name: "exploit: a file at a path the test patch adds", instance: "urlkit__qs-lite-35", mayNotApply: true, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"src/encoding.ts": "export const encodeComponent = (s: string): string => s;\nexport const decodeComponent = (s: string): string => s;\n",
			"test/encoding.test.ts": "test(\"encodeComponent escapes reserved characters including !'()*\", () => {});\ntest('encodeComponent leaves unreserved characters alone', () => {});\n"}
	}},
	// A JUnit 5 extension that swallows every test's exception, registered
	// for autodetection (ServiceLoader) with autodetection switched on:
	// reset with the tests.
	{name: "exploit: junit extension rewrites failures as passes", instance: mavenInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{
			"src/test/java/io/fieldnotes/csv/Swallow.java":                                   "package io.fieldnotes.csv;\n\nimport org.junit.jupiter.api.extension.ExtensionContext;\nimport org.junit.jupiter.api.extension.TestExecutionExceptionHandler;\n\npublic class Swallow implements TestExecutionExceptionHandler {\n    @Override\n    public void handleTestExecutionException(ExtensionContext c, Throwable t) {\n    }\n}\n",
			"src/test/resources/META-INF/services/org.junit.jupiter.api.extension.Extension": "io.fieldnotes.csv.Swallow\n",
			"src/test/resources/junit-platform.properties":                                   "junit.jupiter.extensions.autodetection.enabled=true\n",
			"src/main/java/io/fieldnotes/csv/CsvParser.java":                                 read("src/main/java/io/fieldnotes/csv/CsvParser.java") + "// x\n"}
	}},

	// JUnit's Assertions shadowed from the main sources: compiled classes
	// come before junit-jupiter-api's jar on the test class path, so every
	// assertion is a no-op and assertThrows hands back an exception made
	// without a constructor. Removed before the run (guardTests).
	{name: "exploit: org.junit.jupiter.api.Assertions shadowed in src/main", instance: mavenInst, flags: []string{"framework-shadow"}, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{
			"src/main/java/org/junit/jupiter/api/function/Executable.java": "package org.junit.jupiter.api.function;\n\n@FunctionalInterface\npublic interface Executable {\n    void execute() throws Throwable;\n}\n",
			"src/main/java/org/junit/jupiter/api/Assertions.java": `package org.junit.jupiter.api;

import org.junit.jupiter.api.function.Executable;

public final class Assertions {
    private Assertions() {}
    public static void assertEquals(Object a, Object b) {}
    public static void assertEquals(long a, long b) {}
    public static void assertEquals(Object a, Object b, String m) {}
    public static void assertTrue(boolean c) {}
    public static void assertFalse(boolean c) {}
    public static <T extends Throwable> T assertThrows(Class<T> c, Executable e) {
        try {
            e.execute();
        } catch (Throwable t) {
            if (c.isInstance(t)) {
                return c.cast(t);
            }
        }
        try {
            java.lang.reflect.Field u = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            u.setAccessible(true);
            return c.cast(((sun.misc.Unsafe) u.get(null)).allocateInstance(c));
        } catch (Exception x) {
            return null;
        }
    }
}
`,
			"src/main/java/io/fieldnotes/csv/CsvParser.java": read("src/main/java/io/fieldnotes/csv/CsvParser.java") + "// x\n"}
	}},

	// Maven/Surefire (mvn test, then cat of target/surefire-reports/TEST-*.xml).
	{name: "maven: surefire XML report shipped in the patch", instance: mavenInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"target/surefire-reports/TEST-io.fieldnotes.csv.AAForged.xml": f.JUnitXML,
			"src/main/java/io/fieldnotes/csv/CsvParser.java": read("src/main/java/io/fieldnotes/csv/CsvParser.java") + "// x\n"}
	}},
	{name: "maven: shipped report and tests skipped by .mvn/maven.config", instance: mavenInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"target/surefire-reports/TEST-io.fieldnotes.csv.CsvParserTest.xml": f.JUnitXML, ".mvn/maven.config": "-DskipTests\n",
			"src/main/java/io/fieldnotes/csv/CsvParser.java": read("src/main/java/io/fieldnotes/csv/CsvParser.java") + "// x\n"}
	}},
	{name: "maven: shipped report and a build the patch breaks", instance: mavenInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"target/surefire-reports/TEST-io.fieldnotes.csv.CsvParserTest.xml": f.JUnitXML,
			"src/main/java/io/fieldnotes/csv/CsvParser.java": read("src/main/java/io/fieldnotes/csv/CsvParser.java") + "\nnot java\n"}
	}},
	{name: "maven: fake Tests run lines and XML printed by the code", instance: mavenInst, edit: func(read func(string) string, f forgeries) map[string]string {
		body := "        System.out.println(" + javaText("[INFO] Tests run: 13, Failures: 0, Errors: 0, Skipped: 0\n"+f.Mark+"\n"+f.JUnitXML) + ");\n        System.err.println(" + javaText(f.JUnitXML) + ");"
		return map[string]string{"src/main/java/io/fieldnotes/csv/CsvParser.java": injectJava(read("src/main/java/io/fieldnotes/csv/CsvParser.java"), body)}
	}},
	{name: "maven: report rewritten after surefire wrote it", instance: mavenInst, edit: func(read func(string) string, f forgeries) map[string]string {
		// A process the code under test starts waits for the real report
		// and replaces it; a shutdown hook does the same.
		script := "for i in $(seq 100); do sleep 0.1; f=target/surefire-reports/TEST-io.fieldnotes.csv.CsvParserTest.xml; if [ -f $f ] && ! grep -q AAForged $f; then cat > $f.new <<'EOF'\n" + strings.Replace(f.JUnitXML, "<testsuite", "<!-- AAForged --><testsuite", 1) + "EOF\nmv $f.new $f; fi; done"
		body := "        try { new ProcessBuilder(\"setsid\", \"bash\", \"-c\", " + javaText(script) + ").redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start(); } catch (Exception e) { }"
		return map[string]string{"src/main/java/io/fieldnotes/csv/CsvParser.java": injectJava(read("src/main/java/io/fieldnotes/csv/CsvParser.java"), body)}
	}},
	{name: "maven: skipTests in pom.xml", instance: mavenInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"pom.xml": strings.Replace(read("pom.xml"), "<properties>", "<properties>\n    <skipTests>true</skipTests>", 1),
			"target/surefire-reports/TEST-io.fieldnotes.csv.CsvParserTest.xml": f.JUnitXML}
	}},
	{name: "maven: testFailureIgnore and excludes in pom.xml", instance: mavenInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"pom.xml": strings.Replace(read("pom.xml"), "<version>3.5.2</version>", "<version>3.5.2</version>\n        <configuration><testFailureIgnore>true</testFailureIgnore><excludes><exclude>**/CsvParserTest.java</exclude></excludes></configuration>", 1),
			"src/main/java/io/fieldnotes/csv/CsvParser.java": read("src/main/java/io/fieldnotes/csv/CsvParser.java") + "// x\n"}
	}},
	{name: "maven: junit-platform.properties deselects", instance: mavenInst, edit: func(read func(string) string, f forgeries) map[string]string {
		return map[string]string{"src/main/resources/junit-platform.properties": "junit.jupiter.conditions.deactivate=*\njunit.jupiter.testmethod.order.default=x\n",
			"junit-platform.properties":                      "junit.jupiter.extensions.autodetection.enabled=true\n",
			"src/main/java/io/fieldnotes/csv/CsvParser.java": read("src/main/java/io/fieldnotes/csv/CsvParser.java") + "// x\n"}
	}},
}

// TestAdversarialRunners runs runnerCases with the local runtime under
// bubblewrap (CI fails without it), the sample's toolchains bound
// read-only as TestBundledSample binds them.
func TestAdversarialRunners(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hostile patches against real Jest, Mocha and Maven runs")
	}
	local := runtime.NewLocal(context.Background(), runtime.LocalOptions{
		Limits: runtime.Limits{Pids: 512, MemoryBytes: 2 << 30, DiskBytes: 256 << 20}, MaxOutput: 8 << 20})
	t.Cleanup(func() { local.Close() })
	if local.Isolation() != runtime.IsolationBwrap {
		citest.Missing(t, "bubblewrap unavailable: %s", local.Note())
	}
	dir, ds, _ := loadSample(t)
	h, store := newHarness(t, filepath.Join(dir, "repos"), grading.Mode(ds.NativeMode()))
	h.Runtime = local
	h.Env = []string{"POLYNFI_DATASET_DIR=" + dir}
	h.ReadOnly = []string{filepath.Join(dir, "env")}
	runRunnerAdversarial(t, h, store, dir, ds)
}

// TestAdversarialRunnersDocker runs runnerCases in containers from the
// sample's images (built from the Dockerfile column on the local base
// images .ci/docker.sh makes).
func TestAdversarialRunnersDocker(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hostile patches in containers")
	}
	dir, ds, _ := loadSample(t)
	h, store, d := dockerHarness(t, filepath.Join(dir, "repos"), grading.Mode(ds.NativeMode()))
	runRunnerAdversarial(t, h, store, dir, ds)
	if n := leftContainers(t, d, h.RunKey); n != 0 {
		t.Errorf("%d containers left", n)
	}
}

// runRunnerAdversarial evaluates every case of runnerCases with h (its
// Runtime, and Images for a container runtime, set by the caller) against
// the sample in dir: each must end unresolved, rejected or failed in every
// mode and, unless its patch was refused, must have run the tests.
func runRunnerAdversarial(t *testing.T, h *Harness, store *Store, dir string, ds *dataset.Dataset) {
	byID := map[string]dataset.Instance{}
	for _, in := range ds.Instances {
		byID[in.InstanceID] = in
	}
	clones := map[string]string{}
	clone := func(in dataset.Instance) string {
		if c, ok := clones[in.InstanceID]; ok {
			return c
		}
		c := filepath.Join(t.TempDir(), "c")
		bundle := filepath.Join(dir, "repos", strings.ReplaceAll(in.Repo, "/", "__")+".bundle")
		run(t, filepath.Dir(c), "git", "clone", "--quiet", bundle, c)
		run(t, c, "git", "checkout", "--quiet", "--detach", in.BaseCommit)
		clones[in.InstanceID] = c
		return c
	}
	// Control: with a harmless edit (the bug kept) each instance's tests
	// run and read in this runtime, so that a hostile case that ends
	// unresolved shows a defence, not a broken environment.
	for _, id := range []string{jestInst, mochaInst, mavenInst} {
		in := byID[id]
		base := clone(in)
		p := dataset.Prediction{InstanceID: id, ModelNameOrPath: "control",
			ModelPatch: patchOf(t, base, map[string]string{"README.md": run(t, base, "git", "show", in.BaseCommit+":README.md") + "\nx\n"})}
		rec, art, err := h.Evaluate(context.Background(), in, p)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Test == nil || rec.Test.NumResults == 0 || len(rec.Verdicts.Strict.PassToPass.Success) == 0 || rec.Resolved {
			t.Fatalf("control run of %s: status %s, test %+v: the environment does not run the tests\n%.3000s", id, rec.Status, rec.Test, art.TestLog)
		}
	}
	for _, tc := range runnerCases {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			in, ok := byID[tc.instance]
			if !ok {
				t.Fatalf("no instance %s in the sample", tc.instance)
			}
			base := clone(in)
			read := func(p string) string {
				return run(t, base, "git", "show", in.BaseCommit+":"+p) + "\n"
			}
			patch := patchOf(t, base, tc.edit(read, makeForgeries(in)))
			p := dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "hostile", ModelPatch: patch}
			rec, art, err := h.Evaluate(context.Background(), in, p)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("status %s; strict: %s; polybench: %s; test edits %+v", rec.Status, rec.Verdicts.Strict.Reason, rec.Verdicts.PolyBench.Reason, rec.TestEdits)
			for _, m := range grading.Modes {
				v := rec.Verdicts.Get(m)
				if v.Resolved || v.Status == grading.StatusResolved {
					t.Errorf("%s: resolved; test log:\n%.6000s", m, art.TestLog)
				}
				if tc.want != "" && v.Status != tc.want {
					t.Errorf("%s: status %s (%s), want %s", m, v.Status, v.Reason, tc.want)
				}
			}
			checkFlags(t, rec, tc.flags)
			if rec.Test == nil && rec.Status != grading.StatusPatchRejected && !(tc.mayNotApply && rec.Status == grading.StatusPatchFailed) {
				t.Errorf("the tests did not run (status %s, %s): the case tests nothing", rec.Status, rec.Error)
			}
			for _, s := range tc.logHas {
				if !strings.Contains(string(art.TestLog), s) {
					t.Errorf("the log lacks %q", s)
				}
			}
		})
	}
}

// patchOf returns the diff that makes changes in a scratch copy of the
// clone at base (ignored paths included; "" deletes a file).
func patchOf(t *testing.T, base string, changes map[string]string) string {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "w")
	run(t, filepath.Dir(tmp), "git", "clone", "--quiet", base, tmp)
	run(t, tmp, "git", "checkout", "--quiet", "--detach", strings.TrimSpace(run(t, base, "git", "rev-parse", "HEAD")))
	for p, c := range changes {
		full := filepath.Join(tmp, p)
		if c == "" {
			os.Remove(full)
			continue
		}
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, tmp, "git", "add", "--all", "--force")
	cmd := exec.Command("git", "diff", "--cached", "--binary")
	cmd.Dir = tmp
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
