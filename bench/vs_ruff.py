#!/usr/bin/env python3
"""polynfi score against Ruff: CPU time and peak RSS on the same files.

Both tools run on one core (this script pins itself to CPU and the
children inherit it; GOMAXPROCS=1 for polynfi, RAYON_NUM_THREADS=1 for
Ruff), as one process each over the whole file list, output (JSON) to
/dev/null. CPU time is user + system of the child and peak RSS its maximum
resident set size, both from wait4(2)'s rusage (microseconds, kB); each
cell is the median of --reps runs, the two tools alternating order
between runs. The paired column is the median, with quartiles, of each
repetition's own polynfi/Ruff ratio (its two runs back to back, so a drift
of the machine's speed slower than a run cancels out): on a virtual
machine whose speed drifts by 10-25% from minute to minute, the quartiles
show how far one measurement of the ratio can be trusted.

polynfi:  polynfi score --format json --isolated --exclude= --workers 1
          --ignore-noqa FILES  (the 92 rules of the default catalog)
Ruff:     the catalog's own oracle invocation (`polynfi rules --format json`,
          each rule's oracle.invocations), merged into one run: the common
          base arguments (ruff check --isolated --no-cache --no-fix
          --exit-zero --ignore-noqa --output-format json), --select with the
          union of the rules' codes, --preview (some of them are preview
          rules), and every rule's --config KEY=VALUE (no two rules set one
          key differently; the script stops if they do).

Corpora: the standard library of the python3 on PATH (sysconfig "stdlib",
site-packages left out), its site-packages (sysconfig "purelib"), a project
of about 40 files (the stdlib packages asyncio, concurrent and tomllib), and
one generated 50 MB file (whole stdlib modules that compile on their own,
without __future__ imports, concatenated until 50 MB; the result is checked
with compile()), whose row is the memory one.

Usage: bench/vs_ruff.py [--polynfi BIN] [--reps N] [--cpu N] [--only NAME,...]
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time


def python_files(root, skip=()):
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in skip and not x.startswith("."))
        for f in sorted(files):
            if f.endswith(".py"):
                p = os.path.join(d, f)
                if os.path.isfile(p) and not os.path.islink(p):
                    out.append(p)
    return out


def ruff_argv(polynfi):
    rules = json.loads(subprocess.run([polynfi, "rules", "--format", "json"], check=True,
                                      capture_output=True, text=True).stdout)["rules"]
    base, codes, preview, opts = None, set(), False, {}
    for r in rules:
        for inv in (r.get("oracle") or {}).get("invocations") or []:
            if inv["tool"] != "ruff":
                continue
            argv = inv["argv"]
            b = argv[1:argv.index("--select")]
            if base is None:
                base = b
            elif b != base:
                sys.exit(f"rule {r['id']}: Ruff base arguments {b} differ from {base}")
            codes.update(inv["codes"])
            preview |= inv["preview"]
            for k, v in (inv.get("options") or {}).items():
                if opts.setdefault(k, v) != v:
                    sys.exit(f"rule {r['id']}: Ruff setting {k}={v} differs from another rule's {opts[k]}")
    ruff = shutil.which("ruff")
    if ruff is None or base is None:
        sys.exit("ruff is not installed (make deps) or the catalog names no Ruff oracle")
    argv = [ruff] + base + ["--select", ",".join(sorted(codes))]
    if preview:
        argv.append("--preview")
    for k in sorted(opts):
        argv += ["--config", f"{k}={opts[k]}"]
    return argv, len(codes)


def run(argv, env, cwd, cpu, ok):
    """Runs argv on cpu; returns (cpu seconds, peak RSS bytes, wall seconds).

    This process is pinned to cpu (main), so the child is from its first
    instruction. CPU time and peak RSS are the child's own, from wait4(2)'s
    rusage, in microseconds (GNU time's %U and %S have 10 ms steps, a
    quarter of the 40-file project's time). The child is spawned with vfork,
    so its ru_maxrss is at least this script's own RSS at the exec (main
    prints it; a few MB, below either tool's).
    """
    e = dict(os.environ, **env)
    with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(argv, cwd=cwd, env=e, stdout=null, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode not in ok:
            err.seek(0)
            sys.exit(f"{argv[0]} exited {p.returncode}:\n{err.read().decode(errors='replace')[-2000:]}")
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss * 1024, wall


def gen_big(path, stdlib, mb):
    """Writes the big file in a child python3 (its memory is not this process's) and returns [path]."""
    subprocess.run([sys.executable, __file__, "--gen-big", path, "--big-mb", str(mb)], check=True)
    return [path]


def write_big(path, stdlib, size):
    mods = []
    for f in python_files(stdlib, skip=("site-packages", "test", "tests", "lib2to3", "idlelib")):
        try:
            with open(f, "rb") as fh:
                src = fh.read()
            text = src.decode("utf-8")
            if "__future__" in text or "\r" in text or "\t" in text or not text.endswith("\n"):
                continue
            compile(src, f, "exec", dont_inherit=True)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        mods.append(src)
    out, n = [], 0
    while n < size:
        for m in mods:
            out.append(m)
            n += len(m)
            if n >= size:
                break
    data = b"".join(out)
    compile(data, path, "exec", dont_inherit=True)
    with open(path, "wb") as fh:
        fh.write(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--polynfi", default="bin/polynfi")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--cpu", type=int, default=0)
    ap.add_argument("--only", default="", help="comma-separated corpus names")
    ap.add_argument("--big-mb", type=float, default=50)
    ap.add_argument("--gen-big", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.gen_big:
        write_big(a.gen_big, sysconfig.get_paths()["stdlib"], int(a.big_mb * 1e6))
        return
    polynfi = os.path.abspath(a.polynfi)
    os.sched_setaffinity(0, {a.cpu})
    rargv, ncodes = ruff_argv(polynfi)
    paths = sysconfig.get_paths()
    stdlib, site = paths["stdlib"], paths["purelib"]
    tmp = tempfile.mkdtemp(prefix="polynfi-bench-")
    try:
        big = os.path.join(tmp, "big.py")
        corpora = [
            ("stdlib", stdlib, lambda: python_files(stdlib, skip=("site-packages",))),
            ("site-packages", site, lambda: python_files(site)),
            ("project-40", stdlib, lambda: [f for d in ("asyncio", "concurrent", "tomllib")
                                            for f in python_files(os.path.join(stdlib, d))]),
            (f"one-{a.big_mb:g}MB-file", tmp, lambda: gen_big(big, stdlib, a.big_mb)),
        ]
        if a.only:
            want = a.only.split(",")
            corpora = [c for c in corpora if any(c[0].startswith(w) for w in want)]
        print(f"polynfi: {polynfi}\nruff:    {' '.join(os.path.basename(x) if i == 0 else x for i, x in enumerate(rargv[:12]))} ... "
              f"({ncodes} codes)\none core (cpu {a.cpu}), CPU = user+sys, medians of {a.reps} (the project: {max(5 * a.reps, 15)}); "
              f"this script's own RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3:.0f} MB", flush=True)
        rows = []
        for name, root, files in corpora:
            fs = files()
            if not fs:
                print(f"{name}: no files, skipped")
                continue
            rel = [os.path.relpath(f, root) for f in fs]
            mb = sum(os.path.getsize(f) for f in fs) / 1e6
            pargv = [polynfi, "score", "--format", "json", "--isolated", "--exclude=", "--workers", "1",
                     "--ignore-noqa"] + rel
            p, r = [], []
            # A run of the 40-file project takes some 0.04 s and varies by
            # +-20% between runs: five times the repetitions (15 at least).
            reps = a.reps if mb > 5 else max(5 * a.reps, 15)
            for i in range(reps):
                order = [("p", pargv, {"GOMAXPROCS": "1"}, (0, 1)), ("r", rargv + rel, {"RAYON_NUM_THREADS": "1"}, (0,))]
                if i % 2:
                    order.reverse()
                for who, argv, env, ok in order:
                    (p if who == "p" else r).append(run(argv, env, root, a.cpu, ok))
            pc, rc = statistics.median(x[0] for x in p), statistics.median(x[0] for x in r)
            pm, rm = statistics.median(x[1] for x in p), statistics.median(x[1] for x in r)
            # each repetition's two runs follow each other: the ratio of the
            # pair cancels a drift of the machine's speed slower than a run
            pairs = sorted(x[0] / y[0] for x, y in zip(p, r))
            rows.append((name, len(fs), mb, pc, rc, pm, rm, pairs))
            print(f"  {name}: polynfi {pc:.3f} s {pm / 1e6:.0f} MB, ruff {rc:.3f} s {rm / 1e6:.0f} MB; "
                  f"per-repetition CPU ratios {' '.join(f'{x:.2f}' for x in pairs)}", flush=True)
        print()
        print(f"{'corpus':<18} {'files':>6} {'MB':>7} {'polynfi CPU s':>13} {'ruff CPU s':>10} {'CPU ratio':>9} "
              f"{'paired (quartiles)':>19} {'polynfi RSS MB':>14} {'ruff RSS MB':>11} {'RSS ratio':>9} {'B/src B p/r':>12}")
        for name, n, mb, pc, rc, pm, rm, pairs in rows:
            q1, q2, q3 = statistics.quantiles(pairs, n=4) if len(pairs) > 1 else pairs * 3
            print(f"{name:<18} {n:>6} {mb:>7.1f} {pc:>13.3f} {rc:>10.3f} {pc / rc:>9.2f} "
                  f"{f'{q2:.2f} ({q1:.2f}-{q3:.2f})':>19} "
                  f"{pm / 1e6:>14.0f} {rm / 1e6:>11.0f} {pm / rm:>9.2f} {pm / mb / 1e6:>5.1f}/{rm / mb / 1e6:<5.1f}")
        print("CPU ratio: median polynfi CPU / median Ruff CPU; paired: the median (and quartiles) of each "
              "repetition's polynfi/Ruff ratio, its two runs back to back")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
