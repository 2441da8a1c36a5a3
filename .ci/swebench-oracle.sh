#!/usr/bin/env bash
# Installs the SWE-bench 5.0.2 oracle of the grading parity tests
# (internal/swebenchoracle): the swebench package without its dependencies
# (only its log parsers and grading run) and unidiff, which they import.
# Idempotent: a stamp skips it on the next run.
set -euo pipefail
dir="${POLYNFI_SWEBENCH_ORACLE:-$HOME/.cache/polynfi/swebench-5.0.2}"
if [ -f "$dir/.polynfi-stamp" ]; then
  exit 0
fi
rm -rf "$dir"
python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$dir" swebench==5.0.2 unidiff==0.7.5
touch "$dir/.polynfi-stamp"
