#!/usr/bin/env bash
# The README's two commands as a new user runs them: HOME is an empty
# directory under /tmp, not the passwd home, and nothing of polynfi's is
# under it (no Maven repository of $HOME, no npm cache, no stamps).
#   make demo   must give gold 8/8 (SWE-PolyBench sample) and 12/12 (SWE-NFI)
#   make test   must pass (skipped with POLYNFI_FRESH_TEST=0)
# Each prints its wall and CPU time (user + sys of every process it ran).
#
# Go's build and module caches and its settings (GOENV: this machine's
# GOFLAGS=-buildvcs=false; without it TestHTMLReportsInBrowser fails, the
# VCS-stamped test binary's reports laying out wider) stay the
# machine's (go env before HOME changes; .ci/run hands it an empty GOCACHE,
# so make demo compiles everything as on a new machine: ~150 CPU-s). Set
# POLYNFI_FRESH_COLD_GOCACHE=1 for an empty GOCACHE under the fresh HOME
# instead (the module cache stays shared).
# The oracles .ci installed under the real home (.ci/swebench-oracle.sh,
# .ci/multiswebench-oracle.sh, .ci/sarif.sh, .ci/eslint-oracle.sh) are passed by their
# variables, as CI=true requires them.
set -euo pipefail
cd "$(dirname "$0")/.."
GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)" GOPATH="$(go env GOPATH)" GOENV="$(go env GOENV)"
export GOCACHE GOMODCACHE GOPATH GOENV
export POLYNFI_SWEBENCH_ORACLE="${POLYNFI_SWEBENCH_ORACLE:-$HOME/.cache/polynfi/swebench-5.0.2}"
export POLYNFI_MSWEBENCH_ORACLE="${POLYNFI_MSWEBENCH_ORACLE:-$HOME/.cache/polynfi/multi-swe-bench-1.1.2}"
export POLYNFI_SARIF_MULTITOOL_DIR="${POLYNFI_SARIF_MULTITOOL_DIR:-$HOME/.cache/polynfi/sarif-multitool-5.7.0}"
export POLYNFI_ESLINT_ORACLE="${POLYNFI_ESLINT_ORACLE:-$HOME/.cache/polynfi/eslint-10.15.0}"
export POLYNFI_PMD_ORACLE="${POLYNFI_PMD_ORACLE:-$HOME/.cache/polynfi/pmd-7.27.0}"
# rustup's toolchains are in the installing user's home; its cargo and
# rustc proxies find them by RUSTUP_HOME, by default $HOME/.rustup, which
# the fresh HOME lacks (the test sandboxes find them on their own:
# runtime.RustupHome; the log-reading tests run cargo on the host).
if [[ -z ${RUSTUP_HOME:-} && -d $HOME/.rustup ]]; then export RUSTUP_HOME="$HOME/.rustup"; fi
fresh="$(mktemp -d /tmp/polynfi-fresh-home.XXXXXX)"
out="$(mktemp -d /tmp/polynfi-fresh-demo.XXXXXX)"
trap 'chmod -R u+w "$fresh" 2>/dev/null; rm -rf "$fresh" "$out"' EXIT
if [[ "${POLYNFI_FRESH_COLD_GOCACHE:-0}" == 1 ]]; then
	export GOCACHE="$fresh/.cache/go-build"
fi
echo "fresh.sh: HOME=$fresh (passwd home $(getent passwd "$(id -u)" | cut -d: -f6)), GOCACHE=$GOCACHE, uid $(id -u)"

# timed NAME CMD...: runs CMD with the fresh HOME, then prints NAME's wall
# and CPU time
timed() {
	local name=$1 rc=0
	shift
	local TIMEFORMAT="fresh.sh: $name: wall %0Rs, CPU %0Us user + %0Ss sys"
	time HOME="$fresh" "$@" || rc=$?
	return $rc
}

# make demo: its output is kept to check the headlines
timed "make demo" make demo OUT="$out" 2>&1 | tee "$out/demo.log"
fail=0
grep -q '^resolved 8/8 ' "$out/demo.log" || { echo "fresh.sh: make demo: the SWE-PolyBench sample's gold patches did not resolve 8/8:" >&2; grep '^resolved ' "$out/demo.log" >&2 || true; fail=1; }
grep -q '^SWE-NFI suite: 12 tasks, 1 agent, 12 runs' "$out/demo.log" && grep -q 'test runs by status: passed 12$' "$out/demo.log" \
	|| { echo "fresh.sh: make demo: the SWE-NFI gold runs did not pass 12/12:" >&2; grep 'test runs by status' "$out/demo.log" >&2 || true; fail=1; }
[[ $fail == 0 ]] && echo "fresh.sh: make demo: gold 8/8 and 12/12"

if [[ "${POLYNFI_FRESH_TEST:-1}" != 0 ]]; then
	timed "make test" make test || fail=1
fi
exit $fail
