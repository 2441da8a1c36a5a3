package testlog

import (
	"fmt"
	"strings"
	"testing"
)

// Reading a 50 MB log of each runner, with polynfi's own reader and the
// SWE-bench and Multi-SWE-bench readings of that runner: go test -bench
// 'BenchmarkRunnerLog' ./testlog reports MB/s (the aim is >= 100 MB/s).

// benchLogSize is the size of each generated log.
var benchLogSize = 50 << 20

// runnerBenchLog builds a log of about benchLogSize bytes by repeating the
// block of a runner, its test names numbered.
func runnerBenchLog(head, tail string, block func(i int) string) []byte {
	var b strings.Builder
	b.Grow(benchLogSize + 4096)
	b.WriteString(head)
	for i := 0; b.Len() < benchLogSize; i++ {
		b.WriteString(block(i))
	}
	b.WriteString(tail)
	return []byte(b.String())
}

type runnerBench struct {
	name string
	fw   Framework
	sweb string // SWE-bench parser, "" for none
	mswe string // Multi-SWE-bench reader, "" for none
	log  func() []byte
}

var runnerBenches = []*runnerBench{
	{name: "pytest", fw: Pytest, sweb: "parse_log_pytest", log: func() []byte {
		return runnerBenchLog("============================= test session starts ==============================\nplatform linux -- Python 3.11.2, pytest-8.3.3\ncollected 999999 items\n\n",
			"", func(i int) string {
				return fmt.Sprintf("tests/test_mod%d.py::test_adds[case-%d] PASSED                        [ 12%%]\n"+
					"tests/test_mod%d.py::TestCalc::test_div FAILED                          [ 13%%]\n"+
					"tests/test_mod%d.py::test_skip SKIPPED (no network)                     [ 14%%]\n"+
					"E       assert 2 == 3\n", i, i, i, i)
			})
	}},
	{name: "pytest-rA", fw: Pytest, sweb: "parse_log_pytest", log: func() []byte {
		return runnerBenchLog("=========================== short test summary info ============================\n",
			"======================== 1 failed, 2 passed in 0.12s =========================\n", func(i int) string {
				return fmt.Sprintf("PASSED tests/test_mod%d.py::test_adds[case-%d]\nFAILED tests/test_mod%d.py::TestCalc::test_div - AssertionError: assert 2 == 3\nSKIPPED [1] tests/test_mod%d.py:12: no network\nXFAIL tests/test_mod%d.py::test_x - reason\n", i, i, i, i, i)
			})
	}},
	{name: "unittest", fw: Unittest, log: func() []byte {
		return runnerBenchLog("", "\nRan 999999 tests in 1.000s\n\nFAILED (failures=1)\n", func(i int) string {
			return fmt.Sprintf("test_adds (tests.test_mod%d.CalcTest.test_adds) ... ok\ntest_div (tests.test_mod%d.CalcTest.test_div) ... FAIL\ntest_skip (tests.test_mod%d.CalcTest.test_skip) ... skipped 'no network'\n", i, i, i)
		})
	}},
	{name: "junit-xml", fw: JUnit, log: func() []byte {
		return runnerBenchLog(`<?xml version="1.0" encoding="UTF-8"?>`+"\n<testsuites>\n", "</testsuites>\n", func(i int) string {
			return fmt.Sprintf(`<testsuite name="com.example.Calc%dTest" tests="3" failures="1" errors="0" skipped="1" time="0.01">`+"\n"+
				`  <testcase name="adds" classname="com.example.Calc%dTest" time="0.001"/>`+"\n"+
				`  <testcase name="divides" classname="com.example.Calc%dTest" time="0.002"><failure message="expected: &lt;2&gt; but was: &lt;3&gt;" type="org.opentest4j.AssertionFailedError">at com.example.Calc%dTest.divides(Calc%dTest.java:12)</failure></testcase>`+"\n"+
				`  <testcase name="skips" classname="com.example.Calc%dTest" time="0"><skipped/></testcase>`+"\n</testsuite>\n", i, i, i, i, i, i)
		})
	}},
	{name: "surefire", fw: Surefire, log: func() []byte {
		return runnerBenchLog("[INFO] Scanning for projects...\n[INFO] -------------------------------------------------------\n[INFO]  T E S T S\n", "[INFO] BUILD FAILURE\n", func(i int) string {
			return fmt.Sprintf("[INFO] Running com.example.Calc%dTest\n"+
				"[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 1, Time elapsed: 0.05 s <<< FAILURE! - in com.example.Calc%dTest\n"+
				"[ERROR] com.example.Calc%dTest.divides -- Time elapsed: 0.01 s <<< FAILURE!\n"+
				"org.opentest4j.AssertionFailedError: expected: <2> but was: <3>\n\tat com.example.Calc%dTest.divides(Calc%dTest.java:12)\n", i, i, i, i, i)
		})
	}},
	{name: "jest-json", fw: Jest, sweb: "parse_log_jest_json", log: func() []byte {
		return runnerBenchLog(`{"numFailedTestSuites":1,"numFailedTests":1,"numPassedTests":2,"success":false,"testResults":[`,
			`{"name":"/w/last.test.js","status":"passed","assertionResults":[{"fullName":"last","title":"last","status":"passed","ancestorTitles":[]}]}]}`+"\n", func(i int) string {
				return fmt.Sprintf(`{"name":"/w/src/calc%d.test.js","status":"failed","message":"","assertionResults":[`+
					`{"ancestorTitles":["Calc"],"fullName":"Calc adds %d","title":"adds %d","status":"passed","duration":1,"failureMessages":[]},`+
					`{"ancestorTitles":["Calc"],"fullName":"Calc divides %d","title":"divides %d","status":"failed","duration":2,"failureMessages":["Error: expect(received).toBe(expected)\\n    at Object.<anonymous> (/w/src/calc.test.js:5:12)"]}]},`, i, i, i, i, i)
			})
	}},
	{name: "jest-text", sweb: "parse_log_jest", log: func() []byte {
		return runnerBenchLog("", "", func(i int) string {
			return fmt.Sprintf("PASS src/calc%d.test.js\n  Calc\n    ✓ adds %d (3 ms)\n    ✕ divides %d (2 ms)\n    ○ skipped later %d\n", i, i, i, i)
		})
	}},
	{name: "mocha-json", fw: Mocha, log: func() []byte {
		return runnerBenchLog(`{"stats":{"suites":2,"tests":3,"passes":2,"failures":1},"tests":[],"pending":[],"failures":[],"passes":[`,
			`{"title":"last","fullTitle":"last","duration":0}]}`+"\n", func(i int) string {
				return fmt.Sprintf(`{"title":"adds %d","fullTitle":"Calc adds %d","file":"/w/test/calc.js","duration":1,"currentRetry":0,"speed":"fast","err":{}},`, i, i)
			})
	}},
	{name: "tap", fw: TAP, sweb: "parse_log_tap", log: func() []byte {
		return runnerBenchLog("TAP version 13\n", "1..999999\n", func(i int) string {
			return fmt.Sprintf("ok %d - calc adds %d\nnot ok %d - calc divides %d\n  ---\n  message: 'expected 2'\n  ...\nok %d - later # SKIP no network\n", 3*i+1, i, 3*i+2, i, 3*i+3)
		})
	}},
	{name: "gotest", fw: GoTest, sweb: "parse_log_gotest", mswe: "gotest", log: func() []byte {
		return runnerBenchLog("", "FAIL\texample.com/a\t1.0s\n", func(i int) string {
			return fmt.Sprintf("=== RUN   TestN%d\n    n_test.go:12: some output of the test %d\n--- PASS: TestN%d (0.00s)\n=== RUN   TestF%d/sub\n    --- FAIL: TestF%d/sub (0.01s)\n", i, i, i, i, i)
		})
	}},
	{name: "gotest-json", fw: GoTest, log: func() []byte {
		return runnerBenchLog("", "", func(i int) string {
			return fmt.Sprintf(`{"Time":"2026-12-03T09:33:23.41Z","Action":"run","Package":"example.com/a","Test":"TestN%d"}`+"\n"+
				`{"Time":"2026-12-03T09:33:23.41Z","Action":"output","Package":"example.com/a","Test":"TestN%d","Output":"--- PASS: TestN%d (0.00s)\n"}`+"\n"+
				`{"Time":"2026-12-03T09:33:23.41Z","Action":"pass","Package":"example.com/a","Test":"TestN%d","Elapsed":0}`+"\n", i, i, i, i)
		})
	}},
	{name: "cargo", fw: Cargo, sweb: "parse_log_cargo", mswe: "cargo", log: func() []byte {
		return runnerBenchLog("running many tests\n", "", func(i int) string {
			return fmt.Sprintf("test mod_%d::adds ... ok\ntest mod_%d::fails ... FAILED\ntest mod_%d::slow ... ignored\nsome output line of a test\n", i, i, i)
		})
	}},
	{name: "cargo-json", fw: Cargo, log: func() []byte {
		return runnerBenchLog("", "", func(i int) string {
			return fmt.Sprintf(`{ "type": "test", "event": "started", "name": "m%d::t" }`+"\n"+`{ "type": "test", "name": "m%d::t", "event": "ok" }`+"\n", i, i)
		})
	}},
	{name: "googletest", fw: GoogleTest, sweb: "parse_log_googletest", mswe: "googletest", log: func() []byte {
		return runnerBenchLog("[==========] Running tests.\n", "", func(i int) string {
			return fmt.Sprintf("[ RUN      ] Suite%d.Adds\n[       OK ] Suite%d.Adds (0 ms)\n[ RUN      ] Suite%d.Fails\nfile.cc:3: Failure\n[  FAILED  ] Suite%d.Fails (1 ms)\n", i, i, i, i)
		})
	}},
	{name: "ctest", fw: CTest, mswe: "ctest", log: func() []byte {
		return runnerBenchLog("Test project /b\n", "", func(i int) string {
			return fmt.Sprintf("    Start %d: test_%d\n%d/999999 Test #%d: test_%d ..........................   Passed    0.01 sec\n", i, i, i, i, i)
		})
	}},
	{name: "catch2-ctest", fw: CTest, mswe: "catch2_ctest", log: func() []byte {
		return runnerBenchLog("-- Performing Test HAVE_X - Success\n", "", func(i int) string {
			return fmt.Sprintf("%d/999999 Test #%d: Test_%d ..........................***Failed    0.01 sec\n", i, i, i)
		})
	}},
	{name: "doctest", fw: Doctest, sweb: "parse_log_doctest", log: func() []byte {
		return runnerBenchLog(`<doctest binary="t"><TestSuite>`+"\n", "</TestSuite></doctest>\n", func(i int) string {
			return fmt.Sprintf(`<TestCase name="case %d"><SubCase name="sub"><Expression success="true" type="CHECK"><Original>x == 1</Original></Expression></SubCase><OverallResultsAsserts successes="1" failures="0" test_case_success="true"/></TestCase>`+"\n", i)
		})
	}},
	{name: "catch2-xml", fw: Catch2, log: func() []byte {
		return runnerBenchLog(`<Catch name="t"><Group name="t">`+"\n", "</Group></Catch>\n", func(i int) string {
			return fmt.Sprintf(`<TestCase name="case %d"><Expression success="false" type="CHECK"><Original>x</Original></Expression><OverallResult success="false"/></TestCase>`+"\n", i)
		})
	}},
	{name: "redis", fw: Redis, sweb: "parse_log_redis", mswe: "redis", log: func() []byte {
		return runnerBenchLog("", "", func(i int) string {
			return fmt.Sprintf("[ok]: test number %d (1 ms)\n[err]: failing %d in tests/unit/a.tcl\nsome server output\n", i, i)
		})
	}},
	{name: "automake", fw: Automake, sweb: "parse_log_jq", mswe: "automake_jq", log: func() []byte {
		return runnerBenchLog("", "", func(i int) string {
			return fmt.Sprintf("PASS: tests/t%d.test\nFAIL: tests/f%d.test\nmake[2]: output\n", i, i)
		})
	}},
	{name: "phpunit", fw: PHPUnit, sweb: "parse_log_phpunit", mswe: "phpunit_testdox", log: func() []byte {
		return runnerBenchLog("PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\n", "", func(i int) string {
			return fmt.Sprintf("Calc%d (Tests\\Calc%d)\n ✔ Adds numbers\n ✘ Divides\n   │ Failed asserting that 2 is identical to 3.\n ↩ Skipped\n\n", i, i)
		})
	}},
	{name: "minitest", fw: Minitest, sweb: "parse_log_minitest", mswe: "minitest", log: func() []byte {
		return runnerBenchLog("Run options: -v\n", "", func(i int) string {
			return fmt.Sprintf("Calc%dTest#test_adds = 0.00 s = .\nCalc%dTest#test_fails = 0.00 s = F\n", i, i)
		})
	}},
	{name: "testunit", fw: TestUnit, sweb: "parse_log_ruby_unit", log: func() []byte {
		return runnerBenchLog("Loaded suite t\nStarted\n", "", func(i int) string {
			return fmt.Sprintf("Calc%d: \n  test_adds:\t\t\t.: (0.000351)\n  test_fails:\t\t\tF\n", i)
		})
	}},
	{name: "rspec", fw: RSpec, sweb: "parse_log_rspec_transformed_json", log: func() []byte {
		return runnerBenchLog(`{"version":"3.12.0","examples":[`, `{"id":"x","full_description":"last","status":"passed"}]}`+"\n", func(i int) string {
			return fmt.Sprintf(`{"id":"./a_spec.rb[1:%d]","description":"adds","full_description":"Calc %d adds","status":"passed","file_path":"./a_spec.rb","line_number":2},`, i, i)
		})
	}},
	{name: "cucumber", sweb: "parse_log_cucumber", log: func() []byte {
		return runnerBenchLog("", "", func(i int) string { return fmt.Sprintf("Scenario: number %d ......\n", i) })
	}},
}

