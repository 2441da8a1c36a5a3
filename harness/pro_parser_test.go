package harness

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
)

// proPytestParser is a SWE-bench Pro-shaped parser.py (its TestStatus,
// TestResult, parse_test_output, export_to_json and main), written for
// these tests: it reads pytest -rA summary lines ("PASSED id", "FAILED id
// - msg") from stdout and stderr.
const proPytestParser = `import json, re, sys
from dataclasses import dataclass
from enum import Enum


class TestStatus(Enum):
    PASSED = 1
    FAILED = 2
    SKIPPED = 3
    ERROR = 4


@dataclass
class TestResult:
    name: str
    status: TestStatus


def parse_test_output(stdout_content, stderr_content):
    results = []
    for line in (stdout_content + "\n" + stderr_content).splitlines():
        m = re.match(r"^(PASSED|FAILED|SKIPPED|ERROR) (\S+)", line)
        if m:
            results.append(TestResult(name=m.group(2), status=TestStatus[m.group(1)]))
    return results


def export_to_json(results, output_path):
    with open(output_path, "w") as f:
        json.dump({"tests": [{"name": r.name, "status": r.status.name} for r in results]}, f)


def main(stdout_path, stderr_path, output_path):
    with open(stdout_path) as f:
        out = f.read()
    with open(stderr_path) as f:
        err = f.read()
    export_to_json(parse_test_output(out, err), output_path)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(1)
    main(sys.argv[1], sys.argv[2], sys.argv[3])
`

// needProSandbox skips (outside CI) or fails (in CI) without python3 and
// a working bubblewrap, which RunProParser needs.
func needProSandbox(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		citest.Missing(t, "python3 not found: %v", err)
	}
	l := runtime.NewLocal(context.Background(), runtime.LocalOptions{})
	defer l.Close()
	if l.Refuses() {
		citest.Missing(t, "no bubblewrap sandbox: %s", l.Note())
	}
}

func TestRunProParserReads(t *testing.T) {
	needProSandbox(t)
	p := RunProParser(context.Background(), proPytestParser,
		[]byte("PASSED tests/a.py::test_a\nFAILED tests/a.py::test_b - assert 1 == 2\n"), []byte("SKIPPED tests/a.py::test_c\n"), ProParserOptions{})
	if p.Err != "" {
		t.Fatalf("parser failed: %s", p.Err)
	}
	want := []grading.ProTest{{Name: "tests/a.py::test_a", Status: "PASSED"}, {Name: "tests/a.py::test_b", Status: "FAILED"}, {Name: "tests/a.py::test_c", Status: "SKIPPED"}}
	if len(p.Tests) != len(want) {
		t.Fatalf("got %+v, want %+v", p.Tests, want)
	}
	for i := range want {
		if p.Tests[i] != want[i] {
			t.Errorf("test %d: got %+v, want %+v", i, p.Tests[i], want[i])
		}
	}
}

// TestRunProParserHostile: a parser.py that crashes, hangs, writes
// garbage or no output, or reaches for the network or the host is an
// error with its message, never a reading; what it tries outside fails.
func TestRunProParserHostile(t *testing.T) {
	needProSandbox(t)
	secret := t.TempDir() + "/secret"
	cases := []struct {
		name, parser, want string
		opts               ProParserOptions
	}{
		{"crash", "raise SystemExit('boom: cannot parse')\n", "exited 1: boom: cannot parse", ProParserOptions{}},
		{"exception", "import sys\n1/0\n", "ZeroDivisionError", ProParserOptions{}},
		{"hang", "while True:\n    pass\n", "timed out after 2s", ProParserOptions{Timeout: 2 * time.Second}},
		{"no output", "pass\n", "no output.json written", ProParserOptions{}},
		{"garbage", "import sys\nopen(sys.argv[3], 'w').write('PASSED everything')\n", "not a JSON object", ProParserOptions{}},
		{"wrong shape", "import sys, json\njson.dump({'tests': {'a': 'PASSED'}}, open(sys.argv[3], 'w'))\n", `"tests" is not a list`, ProParserOptions{}},
		{"status not text", "import sys, json\njson.dump({'tests': [{'name': 'a', 'status': 1}]}, open(sys.argv[3], 'w'))\n", "tests[0].status is not a string", ProParserOptions{}},
		{"network", "import socket, sys\nsocket.create_connection(('1.1.1.1', 80), timeout=3)\nopen(sys.argv[3], 'w').write('{\"tests\": []}')\n", "exited 1", ProParserOptions{}},
		{"host write", "import sys\nopen(" + "'" + secret + "', 'w').write('x')\nopen(sys.argv[3], 'w').write('{\"tests\": []}')\n", "exited 1", ProParserOptions{}},
		{"rewrites its input", "import sys\nopen(sys.argv[1], 'w').write('PASSED x')\nopen(sys.argv[3], 'w').write('{\"tests\": []}')\n", "exited 1", ProParserOptions{}},
		{"memory", "x = bytearray(512 << 20)\n", "", ProParserOptions{MemoryBytes: 128 << 20}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := RunProParser(context.Background(), c.parser, []byte("PASSED a\n"), nil, c.opts)
			if p.Err == "" || len(p.Tests) != 0 {
				t.Fatalf("got a reading %+v, want an error", p.Tests)
			}
			if !strings.Contains(p.Err, c.want) {
				t.Errorf("error %q lacks %q", p.Err, c.want)
			}
		})
	}
	if _, err := exec.Command("test", "-e", secret).CombinedOutput(); err == nil {
		t.Errorf("the parser wrote %s on the host", secret)
	}
}
