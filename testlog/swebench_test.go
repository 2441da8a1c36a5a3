package testlog

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/internal/swebenchoracle"
)

func readSWEB(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "swebench", name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func pairs(rs []Result) [][2]string {
	out := make([][2]string, len(rs))
	for i, r := range rs {
		out[i] = [2]string{r.ID, string(r.Status)}
	}
	return out
}

var immutableCtx = SWEBenchContext{InstanceID: "immutable-js__immutable-js-2006"}

// Parsers on logs written in their frameworks' real output formats, with
// the status maps SWE-bench 5.0.2's parsers of those names give (checked
// against it in TestParseSWEBenchOracle): ids as SWE-bench spells them, one
// entry per id with the last status, in order of first appearance.
func TestParseSWEBench(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		parser string
		want   [][2]string
	}{
		{"parse_log_pytest", [][2]string{
			// "PASSED [100%]" and the wrapped "PASSED [" lines of inner
			// sessions' live-log output are read as ids: published
			// PASS_TO_PASS lists (pytest-5227) expect them. "SKIPPED [1]"
			// is a count, not read; XPASS is not a status; ERROR after
			// PASSED wins (last status).
			{"[100%]", "PASSED"}, {"[", "PASSED"}, {"[100%]------------------------------", "PASSED"},
			{"testing/logging/test_reporting.py::test_nothing_logged", "PASSED"},
			{"testing/logging/test_reporting.py::test_messages_logged", "ERROR"},
			{"testing/logging/test_reporting.py::test_live_logging_suspends_capture[True]", "PASSED"},
			{"testing/logging/test_reporting.py::test_formatter_level[True]", "FAILED"},
			{"testing/logging/test_reporting.py::test_log_cli_default_level", "PASSED"},
			{"testing/logging/test_reporting.py::test_sections_single_new_line_after_test_outcome", "PASSED"},
			{"testing/logging/test_reporting.py::test_xfailing", "XFAIL"},
		}},
		{"parse_log_pytest_options", [][2]string{
			{"tests/test_requests.py::TestRequests::test_entry_points", "PASSED"},
			{"tests/test_requests.py::test_data_argument_accepts_tuples[data0]", "PASSED"},
			{"tests/test_requests.py::test_file_path[/file.txt]", "PASSED"}, // absolute path parameter: last component
			{"tests/test_requests.py::test_url_glob[/srv/*/index.html]", "PASSED"},
			{"tests/test_requests.py::test_scheme[//host/path]", "PASSED"},
			{"tests/test_requests.py::test_proxy[http://proxy/a/b]", "FAILED"}, // text after the last "]" dropped
		}},
		{"parse_log_django", [][2]string{
			{"test_ascii_validator (auth_tests.test_validators.UsernameValidatorsTests)", "PASSED"},
			{"test_unicode_validator (auth_tests.test_validators.UsernameValidatorsTests)", "FAILED"},
			{"test_help_text (auth_tests.test_validators.MinimumLengthValidatorTest)", "PASSED"},
			{"test_validate (auth_tests.test_validators.UserAttributeSimilarityValidatorTest)", "SKIPPED"},
			{"test_validate_property (auth_tests.test_validators.UserAttributeSimilarityValidatorTest)", "ERROR"},
			{"test_multiline (auth_tests.test_validators.CommonPasswordValidatorTest)", "PASSED"},
			{"test_empty_password_validator_help_text_html (auth_tests.test_validators.PasswordValidationTest)", "PASSED"},
			{"--version is equivalent to version", "PASSED"},
			{"test_validate_property", "ERROR"},
			{"test_unicode_validator", "FAILED"},
		}},
		{"parse_log_sympy", [][2]string{
			{"sympy/core/tests/test_numbers.py:test_divmod", "FAILED"},
			{"test_integers", "PASSED"}, {"test_mod", "ERROR"}, {"test_divmod", "FAILED"}, {"test_Float_idempotence", "PASSED"},
		}},
		{"parse_log_maven", [][2]string{
			{"com.google.gson.functional.EnumTest#testEnumCaseMapping", "PASSED"},
			{"com.google.gson.internal.bind.JsonTreeReaderTest#testSkipValue_filledJsonObject", "FAILED"},
			{"com.google.gson.ParameterizedTypeTest", "PASSED"},
			{"com.google.gson.JsonArrayTest#testRemove", "FAILED"},
		}},
		{"parse_log_gradle_custom", [][2]string{
			{"io.reactivex.rxjava3.core.FlowableTest > testRange", "PASSED"},
			{"io.reactivex.rxjava3.core.FlowableTest > testMap", "FAILED"},
			{"io.reactivex.rxjava3.core.FlowableTest > testJust", "PASSED"},
		}},
		{"parse_log_ant", [][2]string{
			{"lombok.transform.TestWithDelombok#checkGetter", "PASSED"},
			{"lombok.transform.TestWithDelombok#checkBuilder", "PASSED"},
			{"lombok.transform.TestWithDelombok#checkValue", "FAILED"},
		}},
		{"parse_log_jest", [][2]string{
			{"parses arrow functions", "PASSED"}, {"handles a title with (parentheses)", "PASSED"},
			{"parses decorators", "FAILED"}, {"skipped parses pipelines", "SKIPPED"},
		}},
		{"parse_log_karma", [][2]string{
			{"render() > should render text", "PASSED"}, {"render() > should render a fragment", "FAILED"},
			{"render() > hooks > runs effects", "PASSED"}, {"render() > passes the value", "PASSED"},
		}},
		{"parse_log_tap", [][2]string{
			{"should support HTTP protocol", "PASSED"}, {"should support sockets", "FAILED"},
			{"skipped one # SKIP no network", "PASSED"}, {"nested subtest", "PASSED"},
		}},
	} {
		got, err := ParseSWEBench(tc.parser, readSWEB(t, tc.parser), immutableCtx)
		if err != nil {
			t.Errorf("%s: %v", tc.parser, err)
			continue
		}
		if diff := cmp.Diff(tc.want, pairs(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.parser, diff)
		}
	}
	if _, err := ParseSWEBench("parse_log_calypso", []byte("x"), SWEBenchContext{}); err == nil || SWEBenchParserKnown("parse_log_calypso") {
		t.Error("an unimplemented parser is reported known")
	}
	if _, err := ParseSWEBench("parse_log_immutable_js", []byte("x"), SWEBenchContext{InstanceID: "immutable-js__immutable-js-1"}); err == nil {
		t.Error("parse_log_immutable_js for an instance SWE-bench has no parser for: no error")
	}
}

