"""Write the multi-language sample as the two benchmarks publish their rows.

Reads dataset.csv and predictions-wrong.jsonl (what build.py wrote) and
writes, for the same twelve instances:

  swebench-multilingual.jsonl   SWE-bench Multilingual rows (SWE-bench 5.x
                                fields; FAIL_TO_PASS/PASS_TO_PASS as JSON text)
  multi-swe-bench.jsonl         Multi-SWE-bench rows (org/repo/number, base,
                                fix_patch, test_patch, the p2p/f2p/s2p/n2p
                                transitions, run/test_patch/fix_patch results)
  predictions-wrong.multi-swe-bench.jsonl
                                predictions-wrong.jsonl as Multi-SWE-bench
                                patch rows ({org, repo, number, fix_patch})
  swe-bench-pro.jsonl           the Go instances as SWE-bench Pro rows
                                (fail_to_pass/pass_to_pass as Python list
                                text, repo_language, requirements, interface,
                                selected_test_files_to_run, ...), with
  run_scripts/<id>/run_script.sh, run_scripts/<id>/parser.py
                                copies of pro/run_script.sh and pro/parser.py,
                                where SWE-bench Pro's harness keeps them
  predictions-wrong.swe-bench-pro.jsonl
                                predictions-wrong.jsonl for those instances

Both benchmarks keep how to run a repository's tests in their harness code,
not in the rows; polynfi reads the row's test_command and Dockerfile, so
those two fields are added to each row (the only fields not in the
published schemas).

Every F2P test of the sample is new in its test patch and fails there, so
its Multi-SWE-bench transition is NONE -> FAIL -> PASS (f2p_tests); every
P2P test passes in all three runs (p2p_tests). The sample's real runs check
this (harness TestMultilangPublishedShapes).

With --check nothing is written: exit status 1 when a file is stale.
"""

import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def pylist(s):
    # The sample's F2P/P2P cells are Python reprs of lists of plain str.
    import ast
    return list(ast.literal_eval(s))


def split_id(iid):
    org, rest = iid.split("__", 1)
    repo, number = rest.rsplit("-", 1)
    return org, repo, int(number)


def result(passed, failed, skipped=()):
    passed, failed, skipped = sorted(passed), sorted(failed), sorted(skipped)
    return {"passed_count": len(passed), "failed_count": len(failed), "skipped_count": len(skipped),
            "passed_tests": passed, "failed_tests": failed, "skipped_tests": skipped}


