package harness

import (
	"context"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/testlog"
)

// TestCheckCanaries: the canary rules on readings of a run.
func TestCheckCanaries(t *testing.T) {
	cs := []runrecord.Canary{{Name: "caaa", File: "tests/test_x.py"}, {Name: "cbbb", File: "tests/test_x.py", Fail: true}, {Name: "cccc", File: "tests/test_y.py"}}
	r := func(id string, s testlog.Status) testlog.Result { return testlog.Result{ID: id, Status: s} }
	other := r("tests/test_x.py::test_real", testlog.Passed)
	honest := []testlog.Result{other, r("tests/test_x.py::Tz::test_caaa", testlog.Passed), r("tests/test_x.py::Tz::test_cbbb", testlog.Failed), r("tests/test_y.py::Tw::test_cccc", testlog.Passed)}
	cases := []struct {
		name    string
		results []testlog.Result
		problem string // "" = not tampered; else a substring of the reason
		failed  bool
	}{
		{"honest", honest, "", true},
		{"must-fail passes", []testlog.Result{other, honest[1], r("tests/test_x.py::Tz::test_cbbb", testlog.Passed), honest[3]}, "cbbb in tests/test_x.py must fail and is reported PASSED", false},
		{"must-pass fails", []testlog.Result{other, r("tests/test_x.py::Tz::test_caaa", testlog.Failed), honest[2], honest[3]}, "caaa in tests/test_x.py must pass and is reported FAILED", true},
		{"must-pass skipped", []testlog.Result{other, r("tests/test_x.py::Tz::test_caaa", testlog.Skipped), honest[2], honest[3]}, "must pass and is reported SKIPPED", true},
		{"a file not run", honest[:3], "cccc (must pass) in tests/test_y.py is missing", true},
		{"forged report without canaries", []testlog.Result{other}, "is missing from the report", false},
		{"a file that did not load", append(honest[:3:3], r("tests/test_y.py", testlog.Error)), "", true},
		{"nothing but canaries", honest[1:], "", true},
		{"no result at all", nil, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := checkCanaries(cs, c.results)
			if c.problem == "" && o.problem != "" || c.problem != "" && !strings.Contains(o.problem, c.problem) {
				t.Errorf("problem %q, want %q", o.problem, c.problem)
			}
			if o.failed != c.failed {
				t.Errorf("failed %v, want %v", o.failed, c.failed)
			}
			for _, x := range o.rest {
				for _, cn := range cs {
					if strings.Contains(x.ID, cn.Name) {
						t.Errorf("canary result %s left in the graded results", x.ID)
					}
				}
			}
		})
	}
	if o := checkCanaries(nil, honest); len(o.rest) != len(honest) || o.problem != "" {
		t.Errorf("no canaries: %+v", o)
	}
}