// extraSWEBLogs are small logs with the edge cases of each parser, for the
// comparison with SWE-bench itself.
var extraSWEBLogs = []struct{ parser, log string }{
	{"parse_log_pytest", "PASSED\nFAILED\nPASSEDX a.py::t\nSKIPPED [12] a.py:3: no\nSKIPPED a.py::t\nFAILED a.py::t - x - y\r\nERROR a.py - ImportError\nXFAIL a.py::x reason\n\x1b[32mPASSED\x1b[0m a.py::c\n\x1cPASSED a.py::d\nPASSED\u00a0a.py::e\n"},
	{"parse_log_pytest_options", "PASSED a.py::t[/a/b/c]\nPASSED a.py::t[x][/y/z]\nPASSED a.py::t[a[/q/r]]\nPASSED a.py::u[]\n"},
	{"parse_log_pytest_v2", "\x1b[1mPASSED\x1b[0m a.py::t\nFAILED a.py::u - E - F\na.py::v XFAIL\nnothing\n\tSKIPPED [3] a.py:1\n"},
	{"parse_log_seaborn", "a.py::t PASSED [ 5%]\nFAILED a.py::u\nPASSED a.py::v\nx PASSED \n"},
	{"parse_log_django", "test_a (m.T) ... ok\ntest_b (m.T) ... OK\ntest_c (m.T) ...  OK\nFAIL:\nERROR: test_d (m.T)\nApplying sites.0002_alter_domain_unique...test_no_migrations (m.T) ... ok\ntest_e (m.T) ... Testing against Django installed in '/x' with up to 8 processes\nSystem check identified no issues (0 silenced).\nok\ntest_f (m.T) ... System check identified no issues (0 silenced)\nok\n"},
	{"parse_log_sympy", "____ sympy/a.py:test_x ____\ntest_y ok\ntest_z F\ntest_w E\n  test_v ok  \n"},
	{"parse_log_matplotlib", "PASSED a.py::t[MouseButton.LEFT-MouseButton.RIGHT]\n"},
	{"parse_log_maven", "BUILD SUCCESS\n+ mvn -Dtest=A#a test\n+ mvn -Dtest=B test -Dtest=C\nBUILD FAILURE\n"},
	{"parse_log_vitest", " ✓ a > b 12ms\n × a > c\n ↓ a > d [skipped]\n ✓ a > e 3 ms\n"},
	{"parse_log_jest_json", "[PASSED] a\n [FAILED] b \n[SKIPPED] c\n"},
	{"parse_log_karma", "Starting browser\n  A\n    ✔ one\n      B\n      ✖ two\n  C\n✔ three\nSUMMARY:\n  ✔ four\n"},
	{"parse_log_tap", "ok 1 a\nnot ok 2 b # TODO later\nok three\n  not ok 4 nested\n"},
	{"parse_log_gradle_custom", "A > a PASSED\n> Task :test PASSED\nB > b\nFAILED\nC > c\nnoise\nPASSED\n"},
	{"parse_log_ant", "[junit] [PASS] a\n   [junit]   [ERR]   b c\n"},
}

