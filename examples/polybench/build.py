"""Regenerate the bundled SWE-PolyBench sample from its sources.

Reads src/<owner>__<name>/ (repo.json, base/ tree, instances/<id>/ with
instance.json and the gold/, test/ and optional wrong/ overlays of full
post-change files) and writes:

  repos/<owner>__<name>.bundle   git bundle with one deterministic commit (branch main)
  dataset.csv                    SWE-PolyBench columns, one row per instance
  predictions-wrong.jsonl        one plausible but wrong patch per language, gold elsewhere
  predictions-empty.jsonl        an empty model_patch for every instance

--root DIR builds another sample laid out the same way (examples/multilang);
a repo.json "runner" (the test runner and its output format, e.g. "ctest
(JUnit)") becomes a "runner" column, written only when some repository has
one.

With --check nothing is written: the outputs are rebuilt in a temporary
directory and compared with the committed ones (bundles by the commit they
hold, other files byte for byte); the exit status is 1 when they differ.

Commits are deterministic: fixed author, committer, dates (repo.json
base_date), file modes 0644 and no user or system git configuration, so
base_commit SHAs do not change between machines.
"""

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = HERE  # the sample being built (--root)
COLUMNS = [
    "instance_id",
    "repo",
    "base_commit",
    "patch",
    "test_patch",
    "problem_statement",
    "hints_text",
    "created_at",
    "language",
    "Dockerfile",
    "F2P",
    "P2P",
    "test_command",
    "task_category",
    "modified_nodes",
]
CATEGORIES = {"Bug Fix", "Feature", "Refactoring"}
LANGUAGES = {"Python", "Java", "JavaScript", "TypeScript", "Go", "Rust", "C", "C++", "PHP", "Ruby"}


def git(cwd, *args, env=None):
    out = subprocess.run(
        ["git", *args], cwd=cwd, env=env, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    return out.stdout.decode()


def git_env(home, when):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "polynfi sample",
        "GIT_AUTHOR_EMAIL": "sample@polynfi.invalid",
        "GIT_COMMITTER_NAME": "polynfi sample",
        "GIT_COMMITTER_EMAIL": "sample@polynfi.invalid",
        "GIT_AUTHOR_DATE": when,
        "GIT_COMMITTER_DATE": when,
        "TZ": "UTC",
        "LC_ALL": "C",
    }
    return env


def copy_tree(src, dst):
    """Copy regular files of src into dst with mode 0644 (no symlinks, no caches)."""
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "node_modules", "target", ".git"))
        for f in sorted(files):
            if f.endswith(".pyc"):
                continue
            s = os.path.join(root, f)
            d = os.path.join(dst, os.path.relpath(s, src))
            os.makedirs(os.path.dirname(d), exist_ok=True)
            shutil.copyfile(s, d)
            os.chmod(d, 0o644)


def overlay_patch(work, overlay, env):
    """The unified diff that turns the committed tree into tree + overlay."""
    copy_tree(overlay, work)
    git(work, "add", "-A", env=env)
    diff = git(work, "diff", "--cached", "--no-color", "--no-ext-diff", "--no-renames", env=env)
    git(work, "reset", "-q", "--hard", "HEAD", env=env)
    git(work, "clean", "-qfdx", env=env)
    return diff


def is_test_path(path):
    parts = path.split("/")
    name = parts[-1]
    return (
        "tests" in parts[:-1]
        or "test" in parts[:-1]
        or "spec" in parts[:-1]
        or name.startswith("test_")
        or name.endswith(("_test.go", "_spec.rb", "Test.php"))
        or ".test." in name
        or ".spec." in name
        or name.endswith("Test.java")
    )


def overlay_files(overlay):
    out = []
    for root, _, files in os.walk(overlay):
        for f in files:
            out.append(os.path.relpath(os.path.join(root, f), overlay).replace(os.sep, "/"))
    return sorted(out)


def fail(msg):
    sys.exit(f"build.py: {msg}")


