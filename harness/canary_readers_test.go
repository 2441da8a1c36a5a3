package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/testlog"
)

// TestCanaryReaders runs canaries written by canaryCode with the real
// runners of PHP, Ruby and C++ (PHPUnit, minitest, test-unit, RSpec,
// googletest, Catch2), beside one real test, and reads each run with
// every reader the grading modes may pick for that runner (polynfi's
// console and report readers, SWE-bench's and Multi-SWE-bench's log
// parsers, JUnit XML): in each reading both canaries are found by their
// token (checkCanaries: no problem, the must-fail one failed) and the
// real test (and, for doctest, its subcase) is left.
func TestCanaryReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("runs phpunit, ruby and g++")
	}
	type reading struct {
		name string
		read func(stdout []byte, dir string) ([]testlog.Result, error)
	}
	parse := func(fw testlog.Framework) func([]byte, string) ([]testlog.Result, error) {
		return func(out []byte, _ string) ([]testlog.Result, error) { return testlog.Parse(fw, out) }
	}
	sweb := func(p string) func([]byte, string) ([]testlog.Result, error) {
		return func(out []byte, _ string) ([]testlog.Result, error) {
			return testlog.ParseSWEBench(p, out, testlog.SWEBenchContext{InstanceID: "a__b-1"})
		}
	}
	mswe := func(r string) func([]byte, string) ([]testlog.Result, error) {
		return func(out []byte, _ string) ([]testlog.Result, error) {
			m, err := testlog.ParseMultiSWEBench(r, out)
			return m.Results(), err
		}
	}
	junit := func(_ []byte, dir string) ([]testlog.Result, error) {
		b, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
		if err != nil {
			return nil, err
		}
		return testlog.Parse(testlog.JUnit, b)
	}
	cases := []struct {
		name, lang, tool, file, src string
		cmd                         []string // run in the directory; "sh -c"
		readers                     []reading
	}{
		{"phpunit", dataset.PHP, "phpunit", "tests/ATest.php",
			"<?php\n\nnamespace App\\Tests;\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class ATest extends TestCase\n{\n    public function testReal(): void\n    {\n        $this->assertTrue(true);\n    }\n}\n",
			[]string{"phpunit --colors=never --do-not-cache-result --testdox --log-junit junit.xml tests/ATest.php"},
			[]reading{{"testdox", parse(testlog.PHPUnit)}, {"swebench parse_log_phpunit", sweb("parse_log_phpunit")}, {"mswe phpunit_testdox", mswe("phpunit_testdox")}, {"junit", junit}}},
		{"minitest", dataset.Ruby, "ruby", "test/a_test.rb",
			"require \"minitest/autorun\"\n\nclass ATest < Minitest::Test\n  def test_real\n    assert true\n  end\nend\n",
			[]string{"ruby test/a_test.rb -v"},
			[]reading{{"minitest", parse(testlog.Minitest)}, {"mswe minitest", mswe("minitest")}}},
		{"test-unit", dataset.Ruby, "ruby", "test/test_a.rb",
			"require \"test/unit\"\n\nmodule Outer\n  class ATest < Test::Unit::TestCase\n    def test_real\n      assert true\n    end\n  end\nend\n",
			[]string{"ruby test/test_a.rb -v"},
			[]reading{{"testunit", parse(testlog.TestUnit)}, {"swebench parse_log_ruby_unit", sweb("parse_log_ruby_unit")}, {"mswe minitest", mswe("minitest")}}},
		{"rspec", dataset.Ruby, "rspec", "spec/a_spec.rb",
			"RSpec.describe \"A\" do\n  it \"works\" do\n    expect(1).to eq 1\n  end\nend\n",
			[]string{"rspec --no-color --format json spec/a_spec.rb"},
			[]reading{{"rspec json", parse(testlog.RSpec)}}},
		{"googletest", dataset.CPP, "g++", "tests/a_test.cpp",
			"#include <gtest/gtest.h>\n\nTEST(A, Real) {\n    EXPECT_EQ(1, 1);\n}\n",
			[]string{"g++ -std=c++17 -Wall -Werror tests/a_test.cpp -lgtest -lgtest_main -pthread -o a && ./a --gtest_color=no --gtest_output=xml:junit.xml"},
			[]reading{{"googletest", parse(testlog.GoogleTest)}, {"swebench parse_log_googletest", sweb("parse_log_googletest")}, {"mswe googletest", mswe("googletest")}, {"junit", junit}}},
		{"catch2", dataset.CPP, "g++", "tests/a_test.cpp",
			"#define CATCH_CONFIG_MAIN\n#include <catch2/catch.hpp>\n\nTEST_CASE(\"real\") {\n    CHECK(1 == 1);\n}\n",
			[]string{"g++ -std=c++17 -O0 -Wall -Werror tests/a_test.cpp -o a", "./a -r junit -o junit.xml", "./a -r xml"},
			[]reading{{"catch2 xml", parse(testlog.Catch2)}, {"junit", junit}}},
		{"doctest", dataset.CPP, "g++", "tests/a_test.cpp",
			"#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n\nTEST_CASE(\"real\") {\n    SUBCASE(\"sub\") {\n        CHECK(1 == 1);\n    }\n}\n",
			[]string{"g++ -std=c++17 -O0 -Wall -Werror tests/a_test.cpp -o a", "./a -r=junit -s > junit.xml", "./a -r=xml -s"},
			[]reading{{"doctest xml", parse(testlog.Doctest)}, {"swebench parse_log_doctest", sweb("parse_log_doctest")}, {"junit", junit}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := exec.LookPath(c.tool); err != nil {
				citest.Missing(t, "%s not installed", c.tool)
			}
			if h := map[string]string{"catch2": "/usr/include/catch2/catch.hpp", "doctest": "/usr/include/doctest/doctest.h"}[c.name]; h != "" {
				if _, err := os.Stat(h); err != nil {
					citest.Missing(t, "%s not installed", h)
				}
			}
			cs := []Canary{{Name: newCanaryName(), File: c.file}, {Name: newCanaryName(), File: c.file, Fail: true}}
			code, ok := canaryCode(c.lang, []byte(c.src), cs, []canaryBody{newCanaryBody(false), newCanaryBody(true)})
			if !ok {
				t.Fatalf("no canary code for %s", c.name)
			}
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, filepath.Dir(c.file)), 0o755)
			if err := os.WriteFile(filepath.Join(dir, c.file), code, 0o644); err != nil {
				t.Fatal(err)
			}
			var out []byte
			for _, cmd := range c.cmd {
				x := exec.Command("sh", "-c", cmd)
				x.Dir = dir
				b, err := x.CombinedOutput()
				if _, exit := err.(*exec.ExitError); err != nil && !exit {
					t.Fatal(err)
				}
				out = b // the last command's output is the log read
				if err != nil && strings.Contains(cmd, "g++") && !strings.Contains(cmd, "./a") {
					t.Fatalf("%s: %v\n%s\n%s", cmd, err, b, code)
				}
			}
			for _, r := range c.readers {
				results, err := r.read(out, dir)
				if err != nil {
					t.Errorf("%s: %v", r.name, err)
					continue
				}
				o := checkCanaries(cs, results)
				if o.problem != "" || !o.failed || len(o.rest) == 0 || len(o.rest) > 2 {
					t.Errorf("%s: problem %q, must-fail canary failed %v, other results %+v; read %+v\n%s\n%s", r.name, o.problem, o.failed, o.rest, results, code, out)
				}
			}
		})
	}
}
