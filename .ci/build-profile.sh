#!/usr/bin/env bash
# Measures a cold build of bin/polynfi as a fresh machine pays it: an empty,
# private Go build cache (the module cache is used as it is; downloads are
# not timed), the same flags as `make build`. Prints the build's CPU and
# wall time, the binary's size, the actions that cost most CPU and the CPU
# by module (.ci/buildprofile). Files land in ${1:-out/build-profile}:
# actiongraph.json (go build -debug-actiongraph), modules.txt, time.txt.
# On a shared machine compare CPU seconds, not wall time.
#
#   make build-profile            # or: bash .ci/build-profile.sh DIR
#
# PKG (default ./cmd/polynfi) names the main package to build.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/build-profile}
mkdir -p "$out"
out=$(cd "$out" && pwd)
GO=${GO:-go}
ldflags=${LDFLAGS:--s -w}
pkg=${PKG:-./cmd/polynfi}
cache=$(mktemp -d "${TMPDIR:-/tmp}/polynfi-cold-cache.XXXXXX")
trap 'rm -rf "$cache"' EXIT

$GO mod download
$GO list -deps -f '{{.ImportPath}} {{with .Module}}{{.Path}}{{else}}std{{end}}' "$pkg" > "$out/modules.txt"
echo "cold build of $pkg ($(wc -l < "$out/modules.txt") packages, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)), GOCACHE=$cache" >&2
start=$(date +%s)
if [ -x /usr/bin/time ]; then
	GOCACHE=$cache /usr/bin/time -f '%U user-s %S sys-s %e wall-s %M max-RSS-KB' -o "$out/time.txt" \
		$GO build -ldflags "$ldflags" -debug-actiongraph="$out/actiongraph.json" -o "$out/polynfi" "$pkg"
else
	( TIMEFORMAT='%U user-s %S sys-s %R wall-s'; time GOCACHE=$cache \
		$GO build -ldflags "$ldflags" -debug-actiongraph="$out/actiongraph.json" -o "$out/polynfi" "$pkg" ) 2> "$out/time.txt"
fi
echo "build: $(cat "$out/time.txt") ($(( $(date +%s) - start )) s)"
echo "binary: $(stat -c %s "$out/polynfi") bytes ($out/polynfi, -ldflags '$ldflags')"
$GO run ./.ci/buildprofile -modules "$out/modules.txt" "$out/actiongraph.json"
