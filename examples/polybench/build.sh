#!/usr/bin/env bash
# Regenerates the bundled SWE-PolyBench sample from src/: the git bundles under
# repos/, dataset.csv, predictions-wrong.jsonl and predictions-empty.jsonl.
#   build.sh          rebuild in place
#   build.sh --check  rebuild in a temporary directory and fail if the committed
#                     outputs are stale
# Needs git and python3 (standard library only).
set -euo pipefail
exec python3 "$(cd "$(dirname "$0")" && pwd)/build.py" "$@"
