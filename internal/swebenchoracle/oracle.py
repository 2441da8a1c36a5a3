"""Runs SWE-bench's own log parsers and grading (release 5.0.2) for polynfi's
parity tests. Reads one JSON request on stdin, writes one JSON answer.

Request: {"parse": [{"parser", "log", "instance_id", "version"}],
          "grade": [{"parser", "log", "instance_id", "version", "eval_type",
                     "FAIL_TO_PASS", "PASS_TO_PASS"}]}
         "scripts": [eval_script, ...]}
Answer:  {"version": swebench.__version__, "scripts": [the script SWE-bench runs, ...],
          "parse": [{"results": [[id, status], ...]} | {"error": str}],
          "grade": [{"found", "results", "report", "resolved"} | {"error": str}]}

Only the functions under test run (PARSER_REGISTRY, get_logs_eval,
get_eval_tests_report, get_resolution_status, get_eval_report). Packages that
swebench imports at module level for other work (Docker, Modal, Hugging Face
datasets, ...) and that are not installed are replaced by inert modules, so
that the oracle needs only swebench itself (pip install --no-deps) and
unidiff.
"""

import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import tempfile
import types


class _Inert:
    def __init__(self, *a, **k):
        pass

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Inert()

    def __call__(self, *a, **k):
        if len(a) == 1 and callable(a[0]) and not k:
            return a[0]  # used as a decorator
        return _Inert()

    def __mro_entries__(self, bases):
        return (object,)

    def __iter__(self):
        return iter(())

    def __or__(self, other):
        return self


class _InertModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Inert()


_OPTIONAL = {"datasets", "docker", "modal", "ghapi", "fastcore", "requests",
             "tqdm", "dotenv", "git", "bs4", "tenacity"}


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        top = name.split(".")[0]
        if top in _OPTIONAL and importlib.machinery.PathFinder.find_spec(top) is None:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        return _InertModule(spec.name)

    def exec_module(self, module):
        module.__path__ = []


sys.meta_path.append(_Finder())

import swebench  # noqa: E402
from swebench.harness import grading  # noqa: E402
from swebench.harness.log_parsers import PARSER_REGISTRY  # noqa: E402
from swebench.types import TestSpec  # noqa: E402


def spec_of(r):
    return TestSpec(
        instance_id=r.get("instance_id", "x__y-1"),
        image="",
        eval_script_list=[],
        repo="",
        version=r.get("version", ""),
        FAIL_TO_PASS=r.get("FAIL_TO_PASS") or [],
        PASS_TO_PASS=r.get("PASS_TO_PASS") or [],
        log_parser=r["parser"],
        eval_type=r.get("eval_type") or "pass_and_fail",
    )


def parse(r):
    try:
        sm = PARSER_REGISTRY[r["parser"]](r["log"], spec_of(r))
    except Exception as e:  # the parser itself raised
        return {"error": f"{type(e).__name__}: {e}"}
    return {"results": [[k, v] for k, v in sm.items()]}


def grade(r):
    spec = spec_of(r)
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False, newline="") as f:
        f.write(r["log"])
        path = f.name
    try:
        sm, found = grading.get_logs_eval(spec, path)
        report = grading.get_eval_tests_report(
            sm, {"FAIL_TO_PASS": spec.FAIL_TO_PASS, "PASS_TO_PASS": spec.PASS_TO_PASS},
            eval_type=grading.EvalType(spec.eval_type))
        full = grading.get_eval_report(spec, {"instance_id": spec.instance_id, "model_patch": "x"}, path, True)
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}
    finally:
        os.unlink(path)
    return {
        "found": found,
        "results": [[k, v] for k, v in sm.items()],
        "report": {k: report[k] for k in ("FAIL_TO_PASS", "PASS_TO_PASS")},
        "resolved": full[spec.instance_id]["resolved"],
    }


def script(s):
    from swebench.harness.utils import parse_eval_script, record_test_exit_code
    spec = spec_of({"parser": ""})
    spec.eval_script_list = record_test_exit_code(parse_eval_script(s))
    return spec.eval_script


def main():
    req = json.load(sys.stdin)
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # some parsers print warnings
    out = {
        "scripts": [script(s) for s in req.get("scripts") or []],
        "version": getattr(swebench, "__version__", ""),
        "parse": [parse(r) for r in req.get("parse") or []],
        "grade": [grade(r) for r in req.get("grade") or []],
    }
    json.dump(out, real_stdout)


if __name__ == "__main__":
    main()