// TestParseSWEBenchOracle compares every parser with SWE-bench 5.0.2's
// parser of the same name, run by Python on the same bytes: the logs of
// testdata/swebench and the edge cases of extraSWEBLogs.
func TestParseSWEBenchOracle(t *testing.T) {
	t.Parallel()
	swebenchoracle.Require(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "swebench", "*.log"))
	type input struct{ name, parser, log string }
	var ins []input
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := strings.TrimSuffix(filepath.Base(f), ".log")
		ins = append(ins, input{filepath.Base(f), p, string(b)})
	}
	for i, x := range extraSWEBLogs {
		ins = append(ins, input{"extra " + x.parser + " #" + string(rune('0'+i%10)), x.parser, x.log})
	}
	// Every implemented name runs on every log of its family at least once:
	// the aliases too.
	var names []string
	for n := range swebParsers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, f := range files {
			base := strings.TrimSuffix(filepath.Base(f), ".log")
			if base != n && sameSWEBParser(n, base) {
				b, _ := os.ReadFile(f)
				ins = append(ins, input{filepath.Base(f) + " as " + n, n, string(b)})
			}
		}
	}
	reqs := make([]swebenchoracle.ParseRequest, len(ins))
	for i, x := range ins {
		reqs[i] = swebenchoracle.ParseRequest{Parser: x.parser, Log: x.log, InstanceID: immutableCtx.InstanceID}
	}
	want, _ := swebenchoracle.Run(t, reqs, nil)
	for i, x := range ins {
		got, err := ParseSWEBench(x.parser, []byte(x.log), immutableCtx)
		if want[i].Error != "" {
			if err == nil {
				t.Errorf("%s: SWE-bench raised %s, polynfi did not fail", x.name, want[i].Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", x.name, err)
			continue
		}
		w := want[i].Results
		if w == nil {
			w = [][2]string{}
		}
		if diff := cmp.Diff(w, pairs(got)); diff != "" {
			t.Errorf("%s with %s: polynfi differs from SWE-bench %s (-swebench +polynfi):\n%s", x.name, x.parser, swebenchoracle.Version, diff)
		}
	}
	t.Logf("%d logs compared with SWE-bench %s", len(ins), swebenchoracle.Version)
}

// sameSWEBParser: name is an alias of the parser the log was written for
// (the same function in SWE-bench's registry).
func sameSWEBParser(name, base string) bool {
	a, b := swebParsers[name], swebParsers[base]
	if a == nil || b == nil {
		return false
	}
	return funcName(a) == funcName(b)
}

func funcName(p swebParser) string { return runtimeFuncName(p) }
