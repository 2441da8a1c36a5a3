#!/usr/bin/env bash
# Installs the Multi-SWE-bench 1.1.2 oracle of the log-reading parity tests
# (internal/mswebenchoracle): a virtual environment holding the
# multi-swe-bench wheel without its dependencies (only its per-repository
# parse_log functions run) and the two packages its test-result module
# imports (dataclasses-json, unidiff). Idempotent: a stamp skips it on the
# next run. About 10 s on a fresh machine (a 4.9 MB wheel and five small ones).
set -euo pipefail
dir="${POLYNFI_MSWEBENCH_ORACLE:-$HOME/.cache/polynfi/multi-swe-bench-1.1.2}"
if [ -f "$dir/.polynfi-stamp" ]; then
  exit 0
fi
rm -rf "$dir"
python3 -m venv "$dir"
"$dir/bin/pip" install --quiet --disable-pip-version-check --no-deps multi-swe-bench==1.1.2
"$dir/bin/pip" install --quiet --disable-pip-version-check dataclasses-json==0.6.7 unidiff==0.7.5
touch "$dir/.polynfi-stamp"
