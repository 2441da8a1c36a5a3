package harness

import (
	"context"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/syntax"
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
		{dataset.PHP, []string{"tests/InflectorTest.php", "tests/fixtures.php", "src/Inflector.php"}, []string{"InflectorTest.testConsonantYPlurals"}, "tests/InflectorTest.php"},
		{dataset.PHP, []string{"tests/Unit/ATest.php", "tests/Unit/BTest.php"}, []string{"Tests\\Unit\\BTest::testB"}, "tests/Unit/BTest.php"},
		{dataset.PHP, []string{"tests/ATest.php", "tests/BTest.php"}, []string{"A (Tests\\A) > Works"}, "tests/ATest.php tests/BTest.php"},
		{dataset.Ruby, []string{"spec/a_spec.rb", "spec/b_spec.rb", "spec/spec_helper.rb"}, []string{"spec.b_spec.B works"}, "spec/b_spec.rb"},
		{dataset.Ruby, []string{"test/a_test.rb", "test/test_b.rb", "test/helper.rb"}, []string{"BTest#test_adds"}, "test/test_b.rb"},
		{dataset.Ruby, []string{"test/a_test.rb", "test/test_b.rb"}, []string{"test_subs(ATest)"}, "test/a_test.rb"},
		{dataset.CPP, []string{"tests/ini_test.cpp", "tests/other_test.cpp", "tests/CMakeLists.txt", "src/ini.cpp"}, []string{"Parse.StripsInlineComments"}, "tests/ini_test.cpp"},
		{dataset.CPP, []string{"test/a.cpp", "test/b.cpp"}, []string{"b case > sub"}, "test/b.cpp"},
		{dataset.CPP, []string{"src/x_test.cc", "src/x.cc", "unittests/y.cpp"}, []string{"Other.Name"}, "src/x_test.cc unittests/y.cpp"},
		{dataset.C, []string{"tests/test_slugify.c", "tests/CMakeLists.txt"}, []string{"trims.trims"}, ""},
	}
	// tp adds, in C++ and Ruby files, a test per file that the F2P ids
	// above name (a TEST, TEST_CASE or def test_x in the added lines).
	defs := map[string]string{"tests/ini_test.cpp": "TEST(Parse, StripsInlineComments) {", "tests/other_test.cpp": "TEST(Parse, Other) {", "test/a.cpp": "TEST_CASE(\"a case\") {", "test/b.cpp": "TEST_CASE(\"b case\") {",
		"test/a_test.rb": "  def test_subs", "test/test_b.rb": "  def test_adds"}
	tp0 := tp
	tp = func(paths ...string) string {
		var b strings.Builder
		for _, p := range paths {
			if d, ok := defs[p]; ok {
				b.WriteString("diff --git a/" + p + " b/" + p + "\n--- a/" + p + "\n+++ b/" + p + "\n@@ -1 +1,2 @@\n x\n+" + d + "\n")
				continue
			}
			b.WriteString(tp0(p))
		}
		return b.String()
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
		{"import org.junit.Test;\nimport org.junit.experimental.runners.Enclosed;\nimport org.junit.runner.RunWith;\n@RunWith(Enclosed.class)\npublic class ATest {\n}\n", ""},
		{"import org.junit.runners.Suite;\n@org.junit.runner.RunWith(Suite.class)\n@Suite.SuiteClasses({BTest.class})\npublic class AllTests {\n}\n", ""},
		{"import org.junit.Test;\nimport org.junit.runners.Parameterized;\n@RunWith(Parameterized.class)\npublic class ATest {\n}\n", "@org.junit.Test"},
	} {
		code, ok := canaryCode(dataset.Java, []byte(c.src), cs, bodies)
		if ok != (c.ann != "") || ok && (strings.Count(string(code), c.ann+"\n    public void c0") != 2 || !strings.HasSuffix(string(code), "}\n}\n")) {
			t.Errorf("java canaries for %q: %v\n%s", c.src, ok, code)
		}
	}
	// The canaries go into the test class, not into a helper class the
	// file declares after it (nor into a nested class): the public
	// top-level class, else the first top-level one.
	for _, c := range []struct{ src, in string }{
		{"import org.junit.Test;\npublic class ATest {\n  @Test public void a() {}\n  static class Inner {\n  }\n}\nclass Helper {\n  String s = \"}\";\n}\n", "ATest"},
		{"import org.junit.Test;\nclass Helper {\n}\npublic class ATest {\n  @Test public void a() {}\n}\n", "ATest"},
		{"import org.junit.Test;\nclass ATest {\n  @Test public void a() {}\n}\nclass Helper {\n}\n", "ATest"},
		{"import org.junit.Test;\nclass ATest {\n  @Test public void a() { int x = ; }\n}\nclass Helper {\n}\n", "Helper"}, // does not parse: the last '}'
	} {
		code, ok := canaryCode(dataset.Java, []byte(c.src), cs, bodies)
		if !ok {
			t.Fatalf("no java canaries for %q", c.src)
		}
		tree, err := syntax.ParseOnce(syntax.Java, code)
		if err != nil {
			t.Fatal(err)
		}
		var owner []string
		tree.Walk(tree.Root(), func(id syntax.NodeID) bool {
			if tree.Kind(id) == "method_declaration" && strings.HasPrefix(tree.TextString(tree.ChildByField(id, "name")), "c0") {
				cls := tree.Ancestor(id, "class_declaration")
				owner = append(owner, tree.TextString(tree.ChildByField(cls, "name")))
			}
			return true
		})
		if strings.Join(owner, " ") != c.in+" "+c.in {
			t.Errorf("java canaries for %q in classes %v, want %s twice\n%s", c.src, owner, c.in, code)
		}
	}
	// Go: only in a file that imports testing unaliased.
	for src, want := range map[string]bool{"package a\n\nimport \"testing\"\n": true, "package a\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n": true, "package a\n\nimport tt \"testing\"\n": false} {
		code, ok := canaryCode(dataset.Go, []byte(src), cs, bodies)
		if ok != want || ok && strings.Count(string(code), "(t *testing.T) {") != 2 {
			t.Errorf("go canaries for %q: %v\n%s", src, ok, code)
		}
	}
	// PHP: before the last closing brace of a file with a TestCase class.
	for src, want := range map[string]bool{"<?php\nfinal class ATest extends TestCase\n{\n}\n": true, "<?php\nclass ATest extends \\PHPUnit\\Framework\\TestCase {\n}\n": true, "<?php\nclass Helper {\n}\n": false} {
		code, ok := canaryCode(dataset.PHP, []byte(src), cs, bodies)
		if ok != want || ok && (strings.Count(string(code), "public function test_canary_c0") != 2 || !strings.HasSuffix(string(code), "}\n}\n")) {
			t.Errorf("php canaries for %q: %v\n%s", src, ok, code)
		}
	}
	// Ruby: methods inside the first test class (at its own indentation's
	// end), RSpec or minitest/spec describe blocks, nothing else.
	for _, c := range []struct{ src, want string }{
		{"require \"minitest/autorun\"\nclass ATest < Minitest::Test\n  def test_a\n  end\nend\n", "\n  def test_c01\n"},
		{"module M\n  class ATest < Test::Unit::TestCase\n    def test_a\n    end\n  end\nend\n", "\n    def test_c02\n"},
		{"RSpec.describe A do\n  it \"x\" do\n  end\nend\n", "\nRSpec.describe \"c01\" do\n  it \"c01\" do\n"},
		{"require \"minitest/autorun\"\ndescribe A do\n  it \"x\" do\n  end\nend\n", "\ndescribe \"c02\" do\n"},
		{"module Helpers\nend\n", ""},
	} {
		code, ok := canaryCode(dataset.Ruby, []byte(c.src), cs, bodies)
		if ok != (c.want != "") || ok && !strings.Contains(string(code), c.want) {
			t.Errorf("ruby canaries for %q: %v\n%s", c.src, ok, code)
		}
		if strings.Contains(c.want, "def test_") && !strings.HasSuffix(string(code), "end\n") || strings.HasPrefix(c.src, "module M") && !strings.HasSuffix(string(code), "    end\n  end\nend\n") {
			t.Errorf("ruby canaries outside the class:\n%s", code)
		}
	}
	// C++: the framework the includes name.
	for _, c := range []struct{ src, want string }{
		{"#include <gtest/gtest.h>\nTEST(A, B) {}\n", "TEST(c01, t) {"},
		{"#include \"common.h\"\nTEST_F(Fx, B) {}\n", "TEST(c02, t) {"},
		{"#include <doctest/doctest.h>\nTEST_CASE(\"a\") {}\n", "TEST_CASE(\"c01\") {\n    SUBCASE(\"c01\") {"},
		{"#define DOCTEST_CONFIG_NO_SHORT_MACRO_NAMES\n#include \"doctest.h\"\n", "DOCTEST_TEST_CASE(\"c02\") {\n    DOCTEST_SUBCASE(\"c02\")"},
		{"#include <catch2/catch_test_macros.hpp>\nTEST_CASE(\"a\") {}\n", "TEST_CASE(\"c01\") {\n    CHECK("},
		{"#include <cassert>\nint main() {}\n", ""},
	} {
		code, ok := canaryCode(dataset.CPP, []byte(c.src), cs, bodies)
		if ok != (c.want != "") || ok && !strings.Contains(string(code), c.want) {
			t.Errorf("c++ canaries for %q: %v\n%s", c.src, ok, code)
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
		"phpunit --colors=never --do-not-cache-result --log-junit junit.xml tests":                  false,
		"rspec --no-color --format progress --format RspecJunitFormatter --out junit.xml":           false,
		"bundle exec rake test TESTOPTS=-v":                                                         false,
		"./build/tests/inikit_tests --gtest_color=no --gtest_output=xml:junit.xml | head -n 50":     false,
		`[ -f Makefile ] && make check; ./test_runner -r xml`:                                       false,
		"phpunit --filter testConsonantYPlurals tests":                                              true,
		"phpunit --group slow tests":                                                                true,
		"rspec -e 'accepts an X' spec":                                                              true,
		"rspec spec/isbnkit_spec.rb:12":                                                             true,
		"ruby -Itest test/a_test.rb -n test_adds":                                                   true,
		"bundle exec rake test TESTOPTS='-n /adds/'":                                                true,
		"./a_test --gtest_filter=Parse.*":                                                           true,
		"./tests -tc='parse*'":                                                                      true,
		`./tests "[parse]" -r xml`:                                                                  true,
	} {
		if got := selectsByName(cmd) != ""; got != selects {
			t.Errorf("%q: selects by name %v, want %v", cmd, got, selects)
		}
	}
}