// TestCanaryHosts: the host files are the test patch's test files that
// FAIL_TO_PASS names, in the instance's language.
func TestCanaryHosts(t *testing.T) {
	tp := func(paths ...string) string {
		var b strings.Builder
		for _, p := range paths {
			b.WriteString("diff --git a/" + p + " b/" + p + "\n--- a/" + p + "\n+++ b/" + p + "\n@@ -1 +1 @@\n-x\n+y\n")
		}
		return b.String()
	}
	cases := []struct {
		lang  string
		paths []string
		f2p   []string
		want  string
	}{
		{dataset.Python, []string{"tests/test_a.py", "tests/test_b.py", "tests/conftest.py", "tests/data.json"}, []string{"tests/test_b.py::test_x"}, "tests/test_b.py"},
		{dataset.Python, []string{"tests/test_a.py", "tests/helpers.py"}, []string{"test_x (tests.test_a.T)"}, "tests/test_a.py"},
		{dataset.TypeScript, []string{"test/parse.test.ts", "test/fixtures/a.json"}, []string{"test/parse.test.ts->parse x"}, "test/parse.test.ts"},
		{dataset.JavaScript, []string{"test/a.js", "test/b.js"}, []string{"a title"}, "test/a.js test/b.js"},
		{dataset.Java, []string{"src/test/java/io/x/ParserTest.java", "src/test/java/io/x/Util.java"}, []string{"io.x.ParserTest.parses"}, "src/test/java/io/x/ParserTest.java"},
		{dataset.Go, []string{"a_test.go", "testdata/x.txt"}, []string{"TestA"}, "a_test.go"},
		{dataset.Rust, []string{"tests/roman.rs", "src/lib.rs"}, []string{"integration.reads"}, "tests/roman.rs"},
		{dataset.Ruby, []string{"spec/a_spec.rb"}, []string{"a"}, ""},
	}
	for _, c := range cases {
		got := canaryHosts(dataset.Instance{Language: c.lang, TestPatch: tp(c.paths...), FailToPass: c.f2p})
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s %v: hosts %v, want %s", c.lang, c.paths, got, c.want)
		}
	}
	// The canary code for JUnit 4 and 5 follows the file's imports.
	cs := []runrecord.Canary{{Name: "c01"}, {Name: "c02", Fail: true}}
	bodies := []canaryBody{newCanaryBody(false), newCanaryBody(true)}
	for _, c := range []struct{ src, ann string }{
		{"import org.junit.jupiter.api.Test;\nclass ATest {\n}\n", "@org.junit.jupiter.api.Test"},
		{"import org.junit.Test;\nclass ATest {\n}\n", "@org.junit.Test"},
		{"import org.testng.annotations.Test;\nclass ATest {\n}\n", ""},
	} {
		code, ok := canaryCode(dataset.Java, []byte(c.src), cs, bodies)
		if ok != (c.ann != "") || ok && (strings.Count(string(code), c.ann+"\n    public void c0") != 2 || !strings.HasSuffix(string(code), "}\n}\n")) {
			t.Errorf("java canaries for %q: %v\n%s", c.src, ok, code)
		}
	}
	// Go: only in a file that imports testing unaliased.
	for src, want := range map[string]bool{"package a\n\nimport \"testing\"\n": true, "package a\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n": true, "package a\n\nimport tt \"testing\"\n": false} {
		code, ok := canaryCode(dataset.Go, []byte(src), cs, bodies)
		if ok != want || ok && strings.Count(string(code), "(t *testing.T) {") != 2 {
			t.Errorf("go canaries for %q: %v\n%s", src, ok, code)
		}
	}
	// A must-fail body never holds, a must-pass body always does.
	for i := 0; i < 1000; i++ {
		for _, fail := range []bool{false, true} {
			b := newCanaryBody(fail)
			var v uint64
			for _, ch := range b.hex {
				v = v*16 + uint64(strings.IndexRune("0123456789abcdef", ch))
			}
			if (int(v%97) == b.want) == fail {
				t.Fatalf("body %+v (must fail %v)", b, fail)
			}
		}
	}
}

