package testlog

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenCases are the real logs recorded by testdata/record.sh and the
// framework that wrote each.
var goldenCases = []struct {
	log string
	fw  Framework
}{
	{"pytest-rA.log", Pytest},
	{"pytest-verbose.log", Pytest},
	{"pytest-verbose-only.log", Pytest},
	{"junit-pytest.xml", JUnit},
	{"unittest.log", Unittest},
	{"jest.log", Jest},
	{"mocha.log", Mocha},
	{"tap.log", TAP},
	{"gotest.log", GoTest},
	{"surefire.log", Surefire},
	{"surefire-xml.log", Surefire},
	{"junit-surefire.xml", JUnit},
}

func formatResults(rs []Result) []byte {
	var b bytes.Buffer
	for _, r := range rs {
		fmt.Fprintf(&b, "%s\t%s\n", r.Status, r.ID)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range goldenCases {
		t.Run(tc.log, func(t *testing.T) {
			t.Parallel()
			log, err := os.ReadFile(filepath.Join("testdata", "logs", tc.log))
			if err != nil {
				t.Fatal(err)
			}
			rs, err := Parse(tc.fw, log)
			if err != nil {
				t.Fatalf("Parse(%s): %v", tc.fw, err)
			}
			got := formatResults(rs)
			golden := filepath.Join("testdata", "golden", strings.TrimSuffix(tc.log, filepath.Ext(tc.log))+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./testlog -update)", err)
			}
			if d := cmp.Diff(string(want), string(got)); d != "" {
				t.Errorf("Parse(%s, %s) differs from %s (-want +got):\n%s", tc.fw, tc.log, golden, d)
			}
			if len(rs) == 0 {
				t.Errorf("Parse(%s, %s) found no tests", tc.fw, tc.log)
			}
		})
	}
}

func TestDetectRecordedLogs(t *testing.T) {
	t.Parallel()
	for _, tc := range goldenCases {
		log, err := os.ReadFile(filepath.Join("testdata", "logs", tc.log))
		if err != nil {
			t.Fatal(err)
		}
		want := tc.fw
		if tc.log == "surefire-xml.log" || tc.log == "surefire.log" {
			want = Surefire
		}
		got, ok := Detect(log)
		if !ok || got != want {
			t.Errorf("Detect(%s) = %q, %v; want %q, true", tc.log, got, ok, want)
		}
	}
	if fw, ok := Detect([]byte("hello\nworld\n")); ok {
		t.Errorf("Detect(plain text) = %q, true; want false", fw)
	}
}

