package grading

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/swebenchoracle"
	"github.com/polynfi/polynfi/testlog"
)

// swebGradeLines are the lines random eval logs are made of: results in
// several statuses (ids sharing truncated prefixes), the markers, the exit
// status line, failure lines of the harness, runner summaries.
var swebGradeLines = []string{
	"PASSED a.py::t[x-1]", "PASSED a.py::t[x-2]", "FAILED a.py::t[x-2] - boom", "XFAIL a.py::u", "SKIPPED a.py::v", "ERROR a.py::w",
	"PASSED a.py::w", "FAILED a.py::z", "PASSEDX a.py::q", "PASSED [100%]", "SKIPPED [1] a.py:3: no",
	"+ : '>>>>> Start Test Output'", "+ : '>>>>> End Test Output'", ">>>>> Test Exit Code: 0", ">>>>> Test Exit Code: 1",
	">>>>> Test Exit Code: 2", ">>>>> Tests Errored", "4 passing (12ms)", "Tests:       0 total", "noise", "",
}

var swebGradeIDs = []string{"a.py::t[x-1]", "a.py::t[x-", "a.py::t[", "a.py::u", "a.py::v", "a.py::w", "a.py::z", "a.py::q", "[100%]", "a.py::missing"}

// TestSWEBenchGradingRandomOracle grades random eval logs and random test
// lists with polynfi and with SWE-bench 5.0.2 (fixed seed).
func TestSWEBenchGradingRandomOracle(t *testing.T) {
	t.Parallel()
	swebenchoracle.Require(t)
	r := rand.New(rand.NewSource(502))
	pick := func() []string {
		var out []string
		for i := r.Intn(4); i > 0; i-- {
			out = append(out, swebGradeIDs[r.Intn(len(swebGradeIDs))])
		}
		return out
	}
	var cases []swebenchoracle.GradeRequest
	for i := 0; i < 1000; i++ {
		var b strings.Builder
		framed := r.Intn(5) != 0 // most logs have the eval script's shape
		if framed {
			b.WriteString("+ : '>>>>> Start Test Output'\n")
		}
		for k := r.Intn(8); k >= 0; k-- {
			b.WriteString(swebGradeLines[r.Intn(len(swebGradeLines))])
			b.WriteByte('\n')
		}
		if framed {
			b.WriteString("+ : '>>>>> End Test Output'\n")
			if r.Intn(2) == 0 {
				b.WriteString([]string{">>>>> Test Exit Code: 0\n", ">>>>> Test Exit Code: 1\n"}[r.Intn(2)])
			}
		}
		et := ""
		if r.Intn(4) == 0 {
			et = "fail_only"
		}
		cases = append(cases, swebenchoracle.GradeRequest{Parser: "parse_log_pytest", Log: b.String(), EvalType: et, FailToPass: pick(), PassToPass: pick()})
	}
	_, want := swebenchoracle.Run(t, nil, cases)
	bad, resolved := 0, 0
	for i, c := range cases {
		rd := ReadSWEBenchLog(c.Parser, []byte(c.Log), testlog.SWEBenchContext{})
		v := GradeSWEBenchReading(c.FailToPass, c.PassToPass, c.EvalType, rd)
		w := want[i]
		same := w.Error == "" && rd.Found == w.Found && v.Resolved == w.Resolved
		if same && w.Found {
			same = strings.Join(v.FailToPass.Success, "\x00") == strings.Join(w.Report["FAIL_TO_PASS"]["success"], "\x00") &&
				strings.Join(v.FailToPass.Failure, "\x00") == strings.Join(w.Report["FAIL_TO_PASS"]["failure"], "\x00") &&
				strings.Join(v.PassToPass.Success, "\x00") == strings.Join(w.Report["PASS_TO_PASS"]["success"], "\x00") &&
				strings.Join(v.PassToPass.Failure, "\x00") == strings.Join(w.Report["PASS_TO_PASS"]["failure"], "\x00")
		}
		if w.Resolved {
			resolved++
		}
		if !same {
			bad++
			if bad <= 5 {
				t.Errorf("case %d %+v:\npolynfi found %v resolved %v %+v / %+v (%s)\nSWE-bench %+v", i, c, rd.Found, v.Resolved, v.FailToPass, v.PassToPass, rd.Reason, w)
			}
		}
	}
	t.Logf("%d random eval logs, %d resolved by SWE-bench %s, %d graded differently", len(cases), resolved, swebenchoracle.Version, bad)
}
