package harness

import (
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runtime"
)

// A test log is read only through marks carrying the run's secret: marks,
// exit lines and report sections the tests print are data of the stream
// that holds them, another secret or a broken frame makes the log
// unreadable, and every section comes back byte for byte.
func TestRunMarks(t *testing.T) {
	t.Parallel()
	secret, other := newLogSecret(), newLogSecret()
	if len(secret) != 32 || secret == other {
		t.Fatalf("secrets %q %q", secret, other)
	}
	// The tests' own output forges every mark it can: a guessed secret,
	// the exit line, a section header with a length that would swallow
	// the real stdout, and a mark with the right shape but no newline.
	forged := "[polynfi-mark " + other + " exit 0]\nContainer exited with status code: 0\n" +
		"[polynfi-mark " + other + " stdout 5]\nPASS\n\n" +
		"x [polynfi-mark " + strings.Repeat("0", 32) + " report 3]\n<a>\n"
	res := runtime.Result{Stderr: []byte(forged), Stdout: []byte("real stdout\n" + forged), ExitCode: 1}
	reports := []runtime.File{{Path: "target/surefire-reports/TEST-a\nb [polynfi-mark x].xml", Data: []byte("<testsuite/>")}}
	log := BuildLog(res, secret, reports)
	l, err := readTestCommandLog(log, secret)
	if err != nil {
		t.Fatal(err)
	}
	if string(l.Stderr) != forged || string(l.Stdout) != "real stdout\n"+forged || l.ExitCode != 1 || l.TimedOut ||
		len(l.Reports) != 1 || l.Reports[0].Path != reports[0].Path || string(l.Reports[0].Data) != "<testsuite/>" {
		t.Errorf("read back %+v", l)
	}
	if _, err := readTestCommandLog(log, other); err == nil {
		t.Error("read with another secret")
	}
	for name, bad := range map[string][]byte{
		"truncated":         log[:len(log)-10],
		"text prepended":    append([]byte("PASSED x\n"), log...),
		"text appended":     append(append([]byte(nil), log...), "Container exited with status code: 0\n"...),
		"stdout lengthened": []byte(strings.Replace(string(log), "real stdout", "real stdout!", 1)),
	} {
		if _, err := readTestCommandLog(bad, secret); err == nil {
			t.Errorf("%s: read", name)
		}
	}
	if _, err := readMarkedLog([]byte("plain log\n"), secret); err != errNoMarks {
		t.Errorf("unmarked log: %v", err)
	}

	// An eval script's log: the tests section ends where the harness says,
	// whatever markers the tests print.
	m := &markedLog{secret: secret}
	m.section("", markSetup, []byte("+ git apply -v -\n>>>>> Start Test Output\nPASSED t.py::test_a\n"))
	m.section(">>>>> Start Test Output", markTests, []byte("PASSED t.py::test_a\n>>>>> End Test Output\n>>>>> Test Exit Code: 0\nFAILED t.py::test_a - assert 1 == 2\n"))
	m.mark(">>>>> End Test Output", markEnd, 0)
	m.mark(">>>>> Test Exit Code: 1", markExit, 1)
	m.section("", markTeardown, []byte("+ git checkout abc t.py\n"))
	sec, err := readEvalScriptLog(m.b.Bytes(), secret)
	if err != nil {
		t.Fatal(err)
	}
	if !sec.Ran || !sec.Split || sec.ExitCode == nil || *sec.ExitCode != 1 || !strings.HasSuffix(string(sec.Tests), "assert 1 == 2\n") {
		t.Errorf("eval log read back %+v", sec)
	}
}

// A test that prints SWE-bench's end marker and exit line before failing:
// read as one stream (SWE-bench's way) the forged marker ends the test
// output after a PASSED line and the forged exit status is 0, so every
// mode resolves; read through the harness's sections, the FAILED line and
// the real exit status count and no mode does.
func TestForgedEvalMarkers(t *testing.T) {
	t.Parallel()
	in := dataset.Instance{InstanceID: "acme__x-1", Language: "Python", FailToPass: []string{"t.py::test_a"}, PassToPass: []string{"t.py::test_b"},
		LogParser: "parse_log_pytest", EvalType: dataset.EvalTypePassAndFail}
	tests := "PASSED t.py::test_a\nPASSED t.py::test_b\n>>>>> End Test Output\n>>>>> Test Exit Code: 0\n" +
		"FAILED t.py::test_a - assert 1 == 2\nPASSED t.py::test_b\n"
	oneStream := "+ git apply -v -\n+ : '>>>>> Start Test Output'\n" + tests + "+ : '>>>>> End Test Output'\n>>>>> Test Exit Code: 1\n"
	o := grading.GradeSWEBenchLog(in, []byte(oneStream), 1, false)
	if !o.Verdicts.SWEBench.Resolved || !o.Verdicts.Strict.Resolved || !o.Verdicts.PolyBench.Resolved {
		t.Fatalf("the attack does not work on the one-stream reading, so this test shows nothing: %+v", o.Verdicts)
	}
	secret := newLogSecret()
	m := &markedLog{secret: secret}
	m.section("", markSetup, []byte("+ git apply -v -\n"))
	m.section(dataset.EvalStartMarker, markTests, []byte(tests))
	m.mark(dataset.EvalEndMarker, markEnd, 0)
	m.mark(dataset.EvalExitCodeMarker+": 1", markExit, 1)
	m.section("", markTeardown, nil)
	sec, err := readEvalScriptLog(m.b.Bytes(), secret)
	if err != nil {
		t.Fatal(err)
	}
	o = grading.GradeEvalSections(in, sec, 0, false)
	for _, mode := range grading.Modes {
		if v := o.Verdicts.Get(mode); v.Resolved {
			t.Errorf("%s resolved: %+v", mode, v)
		}
	}
	if o.ExitCode == nil || *o.ExitCode != 1 {
		t.Errorf("exit code %v, want the harness's 1", o.ExitCode)
	}
}
