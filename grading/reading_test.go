package grading

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/polynfi/polynfi/testlog"
)

func TestExpectedIDs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		ids     []string
		fw      string
		workdir string
		want    []string
	}{
		{"pytest node ids", []string{"t/test_a.py::TestA::test_x[1]", "t/test_a.py::test_y", "t/test_a.py:None:test_z"}, "pytest", "",
			[]string{"t/test_a.py:TestA:test_x[1]", "t/test_a.py:None:test_y", "t/test_a.py:None:test_z"}},
		{"node ids stay for other frameworks", []string{"t/test_a.py::test_y"}, "junit", "", []string{"t/test_a.py::test_y"}},
		{"unittest verbose ids", []string{"test_x (app.tests.TestA)", "Docstring line"}, "unittest", "",
			[]string{"app.tests.TestA:test_x:", "Docstring line"}},
		{"Jest ids lose the container workdir", []string{"/testbed/test/a.test.ts->adds", "/other/b.test.ts->x"}, "jest", "/testbed",
			[]string{"test/a.test.ts->adds", "/other/b.test.ts->x"}},
		{"root workdir is not stripped", []string{"/a.test.js->x"}, "jest", "/", []string{"/a.test.js->x"}},
	} {
		if got := ExpectedIDs(tc.ids, tc.fw, tc.workdir); !cmp.Equal(got, tc.want) {
			t.Errorf("%s: expectedIDs = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestChooseReading(t *testing.T) {
	t.Parallel()
	junit := candidate{"junit", res("tests.test_a.TestA.test_x", "PASSED")}
	pytest := candidate{"pytest", res("tests/test_a.py:TestA:test_x", "PASSED", "tests/my-pkg/test_b.py:None:test_y[0.5]", "FAILED")}
	tap := candidate{"tap", res("adds", "PASSED")}
	pbTAP := candidate{"tap", res("1 - adds", "PASSED")}
	for _, tc := range []struct {
		name        string
		cands       []candidate
		f2p, p2p    []string
		wantFW      string
		wantResults []testlog.Result
	}{
		{"the log names the tests, JUnit does not", []candidate{junit, pytest}, []string{"tests/test_a.py::TestA::test_x"}, nil,
			"pytest", pytest.results},
		{"a tie goes to JUnit", []candidate{junit, pytest}, []string{"nothing"}, nil, "junit", junit.results},
		{"SWE-PolyBench pytest aliases", []candidate{pytest}, []string{"tests/test_a.py:TestA:test_x"}, []string{"pkg/test_b.py:None:test_y"},
			"pytest", res("tests/test_a.py:TestA:test_x", "PASSED", "pkg/test_b.py:None:test_y", "FAILED")},
		{"unittest ids read from Python 3.11 lines by SWE-PolyBench", []candidate{{"unittest", res("app.t.TestA:test_x:", "PASSED", "app.t.TestA:test_y:i=1", "FAILED")}},
			[]string{"app.t.TestA.test_x:test_x:"}, []string{"app.t.TestA.test_y:test_y:i=1", "app.t.TestA:test_z:"},
			"unittest", res("app.t.TestA.test_x:test_x:", "PASSED", "app.t.TestA.test_y:test_y:i=1", "FAILED")},
		{"absolute Jest ids without a WORKDIR", []candidate{{"jest", res("test/a.test.ts->adds", "PASSED", "test/b.test.ts->x", "FAILED")}},
			[]string{"/testbed/test/a.test.ts->adds"}, []string{"/x/test/b.test.ts->x", "/y/test/b.test.ts->x"},
			"jest", res("/testbed/test/a.test.ts->adds", "PASSED", "test/b.test.ts->x", "FAILED")},
		{"TAP ids with test numbers", []candidate{tap, pbTAP}, []string{"1 - adds"}, nil, "tap", pbTAP.results},
		{"TAP ids without", []candidate{tap, pbTAP}, []string{"adds"}, nil, "tap", tap.results},
		{"nothing read", nil, []string{"a"}, nil, "", nil},
	} {
		fw, results, _, _ := chooseReading(tc.cands, tc.f2p, tc.p2p, "")
		if fw != tc.wantFW || !cmp.Equal(results, tc.wantResults) {
			t.Errorf("%s: chose %q %v, want %q %v", tc.name, fw, results, tc.wantFW, tc.wantResults)
		}
	}
}
