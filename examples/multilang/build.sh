#!/usr/bin/env bash
# Regenerates the bundled multi-language sample from src/ with the builder of
# examples/polybench (the same layout and rules): repos/*.bundle, dataset.csv,
# predictions-wrong.jsonl, predictions-empty.jsonl; then the same instances as
# SWE-bench Multilingual and Multi-SWE-bench publish their rows
# (build_shapes.py).
#   build.sh          rebuild in place
#   build.sh --check  fail if the committed outputs are stale
# Needs git and python3 (standard library only).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python3 "$here/../polybench/build.py" --root "$here" "$@"
python3 "$here/build_shapes.py" "$@"