// TestStatusesPerFramework pins the statuses of specific tests in the
// recorded logs, the facts the goldens are reviewed against.
func TestStatusesPerFramework(t *testing.T) {
	t.Parallel()
	cases := []struct {
		log  string
		fw   Framework
		want map[string]Status
	}{
		{"pytest-rA.log", Pytest, map[string]Status{
			"tests/test_calc.py:None:test_add":                    Passed,
			"tests/test_calc.py:None:test_add_wrong":              Failed,
			"tests/test_calc.py:None:test_add_param[2--2-0]":      Passed,
			"tests/test_calc.py:None:test_add_param[x-y-yx]":      Failed,
			"tests/test_calc.py:None:test_xfail":                  XFail,
			"tests/test_calc.py:None:test_xpass":                  XPass,
			"tests/test_calc.py:None:test_setup_error":            Error,
			"tests/test_calc.py:None:test_teardown_error":         Error,
			"tests/test_calc.py:TestDivide:test_prints":           Failed,
			"tests/test_calc.py:TestDivide.TestNested:test_inner": Passed,
		}},
		{"pytest-verbose.log", Pytest, map[string]Status{
			"tests/test_calc.py:None:test_skipped": Skipped,
		}},
		{"unittest.log", Unittest, map[string]Status{
			"calc.test_calc.TestArith:test_add:":                Passed,
			"calc.test_calc.TestArith:test_documented:":         Passed,
			"calc.test_calc.TestArith:test_sub_wrong:":          Failed,
			"calc.test_calc.TestArith:test_error:":              Error,
			"calc.test_calc.TestArith:test_skipped:":            Skipped,
			"calc.test_calc.TestArith:test_expected_failure:":   XFail,
			"calc.test_calc.TestArith:test_unexpected_success:": XPass,
			"calc.test_calc.TestArith:test_subtests:i=1":        Failed,
			"calc.test_calc.TestStrings:test_upper:":            Passed,
			"calc.test_calc.TestArith:test_prints:":             Passed,
		}},
		{"jest.log", Jest, map[string]Status{
			"/workspace/math.test.js->clamp keeps values inside the range":               Passed,
			"/workspace/math.test.js->clamp upper bound is exclusive (wrong on purpose)": Failed,
			"/workspace/math.test.js->clamp handles NaN":                                 Skipped,
			"/workspace/math.test.js->clamp handles inverted bounds":                     Skipped,
			"/workspace/broken.test.js":                                                  Error,
		}},
		{"mocha.log", Mocha, map[string]Status{
			"Stack starts empty": Passed,
			"Stack peek returns undefined when empty (wrong on purpose)": Failed,
			"Stack is thread safe":                   Skipped,
			`Queue "before all" hook for "enqueues"`: Error,
		}},
		{"tap.log", TAP, map[string]Status{
			"range > counts from zero":         Passed,
			"range > nested group > deep leaf": Passed,
			"range":                            Passed,
			"range of negative length throws (wrong on purpose)": Failed,
			"skipped with a # hash":                              Skipped,
			"todo that fails":                                    XFail,
			"todo that passes":                                   Passed,
		}},
		{"gotest.log", GoTest, map[string]Status{
			"example.com/stack/stack.TestPush":            Passed,
			"example.com/stack/stack.TestPopWrong":        Failed,
			"example.com/stack/stack.TestSkipped":         Skipped,
			"example.com/stack/stack.TestTable/two_items": Passed,
			"example.com/stack/stack.TestTable/bad":       Failed,
		}},
		{"surefire.log", Surefire, map[string]Status{
			"org.example.shapes.CircleTest.areaWrongOnPurpose": Failed,
			"org.example.shapes.CircleTest.throwsOnPurpose":    Error,
		}},
		{"surefire-xml.log", Surefire, map[string]Status{
			"org.example.shapes.CircleTest.unitArea":               Passed,
			"org.example.shapes.CircleTest.areaWrongOnPurpose":     Failed,
			"org.example.shapes.CircleTest.throwsOnPurpose":        Error,
			"org.example.shapes.CircleTest.perimeter":              Skipped,
			"org.example.shapes.CircleTest.nonNegative(double)[2]": Passed,
			"org.example.shapes.CircleTest$Zero.zeroArea":          Passed,
			"org.example.shapes.SquareTest.side":                   Passed,
		}},
	}
	for _, tc := range cases {
		log, err := os.ReadFile(filepath.Join("testdata", "logs", tc.log))
		if err != nil {
			t.Fatal(err)
		}
		rs, err := Parse(tc.fw, log)
		if err != nil {
			t.Fatal(err)
		}
		got := ToMap(rs)
		for id, want := range tc.want {
			if got[id] != want {
				t.Errorf("%s: status of %q = %q, want %q", tc.log, id, got[id], want)
			}
		}
	}
}

func TestPytestSummaryKeepsDuplicates(t *testing.T) {
	t.Parallel()
	log, err := os.ReadFile(filepath.Join("testdata", "logs", "pytest-rA.log"))
	if err != nil {
		t.Fatal(err)
	}
	rs, _ := Parse(Pytest, log)
	var got []Status
	for _, r := range rs {
		if r.ID == "tests/test_calc.py:None:test_teardown_error" {
			got = append(got, r.Status)
		}
	}
	if d := cmp.Diff([]Status{Passed, Error}, got); d != "" {
		t.Errorf("teardown-error test statuses (-want +got):\n%s", d)
	}
}