// BenchmarkRunnerLog reads each runner's 50 MB log with polynfi's reader
// ("own"), SWE-bench's ("swebench") and Multi-SWE-bench's ("mswebench").
//
// "baseline" is the floor every line reader pays, measured in the same run
// so that the readers' speeds can be read as ratios on a loaded machine:
// the log converted to a string, split into lines, each line checked for
// a prefix.
func BenchmarkRunnerLog(b *testing.B) {
	for _, r := range runnerBenches {
		b.Run(r.name, func(b *testing.B) { benchRunner(b, r) })
	}
}

// benchRunner generates r's log (only when its benchmarks are selected)
// and reads it with each reader.
func benchRunner(b *testing.B, r *runnerBench) {
	log := r.log()
	b.Run("baseline", func(b *testing.B) {
		b.SetBytes(int64(len(log)))
		for i := 0; i < b.N; i++ {
			n := 0
			for _, line := range strings.Split(string(log), "\n") {
				if strings.HasPrefix(line, "--- ") {
					n++
				}
			}
			_ = n
		}
	})
	if r.fw != "" {
		b.Run("own", func(b *testing.B) {
			b.SetBytes(int64(len(log)))
			for i := 0; i < b.N; i++ {
				rs, err := Parse(r.fw, log)
				if err != nil || len(rs) == 0 {
					b.Fatalf("%s: %d results, %v", r.name, len(rs), err)
				}
			}
		})
	}
	if r.sweb != "" {
		b.Run("swebench", func(b *testing.B) {
			b.SetBytes(int64(len(log)))
			for i := 0; i < b.N; i++ {
				if _, err := ParseSWEBench(r.sweb, log, SWEBenchContext{InstanceID: "x__y-1"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	if r.mswe != "" {
		b.Run("mswebench", func(b *testing.B) {
			b.SetBytes(int64(len(log)))
			for i := 0; i < b.N; i++ {
				if _, err := ParseMultiSWEBench(r.mswe, log); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