def lines(rows):
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def build():
    with open(os.path.join(HERE, "dataset.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    out = {}
    ml, msb = [], []
    for r in rows:
        f2p, p2p = pylist(r["F2P"]), pylist(r["P2P"])
        ml.append({
            "repo": r["repo"],
            "instance_id": r["instance_id"],
            "base_commit": r["base_commit"],
            "patch": r["patch"],
            "test_patch": r["test_patch"],
            "problem_statement": r["problem_statement"],
            "hints_text": r["hints_text"],
            "created_at": r["created_at"],
            "version": "0.1",
            "FAIL_TO_PASS": json.dumps(f2p),
            "PASS_TO_PASS": json.dumps(p2p),
            "environment_setup_commit": r["base_commit"],
            "test_command": r["test_command"],
            "Dockerfile": r["Dockerfile"],
        })
        org, repo, number = split_id(r["instance_id"])
        title, _, body = r["problem_statement"].partition("\n\n")
        lang = {"C++": "cpp"}.get(r["language"], r["language"].lower())
        f2p_t = {t: {"run": "NONE", "test": "FAIL", "fix": "PASS"} for t in sorted(f2p)}
        p2p_t = {t: {"run": "PASS", "test": "PASS", "fix": "PASS"} for t in sorted(p2p)}
        msb.append({
            "org": org,
            "repo": repo,
            "number": number,
            "state": "closed",
            "title": title,
            "body": body,
            "base": {"label": f"{org}:main", "ref": "main", "sha": r["base_commit"]},
            "resolved_issues": [{"number": number - 1, "title": title, "body": body}],
            "fix_patch": r["patch"],
            "test_patch": r["test_patch"],
            "fixed_tests": f2p_t,
            "p2p_tests": p2p_t,
            "f2p_tests": f2p_t,
            "s2p_tests": {},
            "n2p_tests": {},
            "run_result": result(p2p, []),
            "test_patch_result": result(p2p, f2p),
            "fix_patch_result": result(p2p + f2p, []),
            "instance_id": r["instance_id"],
            "lang": lang,
            "test_command": r["test_command"],
            "Dockerfile": r["Dockerfile"],
        })
    out["swebench-multilingual.jsonl"] = lines(ml)
    out["multi-swe-bench.jsonl"] = lines(msb)
    preds = []
    with open(os.path.join(HERE, "predictions-wrong.jsonl")) as f:
        for line in f:
            p = json.loads(line)
            org, repo, number = split_id(p["instance_id"])
            preds.append({"org": org, "repo": repo, "number": number, "fix_patch": p["model_patch"]})
    out["predictions-wrong.multi-swe-bench.jsonl"] = lines(preds)
    build_pro(rows, out)
    return out


# SWE-bench Pro names a Go test by its function (the parser's reading of
# `go test -v`), not by package path as polynfi's go test -json reader.
PRO_IDS = ("gridworks__durfmt-4", "gridworks__durfmt-7")


def build_pro(rows, out):
    with open(os.path.join(HERE, "pro", "run_script.sh")) as f:
        run_script = f.read()
    with open(os.path.join(HERE, "pro", "parser.py")) as f:
        parser = f.read()
    pro = []
    for r in rows:
        if r["instance_id"] not in PRO_IDS:
            continue
        short = lambda ids: repr([t.rsplit(".", 1)[1] for t in ids])
        title, _, body = r["problem_statement"].partition("\n\n")
        pro.append({
            "repo": r["repo"],
            "instance_id": r["instance_id"],
            "base_commit": r["base_commit"],
            "patch": r["patch"],
            "test_patch": r["test_patch"],
            "problem_statement": r["problem_statement"],
            "requirements": "- " + title.strip().rstrip("."),
            "interface": "No new interfaces are introduced.",
            "repo_language": "go",
            "fail_to_pass": short(pylist(r["F2P"])),
            "pass_to_pass": short(pylist(r["P2P"])),
            "issue_specificity": "['minor_bug']" if r["task_category"] == "Bug Fix" else "['minor_feat']",
            "issue_categories": "['core_feat_knowledge']",
            "before_repo_set_cmd": "git reset --hard {0}\ngit clean -fd\ngit checkout {0}\ngit checkout {0} -- durfmt_test.go".format(r["base_commit"]),
            "selected_test_files_to_run": "['durfmt_test.go']",
            "dockerhub_tag": "gridworks.durfmt-" + r["instance_id"],
            "Dockerfile": r["Dockerfile"],
        })
        out[os.path.join("run_scripts", r["instance_id"], "run_script.sh")] = run_script
        out[os.path.join("run_scripts", r["instance_id"], "parser.py")] = parser
    out["swe-bench-pro.jsonl"] = lines(pro)
    preds = []
    with open(os.path.join(HERE, "predictions-wrong.jsonl")) as f:
        for line in f:
            p = json.loads(line)
            if p["instance_id"] in PRO_IDS:
                preds.append(p)
    out["predictions-wrong.swe-bench-pro.jsonl"] = lines(preds)


def main():
    out = build()
    if "--check" in sys.argv[1:]:
        stale = []
        for name, text in out.items():
            try:
                with open(os.path.join(HERE, name)) as f:
                    if f.read() != text:
                        stale.append(name)
            except FileNotFoundError:
                stale.append(name)
        if stale:
            print("stale (run examples/multilang/build.sh): " + ", ".join(stale), file=sys.stderr)
            sys.exit(1)
        return
    for name, text in out.items():
        os.makedirs(os.path.dirname(os.path.join(HERE, name)), exist_ok=True)
        with open(os.path.join(HERE, name), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