func TestUnittestPre311Format(t *testing.T) {
	t.Parallel()
	log := []byte(`test_a (pkg.test_m.TestX) ... ok
test_b (pkg.test_m.TestX)
Docstring line. ... FAIL
test_c (pkg.test_m.TestX) ... printed by the test
ERROR
test_d (pkg.test_m.TestX) ... skipped 'why'

======================================================================
FAIL: test_b (pkg.test_m.TestX)
----------------------------------------------------------------------
FAIL: test_e (pkg.test_m.TestX) (n=2)
----------------------------------------------------------------------
Ran 5 tests in 0.001s
`)
	want := []Result{
		{"pkg.test_m.TestX:test_a:", Passed},
		{"pkg.test_m.TestX:test_b:", Failed},
		{"pkg.test_m.TestX:test_c:", Error},
		{"pkg.test_m.TestX:test_d:", Skipped},
		{"pkg.test_m.TestX:test_e:n=2", Failed},
	}
	got, _ := Parse(Unittest, log)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Parse(unittest) (-want +got):\n%s", d)
	}
}

// TestQuietMavenLog: mvn -q prints no summary lines; the reports cat'ed after
// it (two XML documents after an escape sequence) are still found.
func TestQuietMavenLog(t *testing.T) {
	t.Parallel()
	log := []byte("\x1b[0m\x1b[0m<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" +
		`<testsuite name="a.BTest" tests="1"><testcase name="one" classname="a.BTest"/></testsuite>` + "\n" +
		`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<testsuite name="a.CTest" tests="1"><testcase name="two" classname="a.CTest"><failure/></testcase></testsuite>` +
		"Container exited with status code 1\n")
	fw, ok := Detect(log)
	if !ok || fw != Surefire {
		t.Fatalf("Detect = %q, %v; want surefire, true", fw, ok)
	}
	got, err := Parse(fw, log)
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{{"a.BTest.one", Passed}, {"a.CTest.two", Failed}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Parse (-want +got):\n%s", d)
	}
}

func TestSurefire2Console(t *testing.T) {
	t.Parallel()
	log := []byte("[INFO] Running com.acme.FooTest\n" +
		"[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in com.acme.FooTest\n" +
		"[ERROR] testBar(com.acme.FooTest)  Time elapsed: 0.01 s  <<< FAILURE!\n")
	want := []Result{{"com.acme.FooTest.testBar", Failed}}
	got, _ := Parse(Surefire, log)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Parse(surefire 2.x) (-want +got):\n%s", d)
	}
}

func TestPytestIDConversion(t *testing.T) {
	t.Parallel()
	cases := []struct{ node, poly string }{
		{"tests/t.py::test_a", "tests/t.py:None:test_a"},
		{"tests/t.py::TestA::test_b", "tests/t.py:TestA:test_b"},
		{"t.py::A::B::test_c[1-x::y]", "t.py:A.B:test_c[1-x::y]"},
		{"tests/t.py", "tests/t.py"},
	}
	for _, c := range cases {
		if got := PolyBenchPytestID(c.node); got != c.poly {
			t.Errorf("PolyBenchPytestID(%q) = %q, want %q", c.node, got, c.poly)
		}
		if got := PytestNodeID(c.poly); got != c.node {
			t.Errorf("PytestNodeID(%q) = %q, want %q", c.poly, got, c.node)
		}
	}
	if got := PytestNodeID("pkg.mod.Class:test:"); got != "pkg.mod.Class:test:" {
		t.Errorf("PytestNodeID(unittest id) = %q, want it unchanged", got)
	}
}

func TestParseUnknownFramework(t *testing.T) {
	t.Parallel()
	if _, err := Parse("nosuchrunner", []byte("x")); err == nil {
		t.Error("Parse(nosuchrunner) = nil error, want an error")
	}
}

