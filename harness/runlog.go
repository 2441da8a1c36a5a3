package harness

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runtime"
)

// Run marks: how the harness frames a test log so that nothing the tests
// print can pass for the harness's own lines (issue #13: "output markers
// carry a per-run secret the tests cannot know").
//
// Design. The tests' output reaches the harness as the captured streams of
// the runtime's Exec calls (runtime.Result.Stdout, Stderr). The harness,
// not the sandbox, writes every boundary line of the stored log after the
// commands have ended: a test log is a sequence of sections, each opened by
// a mark line the harness wrote,
//
//	<label> [polynfi-mark <secret> <kind> <arg>]
//
// followed, for the kinds that carry data (stderr, stdout, report, setup,
// tests, teardown), by exactly <arg> bytes of one stream and a newline; for
// the other kinds (exit, timeout, end) <arg> is a number (an exit status,
// a timeout in seconds) and no data follows. <secret> is 128 random bits
// drawn by the harness for the attempt (crypto/rand) and never passed into
// the sandbox: not in a file, an argument, the environment or a script the
// tests share. The harness draws it before the run, but the marks are
// written only after the last command of the attempt has ended, so no
// process of the attempt ever runs while a mark exists.
//
// The reader (readMarkedLog) walks the sections from the first byte, each
// mark line read where the previous section's length says it starts: a
// mark printed by the tests is data inside a section and never read as a
// boundary, and a mark whose secret is not the run's (Record.Test.LogSecret)
// makes the log unreadable as a whole. Exit statuses are taken from the
// marks (the runtime's exit codes), never from text in the streams.
//
// Where the published harnesses put text markers in the same stream as the
// tests' output (SWE-bench's ">>>>> Start Test Output" and ">>>>> End Test
// Output" echoed by the eval script, its ">>>>> Test Exit Code" line), the
// harness runs the script in three Exec calls split at those lines (setup,
// tests, teardown; runEvalScript) and writes the markers itself, as the
// labels of its marks; SWE-bench's own reader still finds them in the
// stored log.
//
// The labels keep the log readable as the published harnesses write it:
// "Container exited with status code: N" (SWE-PolyBench), "+ : '>>>>>
// Start Test Output'" and ">>>>> Test Exit Code: N" (SWE-bench).

// markPrefix opens the mark of a line.
const markPrefix = "[polynfi-mark "

// Section kinds.
const (
	markStderr   = "stderr"   // the test command's standard error
	markStdout   = "stdout"   // its standard output
	markReport   = "report"   // a JUnit XML report file the run wrote (label: its path, quoted)
	markSetup    = "setup"    // an eval script's lines before the tests
	markTests    = "tests"    // an eval script's test lines
	markTeardown = "teardown" // an eval script's lines after the tests
	markExit     = "exit"     // arg: the exit status
	markTimeout  = "timeout"  // arg: the timeout in seconds
	markEnd      = "end"      // the end of an eval script's tests (arg 0)
)

var dataKinds = map[string]bool{markStderr: true, markStdout: true, markReport: true, markSetup: true, markTests: true, markTeardown: true}

