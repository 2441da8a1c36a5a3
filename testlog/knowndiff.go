package testlog

// KnownDifference is a way an official reading of a runner's log differs
// from polynfi's own reading of the same log (the reading of the strict
// mode): a test the official reader drops, counts wrongly, or invents. In
// the benchmark's own mode polynfi reproduces the official reading
// (ParseSWEBench, ParseMultiSWEBench) with these differences; the strict
// mode reads the log with polynfi's reader (Parse) instead. The list is
// checked against real and hand-written logs (TestKnownDifferences): a
// difference not listed fails it, and so does a listed one no log shows.
type KnownDifference struct {
	Benchmark string    `json:"benchmark"` // "swebench" or "multi-swe-bench"
	Reader    string    `json:"reader"`    // the SWE-bench parser, or the Multi-SWE-bench reader
	Runner    Framework `json:"runner"`    // polynfi's reader of the same log
	Official  Status    `json:"official"`  // the official status of a test ("" when it has none, "invalid" when the official reading fails as a whole)
	Own       Status    `json:"own"`       // polynfi's ("" when it reads no such test)
	What      string    `json:"what"`
}

// KnownDifferences lists the known differences, by benchmark and reader.
var KnownDifferences = []KnownDifference{
	// SWE-bench 5.0.2
	{"swebench", "parse_log_gotest", GoTest, "", Passed, "a line in colour (ANSI escape codes) is not read"},
	{"swebench", "parse_log_gotest", GoTest, "", Error, "a test the binary died in (panic, -timeout alarm, os.Exit) has no \"--- FAIL\" line and is missing; polynfi reads it from its \"=== RUN\" line as ERROR"},
	{"swebench", "parse_log_gotest", GoTest, Passed, "", "a \"--- PASS: name (...)\" line whose name holds a space, or whose time is not a duration, is read; polynfi reads only go test's own form"},
	{"swebench", "parse_log_cargo", Cargo, "", Passed, "a line in colour (ANSI escape codes) is not read"},
	{"swebench", "parse_log_cargo", Cargo, Passed, "", "a line with runs of white space between its words (\"test  a  ...  ok\") is read; polynfi reads only libtest's own form"},
	{"swebench", "parse_log_cargo", Cargo, "", Skipped, "ignored tests (\"... ignored\", \"... ignored, reason\") are not read"},
	{"swebench", "parse_log_googletest", GoogleTest, "", Passed, "a line in googletest's colours keeps the escape code in its id"},
	{"swebench", "parse_log_googletest", GoogleTest, Passed, "", "a result printed after other output on the same line is read (any text may come before the bracket); polynfi reads only lines that start with it"},
	{"swebench", "parse_log_googletest", GoogleTest, "", Skipped, "skipped tests (\"[  SKIPPED ]\") are not read"},
	{"swebench", "parse_log_googletest", GoogleTest, "", Error, "a test the binary died in has no result line and is missing; polynfi reads it from its \"[ RUN      ]\" line as ERROR"},
	{"swebench", "parse_log_googletest", GoogleTest, Failed, "", "a parameterized test's failure keeps \", where GetParam() = ...\" in its id (polynfi cuts it: the test has another id)"},
	{"swebench", "parse_log_googletest", GoogleTest, "", Failed, "a parameterized test's failure keeps \", where GetParam() = ...\" in its id (polynfi cuts it: the test has another id)"},
	{"swebench", "parse_log_redis", Redis, "", Passed, "a line in colour (ANSI escape codes) is not read"},
	{"swebench", "parse_log_redis", Redis, "", Error, "\"[exception]:\" lines (a test that raised, or a server that died) are not read"},
	{"swebench", "parse_log_jq", Automake, "", Passed, "a line in automake's colours is not read"},
	{"swebench", "parse_log_jq", Automake, "", Skipped, "SKIP lines are not read"},
	{"swebench", "parse_log_jq", Automake, "", XFail, "XFAIL lines are not read"},
	{"swebench", "parse_log_jq", Automake, "", XPass, "XPASS lines (a failure for automake) are not read"},
	{"swebench", "parse_log_jq", Automake, "", Error, "ERROR lines (a test that could not run) are not read"},
	{"swebench", "parse_log_doctest", Doctest, "", Passed, "test cases without subcases are not read, nor a test case's own result"},
	{"swebench", "parse_log_doctest", Doctest, "", Failed, "test cases without subcases are not read, nor a test case's own result"},
	{"swebench", "parse_log_doctest", Doctest, "", Skipped, "skipped test cases are not read"},
	{"swebench", "parse_log_doctest", Doctest, "", Error, "a test case that crashed is not read"},
	{"swebench", "parse_log_doctest", Doctest, Passed, "", "a subcase without a name is read as \"None\" (polynfi: the empty name)"},
	{"swebench", "parse_log_doctest", Doctest, "invalid", "", "a report cut short (the binary died mid-report) does not parse: the parser raises and the instance is not graded; polynfi reads its complete test cases"},
	{"swebench", "parse_log_doctest", Doctest, Passed, Error, "a subcase of a test case that crashed after it is PASSED"},
	{"swebench", "parse_log_phpunit", PHPUnit, "", Skipped, "incomplete tests (∅) are not read"},
	{"swebench", "parse_log_phpunit", PHPUnit, "", Passed, "risky (☢) and warning (⚠) tests are not read; a class printed without a namespace never sets the suite, so its tests are read under the previous class's name"},
	{"swebench", "parse_log_phpunit", PHPUnit, "", Failed, "a class printed without a namespace never sets the suite, so its tests are read under the previous class's name"},
	{"swebench", "parse_log_phpunit", PHPUnit, Passed, "", "a class printed without a namespace never sets the suite, so its tests are read under the previous class's name"},
	{"swebench", "parse_log_phpunit", PHPUnit, Failed, "", "a class printed without a namespace never sets the suite, so its tests are read under the previous class's name"},
	{"swebench", "parse_log_phpunit", PHPUnit, Skipped, "", "a class printed without a namespace never sets the suite, so its tests are read under the previous class's name"},
	// Multi-SWE-bench 1.1.2
	{"multi-swe-bench", "gotest", GoTest, Failed, "", "a package's \"FAIL\\tpkg\\t0.1s\" line, and any line starting \"FAIL\", is read as a failed test"},
	{"multi-swe-bench", "gotest", GoTest, "", Skipped, "a skipped test is kept only when it also failed (then the reading is refused)"},
	{"multi-swe-bench", "gotest", GoTest, "", Error, "a test the binary died in is missing"},
	{"multi-swe-bench", "gotest", GoTest, Passed, "", "a \"--- PASS: name\" line without a time is read"},
	{"multi-swe-bench", "gotest", GoTest, "", Passed, "a line in colour (ANSI escape codes) is not read"},
	{"multi-swe-bench", "cargo", Cargo, "invalid", "", "a test path passed in one test binary and failed in another (the same module path in the library and an integration test) is in two sets: the reading is refused"},
	{"multi-swe-bench", "ctest", CTest, Failed, "", "a result line without its time is read; polynfi reads only ctest's complete lines"},
	{"multi-swe-bench", "ctest", CTest, "", Error, "crashed (\"***Exception\"), timed-out and not-run tests are not read"},
	{"multi-swe-bench", "ctest", CTest, "", Skipped, "skipped and disabled tests are not read"},
	{"multi-swe-bench", "ctest_failed_at_end", CTest, "", Failed, "the failed pattern must end at \"Failed\", which ctest never prints (its time follows): no test ever fails"},
	{"multi-swe-bench", "ctest_failed_at_end", CTest, Failed, "", "only a failed line without its time (which ctest does not print) is read as failed"},
	{"multi-swe-bench", "ctest_failed_at_end", CTest, "", Error, "crashed, timed-out and not-run tests are not read"},
	{"multi-swe-bench", "ctest_failed_at_end", CTest, "", Skipped, "skipped and disabled tests are not read"},
	{"multi-swe-bench", "catch2_ctest", CTest, Passed, "", "CMake's configure checks (\"-- Performing Test HAVE_X - Success\") are read as passed tests, and ids are lower-cased"},
	{"multi-swe-bench", "catch2_ctest", CTest, Failed, "", "CMake's configure checks (\"- Failed\") are read as failed tests, and ids are lower-cased"},
	{"multi-swe-bench", "catch2_ctest", CTest, Skipped, "", "CMake's configure checks (\"- skipped\") are read as skipped tests"},
	{"multi-swe-bench", "catch2_ctest", CTest, "", Passed, "ids are lower-cased: a test named with capitals has another id"},
	{"multi-swe-bench", "catch2_ctest", CTest, "", Error, "crashed, timed-out and not-run tests are not read"},
	{"multi-swe-bench", "catch2_ctest", CTest, "", Skipped, "skipped and disabled tests are not read"},
	{"multi-swe-bench", "redis", Redis, Failed, "", "a failure keeps \" in tests/unit/x.tcl\" in its id (polynfi cuts it: the test has another id)"},
	{"multi-swe-bench", "redis", Redis, "", Failed, "a failure keeps \" in tests/unit/x.tcl\" in its id (polynfi cuts it: the test has another id)"},
	{"multi-swe-bench", "redis", Redis, "", Error, "an \"[exception]:\" keeps \" in <file>\" in its id (polynfi cuts it)"},
	{"multi-swe-bench", "redis", Redis, "", Skipped, "\"[skip]:\" lines are not read"},
	{"multi-swe-bench", "redis", Redis, Skipped, "", "any parenthesised tail is cut from an id (\"slow (large memory)\" reads \"slow\"); polynfi cuts only the time"},
	{"multi-swe-bench", "redis", Redis, "invalid", "", "a test both passed and failed (two tests of one name) is in two sets: the reading is refused"},
	{"multi-swe-bench", "automake_jq", Automake, "", Passed, "a test whose name holds a space (a TAP test's \"file 3 - title\") is not read"},
	{"multi-swe-bench", "automake_jq", Automake, "", XFail, "XFAIL lines are not read"},
	{"multi-swe-bench", "automake_jq", Automake, "", XPass, "XPASS lines are not read"},
	{"multi-swe-bench", "automake_jq", Automake, "", Error, "ERROR lines are not read"},
	{"multi-swe-bench", "minitest", Minitest, Failed, Error, "minitest's errors (E) are failed tests"},
	{"multi-swe-bench", "minitest", Minitest, Passed, "", "test-unit's verbose lines are read too, with the method name alone as id"},
	{"multi-swe-bench", "minitest", Minitest, Failed, "", "test-unit's verbose lines are read too, with the method name alone as id"},
	{"multi-swe-bench", "minitest", Minitest, "", Skipped, "skipped tests (S) are not read"},
}