def build_repo(key, out_dir, tmp):
    src = os.path.join(ROOT, "src", key)
    with open(os.path.join(src, "repo.json")) as f:
        meta = json.load(f)
    if meta["language"] not in LANGUAGES:
        fail(f"src/{key}/repo.json: language {meta['language']!r} is not one of {sorted(LANGUAGES)}")
    if key != meta["repo"].replace("/", "__"):
        fail(f"src/{key}/repo.json: repo {meta['repo']!r} does not match the directory name")
    # The instance image's Dockerfile (SWE-PolyBench semantics: built with
    # the repository at base_commit as context), the same for every
    # instance of the repository.
    dockerfile = ""
    if os.path.exists(os.path.join(src, "Dockerfile")):
        with open(os.path.join(src, "Dockerfile")) as f:
            dockerfile = f.read()
    work = os.path.join(tmp, key)
    os.makedirs(work)
    env = git_env(tmp, meta["base_date"])
    git(work, "init", "-q", "-b", "main", env=env)
    git(work, "config", "core.autocrlf", "false", env=env)
    copy_tree(os.path.join(src, "base"), work)
    git(work, "add", "-A", env=env)
    git(work, "commit", "-q", "-m", meta.get("base_message", "Base"), env=env)
    base = git(work, "rev-parse", "HEAD", env=env).strip()
    os.makedirs(os.path.join(out_dir, "repos"), exist_ok=True)
    git(work, "-c", "pack.threads=1", "bundle", "create", "-q",
        os.path.join(out_dir, "repos", key + ".bundle"), "HEAD", "main", env=env)

    rows, wrong = [], {}
    inst_root = os.path.join(src, "instances")
    for iid in sorted(os.listdir(inst_root)):
        d = os.path.join(inst_root, iid)
        with open(os.path.join(d, "instance.json")) as f:
            inst = json.load(f)
        where = f"src/{key}/instances/{iid}/instance.json"
        if inst["instance_id"] != iid:
            fail(f"{where}: instance_id {inst['instance_id']!r} does not match the directory")
        if inst["task_category"] not in CATEGORIES:
            fail(f"{where}: task_category {inst['task_category']!r} is not one of {sorted(CATEGORIES)}")
        for p in overlay_files(os.path.join(d, "gold")):
            if is_test_path(p):
                fail(f"src/{key}/instances/{iid}/gold/{p}: the gold patch must not touch tests")
        for p in overlay_files(os.path.join(d, "test")):
            if not is_test_path(p):
                fail(f"src/{key}/instances/{iid}/test/{p}: the test patch must touch tests only")
        gold = overlay_patch(work, os.path.join(d, "gold"), env)
        test = overlay_patch(work, os.path.join(d, "test"), env)
        if not gold or not test:
            fail(f"src/{key}/instances/{iid}: empty gold or test patch")
        if os.path.isdir(os.path.join(d, "wrong")):
            wrong[iid] = overlay_patch(work, os.path.join(d, "wrong"), env)
        nodes = inst.get("modified_nodes")
        rows.append({
            "instance_id": iid,
            "repo": meta["repo"],
            "base_commit": base,
            "patch": gold,
            "test_patch": test,
            "problem_statement": inst["problem_statement"],
            "hints_text": inst.get("hints_text", ""),
            "created_at": inst["created_at"],
            "language": meta["language"],
            "Dockerfile": dockerfile,
            "F2P": repr(list(inst["F2P"])),
            "P2P": repr(list(inst["P2P"])),
            "test_command": inst.get("test_command", meta["test_command"]),
            "task_category": inst["task_category"],
            "modified_nodes": json.dumps(nodes) if nodes is not None else "",
            "runner": meta.get("runner", ""),
        })
    return rows, wrong


def build(out_dir):
    keys = sorted(k for k in os.listdir(os.path.join(ROOT, "src")) if "__" in k)
    rows, wrong = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for key in keys:
            r, w = build_repo(key, out_dir, tmp)
            rows += r
            wrong.update(w)
    langs_with_wrong = {r["language"] for r in rows if r["instance_id"] in wrong}
    missing = {r["language"] for r in rows} - langs_with_wrong
    if missing:
        fail(f"no wrong patch for {sorted(missing)}: add instances/<id>/wrong/ for one instance each")
    buf = io.StringIO()
    columns = COLUMNS + (["runner"] if any(r["runner"] for r in rows) else [])
    w = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    with open(os.path.join(out_dir, "dataset.csv"), "w", newline="") as f:
        f.write(buf.getvalue())
    with open(os.path.join(out_dir, "predictions-wrong.jsonl"), "w") as f:
        for r in rows:
            iid = r["instance_id"]
            f.write(json.dumps({
                "instance_id": iid,
                "model_name_or_path": "sample-one-wrong-per-language",
                "model_patch": wrong.get(iid, r["patch"]),
            }) + "\n")
    with open(os.path.join(out_dir, "predictions-empty.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps({
                "instance_id": r["instance_id"],
                "model_name_or_path": "sample-empty",
                "model_patch": "",
            }) + "\n")
    return [r["instance_id"] for r in rows], sorted(wrong)


def bundle_head(path):
    out = subprocess.run(["git", "bundle", "list-heads", path], check=True, stdout=subprocess.PIPE)
    return out.stdout.decode().split()[0]


def check():
    with tempfile.TemporaryDirectory() as out:
        build(out)
        stale = []
        for name in ("dataset.csv", "predictions-wrong.jsonl", "predictions-empty.jsonl"):
            try:
                with open(os.path.join(ROOT, name), "rb") as f:
                    have = f.read()
            except FileNotFoundError:
                have = None
            with open(os.path.join(out, name), "rb") as f:
                if f.read() != have:
                    stale.append(name)
        for b in sorted(os.listdir(os.path.join(out, "repos"))):
            committed = os.path.join(ROOT, "repos", b)
            if not os.path.exists(committed) or bundle_head(committed) != bundle_head(os.path.join(out, "repos", b)):
                stale.append("repos/" + b)
        if stale:
            print(f"stale (run {os.path.relpath(ROOT)}/build.sh): " + ", ".join(stale), file=sys.stderr)
            return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed outputs, write nothing")
    ap.add_argument("--root", default=HERE, help="the sample directory (default: this one)")
    args = ap.parse_args()
    global ROOT
    ROOT = os.path.abspath(args.root)
    if args.check:
        sys.exit(check())
    ids, wrong = build(ROOT)
    print(f"built {len(ids)} instances ({len(wrong)} with a wrong patch) into {ROOT}", file=sys.stderr)


if __name__ == "__main__":
    main()
