package grading

import (
	"testing"

	"github.com/polynfi/polynfi/testlog"
)

func TestGradeSWEBenchPro(t *testing.T) {
	f2p, p2p := []string{"t::fixed"}, []string{"t::kept"}
	pass := func(n string) ProTest { return ProTest{Name: n, Status: "PASSED"} }
	ran := []testlog.Result{{ID: "t::fixed", Status: testlog.Passed}}
	cases := []struct {
		name    string
		parse   *ProParse
		results []testlog.Result
		exit    int
		timeout bool
		want    Status
	}{
		{"all passed", &ProParse{Tests: []ProTest{pass("t::fixed"), pass("t::kept"), {Name: "t::other", Status: "FAILED"}}}, ran, 1, false, StatusResolved},
		{"f2p failed", &ProParse{Tests: []ProTest{{Name: "t::fixed", Status: "FAILED"}, pass("t::kept")}}, ran, 1, false, StatusUnresolved},
		{"p2p missing", &ProParse{Tests: []ProTest{pass("t::fixed")}}, ran, 0, false, StatusUnresolved},
		{"skipped is not passed", &ProParse{Tests: []ProTest{pass("t::fixed"), {Name: "t::kept", Status: "SKIPPED"}}}, ran, 0, false, StatusUnresolved},
		{"forged beside the real line", &ProParse{Tests: []ProTest{pass("t::fixed"), {Name: "t::fixed", Status: "FAILED"}, pass("t::kept")}}, ran, 1, false, StatusUnresolved},
		{"polynfi's reading dissents", &ProParse{Tests: []ProTest{pass("t::fixed"), pass("t::kept")}}, []testlog.Result{{ID: "t::fixed", Status: testlog.Failed}}, 0, false, StatusUnresolved},
		{"exit non-zero, nothing failed", &ProParse{Tests: []ProTest{pass("t::fixed"), pass("t::kept")}}, ran, 2, false, StatusInconsistent},
		{"no runner's report in the log", &ProParse{Tests: []ProTest{pass("t::fixed"), pass("t::kept")}}, nil, 0, false, StatusUnresolved},
		{"parser error", &ProParse{Err: "parser.py exited 1"}, nil, 0, false, StatusError},
		{"parser not run", nil, nil, 0, false, StatusError},
		{"timed out", nil, nil, -1, true, StatusTimedOut},
	}
	for _, c := range cases {
		v := GradeSWEBenchPro(f2p, p2p, c.parse, c.results, c.exit, c.timeout)
		if v.Status != c.want || v.Resolved != (c.want == StatusResolved) {
			t.Errorf("%s: got %s (%s), want %s", c.name, v.Status, v.Reason, c.want)
		}
		if c.want != StatusResolved && v.Reason == "" {
			t.Errorf("%s: no reason", c.name)
		}
	}
}
