"""Runs Multi-SWE-bench's own per-repository log readers (release 1.1.2) for
polynfi's parity tests. Reads one JSON request on stdin, writes one JSON
answer.

Request: {"parse": [{"name": "org/repo", "log": str}, ...]}
Answer:  {"version": str,
          "parse": [{"passed": [...], "failed": [...], "skipped": [...]}
                    | {"error": str}]}

The class registered under name (Instance._registry, as Instance.create
finds it) reads the log with its parse_log; the sets come back sorted. A
TestResult that refuses its sets (ValueError) is an error.
"""

import importlib.metadata
import json
import sys

from multi_swe_bench.harness.instance import Instance
import multi_swe_bench.harness.repos  # noqa: F401  (registers every class)


def parse(r):
    cls = Instance._registry.get(r["name"])
    if cls is None:
        return {"error": "not registered: " + r["name"]}
    try:
        res = cls.parse_log(None, r["log"])
    except Exception as e:  # the reader or TestResult raised
        return {"error": f"{type(e).__name__}: {e}"}
    return {"passed": sorted(res.passed_tests), "failed": sorted(res.failed_tests),
            "skipped": sorted(res.skipped_tests)}


def main():
    req = json.load(sys.stdin)
    real_stdout = sys.stdout
    sys.stdout = sys.stderr
    out = {"version": importlib.metadata.version("multi-swe-bench"),
           "parse": [parse(r) for r in req.get("parse") or []]}
    json.dump(out, real_stdout)


if __name__ == "__main__":
    main()