// TestCanariesUnittest: canaries in a repository whose tests run under
// python -m unittest (the unittest reader): gold resolves with the
// canaries read and left out of the lists; a patch that makes the runner
// skip the test file (the module made to raise unittest.SkipTest at
// import) is tampered, its canaries missing.
func TestCanariesUnittest(t *testing.T) {
	t.Parallel()
	reposDir := t.TempDir()
	repo := reposDir + "/acme__ucalc"
	base := makeRepo(t, repo, map[string]string{
		"calc.py":            calcBase,
		"tests/__init__.py":  "",
		"tests/test_calc.py": "import unittest\nfrom calc import mul\n\n\nclass TestMul(unittest.TestCase):\n    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n",
	})
	in := dataset.Instance{InstanceID: "acme__ucalc-1", Repo: "acme/ucalc", BaseCommit: base, Language: dataset.Python,
		Patch:       diffOf(t, repo, map[string]string{"calc.py": calcGold}),
		TestPatch:   diffOf(t, repo, map[string]string{"tests/test_calc.py": "import unittest\nfrom calc import add, mul\n\n\nclass TestMul(unittest.TestCase):\n    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n\n\nclass TestAdd(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n"}),
		TestCommand: "python3 -m unittest -v tests.test_calc",
		FailToPass:  []string{"test_add (tests.test_calc.TestAdd.test_add)"},
		PassToPass:  []string{"test_mul (tests.test_calc.TestMul.test_mul)"},
	}
	h, _ := newHarness(t, reposDir, grading.ModeSWEBench)
	rec, art, err := h.Evaluate(context.Background(), in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "gold", ModelPatch: in.Patch})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != grading.StatusResolved || rec.Test.Parser != "unittest" || len(rec.Test.Canaries) != 2 {
		t.Fatalf("gold: %s (%s), parser %s, canaries %+v (%s)\n%s", rec.Status, rec.Verdicts.SWEBench.Reason, rec.Test.Parser, rec.Test.Canaries, rec.Test.CanaryNote, art.TestLog)
	}
	for _, id := range append(append([]string{}, rec.PassedTests...), rec.FailedTests...) {
		if strings.Contains(id, rec.Test.Canaries[0].Name) || strings.Contains(id, rec.Test.Canaries[1].Name) {
			t.Errorf("canary %s in the reported lists", id)
		}
	}
	// A library module that prints a forged verbose unittest report and
	// ends the process with status 0 before the tests run.
	forged := "import sys, os\nsys.stderr.write('test_add (tests.test_calc.TestAdd.test_add) ... ok\\ntest_mul (tests.test_calc.TestMul.test_mul) ... ok\\n\\n' + '-' * 70 + '\\nRan 2 tests in 0.001s\\n\\nOK\\n')\nsys.stderr.flush()\nos._exit(0)\n" + calcBase
	rec, art, err = h.Evaluate(context.Background(), in, dataset.Prediction{InstanceID: in.InstanceID, ModelNameOrPath: "forger", ModelPatch: rawDiffOf(t, repo, "", map[string]string{"calc.py": forged})})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range grading.Modes {
		if v := rec.Verdicts.Get(m); v.Status != grading.StatusTampered || v.Resolved {
			t.Errorf("forger, %s: %s (%s)\n%s", m, v.Status, v.Reason, art.TestLog)
		}
	}
	// Re-grading the stored log reads the same canaries from the record.
	if v, _, _, why := Regrade(in, rec, art.TestLog); why != "" || v.Strict.Status != grading.StatusTampered {
		t.Errorf("regrade: %s (%s)", v.Strict.Status, why)
	}
}

// TestCanarySelection: a test command that selects tests by name gets no
// canaries (an honest run could leave them out); the sample's commands,
// which select directories or the whole suite, get them.
func TestCanarySelection(t *testing.T) {
	for cmd, selects := range map[string]bool{
		"python3 -m pytest -rA -p no:cacheprovider tests":                                           false,
		"python3 -m pytest -rA tests/test_calc.py":                                                  false,
		`"$POLYNFI_DATASET_DIR/env/node/node_modules/.bin/mocha" --reporter json test`:              false,
		`NODE_PATH="$D" "$D/.bin/jest" --ci --json`:                                                 false,
		`MAVEN_OPTS="-XX:TieredStopAtLevel=1" mvn -o -q -B test; rc=$?; cat target/x.xml; exit $rc`: false,
		"pytest -rA tests/test_calc.py::TestAdd::test_add":                                          true,
		"pytest -rA -k 'add or mul' tests":                                                          true,
		"npx jest -t 'parse decodes' --json":                                                        true,
		"mocha --grep numerically test":                                                             true,
		"mvn -Dtest=CsvParserTest#fieldOfOneQuote test":                                             true,
	} {
		if got := selectsByName(cmd) != ""; got != selects {
			t.Errorf("%q: selects by name %v, want %v", cmd, got, selects)
		}
	}
}
