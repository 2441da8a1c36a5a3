#!/usr/bin/env bash
# build.sh: build the Kubernetes node and control-plane binaries that the
# local test cluster (up.sh) runs, from source, through the Go module proxy.
#
#   k8s/cluster/build.sh        # prints the bin directory on its last stdout line
#
# k8s.io/kubernetes is published on the module proxy, but its go.mod points
# every staging module k8s.io/<name> at ./staging/src/k8s.io/<name>, a path a
# consumer cannot use. A throw-away module outside the project's go.mod
# requires k8s.io/kubernetes $K8S_VERSION and replaces each staging module by
# its published twin k8s.io/<name> v0.<minor>.<patch>; a main.go blank-imports
# the cmd/<binary>/app packages so `go mod tidy` records every dependency.
# The binaries get the version stamp the upstream release build sets
# (hack/lib/version.sh), otherwise they report v0.0.0-master.
#
# Idempotent and cached: the module, the Go build cache and the binaries live
# under $POLYNFI_K8S_CACHE (default /var/cache/polynfi-k8s); a stamp records
# the version and the binary list, so a second run returns at once.
# Cold: about 8-15 min on 2 shared cores (runs under nice); warm cache: seconds.
#
# Environment: K8S_VERSION [v1.31.4], POLYNFI_K8S_CACHE [/var/cache/polynfi-k8s],
#              K8S_BINARIES [kube-apiserver kube-controller-manager kube-scheduler kubelet]
# Needs: Go >= 1.22 and gcc (kubelet links with cgo).
set -euo pipefail
V=${K8S_VERSION:-v1.31.4}
CACHE=${POLYNFI_K8S_CACHE:-/var/cache/polynfi-k8s}
BINS=${K8S_BINARIES:-kube-apiserver kube-controller-manager kube-scheduler kubelet}
STAGING=v0.${V#v1.}                     # v1.31.4 -> v0.31.4
MINOR=${STAGING#v0.}; MINOR=${MINOR%%.*}
MOD=$CACHE/$V/module
OUT=$CACHE/$V/bin
STAMP=$OUT/.stamp
T0=$(date +%s)
say() { echo "[k8s build +$(( $(date +%s) - T0 ))s] $*" >&2; }

want="$V $BINS"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ]; then
  ok=1; for b in $BINS; do [ -x "$OUT/$b" ] || ok=0; done
  if [ $ok = 1 ]; then say "cached: $OUT"; echo "$OUT"; exit 0; fi
fi
command -v go >/dev/null || { say "go not found"; exit 1; }
command -v gcc >/dev/null || { say "gcc not found (kubelet needs cgo)"; exit 1; }

mkdir -p "$MOD" "$OUT"
export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false GOCACHE=$CACHE/gocache GOWORK=off
cd "$MOD"

# The module zip of k8s.io/kubernetes: its go.mod lists the staging modules,
# its .info gives the commit and tag time for the version stamp.
meta=$(cd / && go mod download -json "k8s.io/kubernetes@$V")
kdir=$(printf '%s\n' "$meta" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
info=$(printf '%s\n' "$meta" | sed -n 's/^[[:space:]]*"Info": "\(.*\)",$/\1/p')
[ -f "$kdir/go.mod" ] || { say "k8s.io/kubernetes@$V: no go.mod in the module download"; exit 1; }
commit=$(sed -n 's/.*"Hash":"\([0-9a-f]*\)".*/\1/p' "$info"); commit=${commit:-unknown}
built=$(sed -n 's/.*"Time":"\([^"]*\)".*/\1/p' "$info")
say "k8s.io/kubernetes@$V (commit $commit, $built)"

tmp=$(mktemp)
{
  printf 'module polynfi.local/k8sbuild\n\ngo 1.22.0\n\nrequire k8s.io/kubernetes %s\n\n' "$V"
  awk -v v="$STAGING" '$1 ~ /^k8s\.io\// && $2 == "=>" && $3 ~ /^\.\/staging\// { print "replace " $1 " => " $1 " " v }' "$kdir/go.mod"
} > "$tmp"
# keep go.sum and the tidy result when go.mod did not change
if ! cmp -s "$tmp" go.mod; then mv "$tmp" go.mod; rm -f go.sum; else rm -f "$tmp"; fi
{
  printf 'package main\n\nimport (\n'
  for b in $BINS; do printf '\t_ "k8s.io/kubernetes/cmd/%s/app"\n' "$b"; done
  printf ')\n\nfunc main() {}\n'
} > main.go
say "$(grep -c '^replace' go.mod) staging modules replaced by their $STAGING releases"

if [ ! -s go.sum ] || ! go list -deps ./ >/dev/null 2>&1; then
  go mod tidy 2> tidy.log || { tail -20 tidy.log >&2; exit 1; }
  say "go mod tidy: $(grep -c downloading tidy.log || true) modules downloaded"
fi

ldflags="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags="$ldflags -X $p.gitVersion=$V -X $p.gitMajor=1 -X $p.gitMinor=$MINOR -X $p.gitCommit=$commit -X $p.gitTreeState=clean -X $p.buildDate=$built"
done
pkgs=; for b in $BINS; do pkgs="$pkgs k8s.io/kubernetes/cmd/$b"; done
nice -n 10 go build -trimpath -ldflags "$ldflags" -o "$OUT/" $pkgs
echo "$want" > "$STAMP"
say "built $BINS in $OUT ($("$OUT/kube-apiserver" --version 2>/dev/null || true))"
echo "$OUT"
