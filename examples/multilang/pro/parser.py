"""SWE-bench Pro-shaped parser.py of gridworks/durfmt, written for polynfi's
sample: reads `go test -v` output and writes the tests it names with their
last status.

    python parser.py stdout.log stderr.log output.json

output.json: {"tests": [{"name": "TestX", "status": "PASSED"}, ...]}, the
statuses of SWE-bench Pro's parsers (PASSED, FAILED, SKIPPED, ERROR).
Subtests keep their path ("TestX/case"). A test the binary died in (its
"=== RUN" line without a result) is ERROR.
"""

import json
import re
import sys
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


RESULT = re.compile(r"^\s*--- (PASS|FAIL|SKIP): (\S+)")
RUN = re.compile(r"^=== RUN\s+(\S+)")
STATUS = {"PASS": TestStatus.PASSED, "FAIL": TestStatus.FAILED, "SKIP": TestStatus.SKIPPED}


def parse_test_output(stdout_content, stderr_content):
    seen = {}
    started = []
    for line in stdout_content.splitlines():
        m = RUN.match(line)
        if m:
            started.append(m.group(1))
            continue
        m = RESULT.match(line)
        if m:
            seen[m.group(2)] = STATUS[m.group(1)]
    for name in started:
        seen.setdefault(name, TestStatus.ERROR)
    return [TestResult(name, status) for name, status in seen.items()]


def export_to_json(results, output_path):
    with open(output_path, "w") as f:
        json.dump({"tests": [{"name": r.name, "status": r.status.name} for r in results]}, f, indent=2)


def main(stdout_path, stderr_path, output_path):
    with open(stdout_path, errors="replace") as f:
        stdout_content = f.read()
    with open(stderr_path, errors="replace") as f:
        stderr_content = f.read()
    export_to_json(parse_test_output(stdout_content, stderr_content), output_path)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(1)
    main(sys.argv[1], sys.argv[2], sys.argv[3])
