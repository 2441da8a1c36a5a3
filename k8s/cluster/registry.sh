#!/usr/bin/env bash
# registry.sh: a plain-HTTP image registry on 127.0.0.1 for the local test
# cluster, so that `polynfi images build --push 127.0.0.1:5000/PREFIX` and a
# run that pulls from it (eval --runtime kubernetes --image-template ...) can
# be tried and tested without reaching any outside registry. The registry is
# CNCF Distribution's (github.com/distribution/distribution/v3, cmd/registry),
# built once from source through the Go module proxy and cached; it stores
# its blobs under the cluster's state directory and is stopped by down.sh.
# The node's containerd (up.sh) pulls from it over plain HTTP (hosts.toml).
#
#   k8s/cluster/registry.sh     # prints host:port on its last stdout line
#
# Idempotent: a running registry (recorded pid) is left alone.
# Environment: POLYNFI_K8S_STATE [/var/lib/polynfi-k8s], POLYNFI_K8S_CACHE
#   [/var/cache/polynfi-k8s], POLYNFI_K8S_REGISTRY_PORT [5000],
#   DISTRIBUTION_VERSION [v3.1.2]. Needs Go; cold build about 3-6 min on 2 cores.
set -euo pipefail
S=${POLYNFI_K8S_STATE:-/var/lib/polynfi-k8s}
CACHE=${POLYNFI_K8S_CACHE:-/var/cache/polynfi-k8s}
PORT=${POLYNFI_K8S_REGISTRY_PORT:-5000}
V=${DISTRIBUTION_VERSION:-v3.1.2}
OUT=$CACHE/registry-$V
say() { echo "[k8s registry] $*" >&2; }
[ -d "$S/pids" ] || { say "no cluster state at $S: run up.sh first"; exit 1; }

if [ ! -x "$OUT/registry" ]; then
  say "building github.com/distribution/distribution/v3/cmd/registry@$V (cached in $OUT)"
  mkdir -p "$OUT"
  GOBIN=$OUT GOFLAGS=-buildvcs=false GOCACHE=$CACHE/gocache nice go install "github.com/distribution/distribution/v3/cmd/registry@$V"
fi

mkdir -p "$S/registry/data"
cat > "$S/registry/config.yml" <<C
version: 0.1
log: {level: warn, accesslog: {disabled: true}}
storage:
  filesystem: {rootdirectory: "$S/registry/data"}
  delete: {enabled: true}
http:
  addr: 127.0.0.1:$PORT
  draintimeout: 1s
C
p=$(cat "$S/pids/registry" 2>/dev/null || true)
if [ -n "$p" ] && [ -r "/proc/$p/cmdline" ] && tr '\0' ' ' < "/proc/$p/cmdline" | grep -q "$OUT/registry"; then
  :
else
  # the registry binary reads no proxy settings: OTEL exporters stay off
  OTEL_TRACES_EXPORTER=none OTEL_METRICS_EXPORTER=none OTEL_LOGS_EXPORTER=none \
    setsid "$OUT/registry" serve "$S/registry/config.yml" >> "$S/logs/registry.log" 2>&1 < /dev/null &
  echo $! > "$S/pids/registry"
  say "started registry $V on 127.0.0.1:$PORT (pid $!)"
fi
for _ in $(seq 240); do
  curl -sf "http://127.0.0.1:$PORT/v2/" >/dev/null && { echo "127.0.0.1:$PORT"; exit 0; }
  kill -0 "$(cat "$S/pids/registry")" 2>/dev/null || { tail -n 20 "$S/logs/registry.log" >&2; say "registry exited"; exit 1; }
  sleep 0.25
done
say "registry not answering on 127.0.0.1:$PORT"; exit 1