func TestParseJUnitXMLMalformed(t *testing.T) {
	t.Parallel()
	in := `<testsuite><testcase classname="a.B" name="c"/><testcase classname="a.B" name="d"><failure>`
	rs, err := ParseJUnitXML(strings.NewReader(in))
	if err == nil {
		t.Fatal("ParseJUnitXML(truncated) = nil error, want an error")
	}
	if d := cmp.Diff([]Result{{"a.B.c", Passed}}, rs); d != "" {
		t.Errorf("results before the defect (-want +got):\n%s", d)
	}
}

func TestParseJUnitXMLNestedSuites(t *testing.T) {
	t.Parallel()
	in := `<?xml version="1.0"?><testsuites><testsuite name="outer"><testsuite name="inner">
<testcase classname="m" name="ok"/><testcase name="bare"><skipped/></testcase>
<testcase classname="m" name="e"><error message="x"/></testcase>
<testcase classname="m" name="flaky"><flakyFailure message="first try"/></testcase>
</testsuite></testsuite></testsuites>`
	rs, err := ParseJUnitXML(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{{"m.ok", Passed}, {"bare", Skipped}, {"m.e", Error}, {"m.flaky", Passed}}
	if d := cmp.Diff(want, rs); d != "" {
		t.Errorf("ParseJUnitXML (-want +got):\n%s", d)
	}
}

func TestToMapLastWins(t *testing.T) {
	t.Parallel()
	m := ToMap([]Result{{"a", Passed}, {"b", Failed}, {"a", Error}})
	if d := cmp.Diff(map[string]Status{"a": Error, "b": Failed}, m); d != "" {
		t.Errorf("ToMap (-want +got):\n%s", d)
	}
}

func TestTrimWorkspace(t *testing.T) {
	t.Parallel()
	in := []Result{{"/tmp/ws/src/a.test.ts->x", Passed}, {"other->y", Failed}}
	got := TrimWorkspace(in, "/tmp/ws/")
	want := []Result{{"src/a.test.ts->x", Passed}, {"other->y", Failed}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("TrimWorkspace (-want +got):\n%s", d)
	}
	if in[0].ID != "/tmp/ws/src/a.test.ts->x" {
		t.Errorf("TrimWorkspace modified its input: %q", in[0].ID)
	}
}

func TestFindJUnitReports(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	files := []string{
		"target/surefire-reports/TEST-a.B.xml",
		"target/surefire-reports/a.B.txt",
		"core/target/surefire-reports/TEST-c.D.xml",
		"junit.xml",
		"reports/junit-e2e.xml",
		"build/test-results/test/TEST-x.Y.xml",
		"src/junit.xml",
	}
	for _, f := range files {
		p := filepath.Join(ws, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("<testsuite/>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(ws, "target/surefire-reports/TEST-dir.xml"), 0o755); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range FindJUnitReports(ws) {
		rel, _ := filepath.Rel(ws, p)
		got = append(got, rel)
	}
	want := []string{
		"build/test-results/test/TEST-x.Y.xml",
		"core/target/surefire-reports/TEST-c.D.xml",
		"junit.xml",
		"reports/junit-e2e.xml",
		"target/surefire-reports/TEST-a.B.xml",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("FindJUnitReports (-want +got):\n%s", d)
	}
	if got := FindJUnitReports(filepath.Join(ws, "missing")); got != nil {
		t.Errorf("FindJUnitReports(missing) = %v, want nil", got)
	}
}

func BenchmarkParsePytest(b *testing.B) {
	log, err := os.ReadFile(filepath.Join("testdata", "logs", "pytest-verbose.log"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		if _, err := Parse(Pytest, log); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseSurefireXML(b *testing.B) {
	log, err := os.ReadFile(filepath.Join("testdata", "logs", "surefire-xml.log"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(log)))
	for b.Loop() {
		if _, err := Parse(Surefire, log); err != nil {
			b.Fatal(err)
		}
	}
}