// newLogSecret draws an attempt's secret: 32 hex digits.
func newLogSecret() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("harness: no randomness for the run's secret: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// markedLog writes a framed log.
type markedLog struct {
	secret string
	b      bytes.Buffer
}

// mark writes a mark line without data.
func (m *markedLog) mark(label, kind string, arg int) {
	if label != "" {
		m.b.WriteString(label + " ")
	}
	fmt.Fprintf(&m.b, "%s%s %s %d]\n", markPrefix, m.secret, kind, arg)
}

// section writes a mark line and data.
func (m *markedLog) section(label, kind string, data []byte) {
	m.mark(label, kind, len(data))
	m.b.Write(data)
	m.b.WriteByte('\n')
}

// logSection is one section of a framed log.
type logSection struct {
	Label string
	Kind  string
	Arg   int    // the data's length, or the mark's number
	Data  []byte // nil for kinds without data
}

var reMark = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(.*) )?\[polynfi-mark ([0-9a-f]+) ([a-z]+) (-?\d+)\]$`)
})

// errNoMarks says a log carries no run marks at all (written by an
// earlier polynfi, or not by a harness).
var errNoMarks = errors.New("the log carries no run marks")

// readMarkedLog reads the sections of a framed log whose marks carry
// secret. The error says where the framing breaks (a line that is not a
// mark where one must start, another secret, a section longer than the
// log); errNoMarks when the first line is not a mark at all.
func readMarkedLog(log []byte, secret string) ([]logSection, error) {
	if secret == "" {
		return nil, errNoMarks
	}
	var out []logSection
	for pos := 0; pos < len(log); {
		nl := bytes.IndexByte(log[pos:], '\n')
		if nl < 0 {
			return nil, fmt.Errorf("byte %d: the log ends inside a mark line", pos)
		}
		line := string(log[pos : pos+nl])
		m := reMark().FindStringSubmatch(line)
		if m == nil {
			if pos == 0 {
				return nil, errNoMarks
			}
			return nil, fmt.Errorf("byte %d: a section must start here and the line is not a run mark", pos)
		}
		if m[2] != secret {
			return nil, fmt.Errorf("byte %d: the run mark carries another secret than the run's", pos)
		}
		arg, err := strconv.Atoi(m[4])
		if err != nil {
			return nil, fmt.Errorf("byte %d: bad number in the run mark", pos)
		}
		s := logSection{Label: m[1], Kind: m[3], Arg: arg}
		pos += nl + 1
		if dataKinds[s.Kind] {
			if arg < 0 || pos+arg+1 > len(log) || log[pos+arg] != '\n' {
				return nil, fmt.Errorf("byte %d: the %s section is not %d bytes and a newline", pos, s.Kind, arg)
			}
			s.Data = log[pos : pos+arg]
			pos += arg + 1
		}
		out = append(out, s)
	}
	return out, nil
}

// BuildLog assembles the log of a test_command run, framed with run marks
// carrying secret (see above): the standard error, then the standard
// output (SWE-PolyBench's order: error_output + stdout_output), then the
// exit line ("Container exited with status code: N", or "Container
// operation timed out" when the run was killed at its timeout), then the
// JUnit XML reports the run wrote (reports: their work-tree paths and
// contents, in order), which SWE-PolyBench does not log but a re-grading
// needs. Source: SWE-PolyBench docker_utils.py docker_run.
func BuildLog(r runtime.Result, secret string, reports []runtime.File) []byte {
	m := &markedLog{secret: secret}
	m.b.Grow(len(r.Stderr) + len(r.Stdout) + 256)
	m.section("", markStderr, r.Stderr)
	m.section("", markStdout, r.Stdout)
	if r.TimedOut {
		m.mark("Container operation timed out", markTimeout, -1)
	} else {
		m.mark(fmt.Sprintf("Container exited with status code: %d", r.ExitCode), markExit, r.ExitCode)
	}
	for _, f := range reports {
		m.section(strconv.Quote(f.Path), markReport, f.Data)
	}
	return m.b.Bytes()
}

// testCommandLog is a test_command run read back from its framed log.
type testCommandLog struct {
	Stdout, Stderr []byte
	ExitCode       int
	TimedOut       bool
	Reports        []runtime.File
	// Pro is the reading of a SWE-bench Pro instance's parser.py of
	// Stdout and Stderr (RunProParser); nil for other instances.
	Pro *grading.ProParse
}

// readTestCommandLog reads a log BuildLog wrote with secret.
func readTestCommandLog(log []byte, secret string) (testCommandLog, error) {
	secs, err := readMarkedLog(log, secret)
	if err != nil {
		return testCommandLog{}, err
	}
	var l testCommandLog
	var have []string
	for _, s := range secs {
		have = append(have, s.Kind)
		switch s.Kind {
		case markStderr:
			l.Stderr = s.Data
		case markStdout:
			l.Stdout = s.Data
		case markExit:
			l.ExitCode = s.Arg
		case markTimeout:
			l.TimedOut, l.ExitCode = true, -1
		case markReport:
			p, err := strconv.Unquote(s.Label)
			if err != nil {
				return l, fmt.Errorf("report section with an unreadable path %q", s.Label)
			}
			l.Reports = append(l.Reports, runtime.File{Path: p, Data: s.Data})
		default:
			return l, fmt.Errorf("unexpected %s section in a test command's log", s.Kind)
		}
	}
	if len(have) < 3 || have[0] != markStderr || have[1] != markStdout || (have[2] != markExit && have[2] != markTimeout) {
		return l, fmt.Errorf("sections %s, want stderr, stdout, then exit or timeout", strings.Join(have, ", "))
	}
	return l, nil
}
