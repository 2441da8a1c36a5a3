#!/bin/bash
# SWE-bench Pro-shaped run_script.sh of gridworks/durfmt, written for
# polynfi's sample. Called as the published harness calls it:
#   bash run_script.sh <test files, comma-separated>
# in the repository; runs `go test -v` on the packages that hold the files
# (every package when none is given). stdout and stderr are captured apart.
set -uo pipefail
IFS=, read -ra files <<< "${1:-}"
pkgs=()
for f in "${files[@]}"; do
  pkgs+=("./$(dirname "$f")")
done
if [ ${#pkgs[@]} -eq 0 ]; then
  pkgs=(./...)
fi
go test -v -count=1 "${pkgs[@]}"
