#!/usr/bin/env bash
# Installs Microsoft's SARIF Multitool 5.7.0 (npm package
# @microsoft/sarif-multitool-linux, a self-contained Linux binary with the
# SARIF 2.1.0 JSON schema built in), the validator of
# internal/cli/sarif_validate_test.go: every SARIF log polynfi writes must
# pass `validate --rule-kind Sarif;Gh` (the schema, SARIF's own rules and
# GitHub code scanning's ingestion rules) without an error or warning.
# Idempotent: a stamp skips it on the next run. The test fails (not
# skips) under CI=true when the validator is missing.
set -euo pipefail
dir="${POLYNFI_SARIF_MULTITOOL_DIR:-$HOME/.cache/polynfi/sarif-multitool-5.7.0}"
if [ -f "$dir/.polynfi-stamp" ]; then
  exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent @microsoft/sarif-multitool-linux@5.7.0 >/dev/null)
tar -xzf "$tmp"/microsoft-sarif-multitool-linux-5.7.0.tgz -C "$dir"
chmod +x "$dir/package/Sarif.Multitool"
"$dir/package/Sarif.Multitool" --version >/dev/null
touch "$dir/.polynfi-stamp"
