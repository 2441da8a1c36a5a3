#!/usr/bin/env python3
"""Builds the bundled SWE-bench 5.x-style sample from the Python instances of
../polybench/dataset.csv:

  dataset.jsonl   rows as SWE-bench 5.x publishes them: no test_command;
                  image, eval_script, log_parser, eval_type, version;
                  FAIL_TO_PASS/PASS_TO_PASS as JSON strings of pytest node ids
  tasks/<id>/     the same instances as a SWE-bench 5.x task repository
                  (task.yaml, tests.json, eval.sh, Dockerfile, gold.patch,
                  test.patch, problem_statement.md), each Dockerfile building
                  the instance's image from its own directory (the repository
                  bundle is copied next to it)
  sweb.yaml       the task repository's description

`build.py --check` exits 1 when a committed file differs from what it builds.
"""

import csv
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
POLY = os.path.join(HERE, "..", "polybench")
NAMESPACE = "polynfi-sample"  # local images only: no registry has them
VERSION = "1.0"
LOG_PARSER = "parse_log_pytest"


def node_id(polybench_id):
    """tests/t.py:Class:test[x] -> tests/t.py::Class::test[x] (class None dropped)."""
    head, sep, params = polybench_id.partition("[")
    parts = head.split(":")
    if len(parts) != 3 or not parts[0].endswith(".py"):
        raise SystemExit(f"unexpected pytest id {polybench_id!r}")
    f, cls, test = parts
    out = f + "::" + ("" if cls == "None" else cls.replace(".", "::") + "::") + test
    return out + sep + params


def py_list(s):
    # The sample's F2P/P2P are Python repr lists of plain strings.
    return re.findall(r"'((?:[^'\\]|\\.)*)'", s)


def image_name(instance_id):
    """SWE-bench's image naming rule (sweb.eval.x86_64.<id>, "__" -> "_1776_"), local namespace."""
    return f"{NAMESPACE}/sweb.eval.x86_64.{instance_id.lower()}:latest".replace("__", "_1776_")


def patched_files(patch):
    return [m for m in re.findall(r"^diff --git a/(\S+) b/\S+$", patch, re.M)]


def eval_script(row):
    base = row["base_commit"]
    tests = patched_files(row["test_patch"])
    files = " ".join(tests)
    return "\n".join([
        "#!/bin/bash",
        "set -uxo pipefail",
        "cd /testbed",
        "git config --global --add safe.directory /testbed",
        "git status",
        "git -c core.fileMode=false diff " + base,
        f"git checkout {base} {files}",
        "git apply -v - <<'EOF_114329324912'",
        row["test_patch"].rstrip("\n"),
        "EOF_114329324912",
        ": '>>>>> Start Test Output'",
        row["test_command"],
        ": '>>>>> End Test Output'",
        f"git checkout {base} {files}",
        "",
    ])


def dockerfile(row, bundle):
    return "\n".join([
        f"# Image of {row['instance_id']}: the repository at its base commit in /testbed,",
        "# on the sample's Python base (polybench_python_base: Python 3, pytest, git).",
        "FROM polybench_python_base",
        f"COPY {bundle} /tmp/repo.bundle",
        f"RUN git clone --quiet /tmp/repo.bundle /testbed && git -C /testbed checkout --quiet {row['base_commit']} && rm /tmp/repo.bundle",
        "WORKDIR /testbed",
        "",
    ])


def yaml_str(s):
    return json.dumps(s, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def build():
    files = {}
    rows = []
    csv.field_size_limit(1 << 30)
    with open(os.path.join(POLY, "dataset.csv"), newline="") as f:
        for row in csv.DictReader(f):
            if row["language"] != "Python":
                continue
            iid = row["instance_id"]
            f2p = [node_id(t) for t in py_list(row["F2P"])]
            p2p = [node_id(t) for t in py_list(row["P2P"])]
            script = eval_script(row)
            out = {
                "instance_id": iid,
                "repo": row["repo"],
                "base_commit": row["base_commit"],
                "patch": row["patch"],
                "test_patch": row["test_patch"],
                "problem_statement": row["problem_statement"],
                "hints_text": row["hints_text"],
                "created_at": row["created_at"],
                "version": VERSION,
                "FAIL_TO_PASS": json.dumps(f2p),
                "PASS_TO_PASS": json.dumps(p2p),
                "environment_setup_commit": row["base_commit"],
                "image": image_name(iid),
                "eval_script": script,
                "log_parser": LOG_PARSER,
                "eval_type": "pass_and_fail",
            }
            rows.append(json.dumps(out, ensure_ascii=False))
            repo_bundle = row["repo"].replace("/", "__") + ".bundle"
            bundle = row["repo"].split("/")[1] + ".bundle"
            t = f"tasks/{iid}/"
            files[t + "task.yaml"] = "".join(f"{k}:{v if v.startswith(chr(10)) else ' ' + v}\n" for k, v in [
                ("base_commit", yaml_str(row["base_commit"])),
                ("created_at", yaml_str(row["created_at"])),
                ("datasets", "\n- polynfi-sample"),
                ("environment_setup_commit", yaml_str(row["base_commit"])),
                ("eval_type", "pass_and_fail"),
                ("image", yaml_str(image_name(iid))),
                ("instance_id", yaml_str(iid)),
                ("log_parser", LOG_PARSER),
                ("repo", yaml_str(row["repo"])),
                ("split", "test"),
                ("version", yaml_str(VERSION)),
            ])
            files[t + "tests.json"] = json.dumps({"FAIL_TO_PASS": f2p, "PASS_TO_PASS": p2p}, indent=2, ensure_ascii=False) + "\n"
            files[t + "gold.patch"] = row["patch"]
            files[t + "test.patch"] = row["test_patch"]
            files[t + "eval.sh"] = script
            files[t + "problem_statement.md"] = row["problem_statement"]
            files[t + "Dockerfile"] = dockerfile(row, bundle)
            with open(os.path.join(POLY, "repos", repo_bundle), "rb") as b:
                files[t + bundle] = b.read()
    files["dataset.jsonl"] = "\n".join(rows) + "\n"
    files["sweb.yaml"] = "datasets:\n- polynfi-sample\nsplits:\n- test\n"
    return files


def main():
    check = "--check" in sys.argv[1:]
    files = build()
    stale = []
    for rel, content in sorted(files.items()):
        data = content if isinstance(content, bytes) else content.encode()
        path = os.path.join(HERE, rel)
        old = open(path, "rb").read() if os.path.exists(path) else None
        if old == data:
            continue
        stale.append(rel)
        if not check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
    tasks = os.path.join(HERE, "tasks")
    wanted = {rel.split("/")[1] for rel in files if rel.startswith("tasks/")}
    for d in sorted(os.listdir(tasks)) if os.path.isdir(tasks) else []:
        if d not in wanted:
            stale.append("tasks/" + d)
            if not check:
                shutil.rmtree(os.path.join(tasks, d))
    if check and stale:
        print("stale: " + ", ".join(stale) + " (run examples/swebench/build.py)", file=sys.stderr)
        sys.exit(1)
    if not check:
        print(f"{len(files)} files, {len(stale)} written")


if __name__ == "__main__":
    main()
