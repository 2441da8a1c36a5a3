#!/usr/bin/env bash
# Installs Debian's chromium for the browser test of the HTML reports
# (internal/cli/browser_test.go, driven over the DevTools protocol by
# chromedp). Idempotent: does nothing when chromium is there. The test
# fails (not skips) under CI=true when chromium is missing.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
# It must start headless here (the flags the test uses).
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
  --no-first-run --disable-quic --disable-sync --user-data-dir="$dir" --dump-dom 'data:text/html,<p>ok</p>' 2>/dev/null | grep -q '<p>ok</p>'
echo "chromium.sh: $(chromium --version 2>/dev/null) works" >&2
