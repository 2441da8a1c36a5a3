#!/usr/bin/env bash
# .ci/k8s.sh up|test|down: the local Kubernetes cluster the kubernetes runtime's
# tests run against (k8s/cluster/). `up` installs the Debian packages it
# needs, makes sure Docker runs (for the pause and test images), builds the
# Kubernetes binaries (cached in /var/cache/polynfi-k8s: seconds when warm,
# about 15 min cold on 2 cores), starts the cluster and loads the test image.
# `up` also starts the loopback image registry (k8s/cluster/registry.sh,
# built once and cached) and checks that every server listens on 127.0.0.1
# only. `test` runs the kubernetes tests against it (runtime, CLI, harness);
# `down` removes the cluster and the registry (not the cache). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
case ${1:-up} in
up)
  need=""
  command -v etcd >/dev/null || need="$need etcd-server"
  [ -x /usr/lib/cni/bridge ] || need="$need containernetworking-plugins"
  command -v containerd >/dev/null || need="$need containerd"
  command -v runc >/dev/null || need="$need runc"
  command -v iptables >/dev/null || need="$need iptables"
  command -v docker >/dev/null || need="$need docker.io"
  for t in openssl curl gcc; do command -v $t >/dev/null || need="$need $t"; done
  if [ -n "$need" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
  fi
  if ! docker info >/dev/null 2>&1; then
    nohup dockerd > /var/log/dockerd.log 2>&1 &
    for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  fi
  t0=$(date +%s)
  bash k8s/cluster/up.sh > /dev/null
  bash k8s/cluster/test-image.sh
  bash k8s/cluster/registry.sh > /dev/null
  # every server of the cluster listens on loopback only
  S=${POLYNFI_K8S_STATE:-/var/lib/polynfi-k8s}
  pids=$(cat "$S"/pids/* | paste -sd'|')
  bad=$(ss -Hltnup | grep -E "pid=($pids)," | awk '$5 !~ /^127\.0\.0\.1:/' || true)
  if [ -n "$bad" ]; then echo "k8s: a cluster server listens beyond loopback:"; echo "$bad"; exit 1; fi
  echo "k8s: cluster and registry up in $(( $(date +%s) - t0 ))s, listening on 127.0.0.1 only (kubeconfig $S/admin.kubeconfig)"
  ;;
test)
  # the runtime's own tests, then the sample's verdicts, a SIGKILLed run,
  # images pushed to the loopback registry and pulled by the node, and the
  # hostile-patch suite, all in pods of the local cluster
  # one package at a time: the hostile suite's fork bomb loads the node for minutes
  go test -p 1 -count=1 -timeout 60m -run 'Kubernetes|LabelValue' ./runtime/... ./internal/cli/ ./harness/ ;;
down) bash k8s/cluster/down.sh ;;
*) echo "usage: $0 up|test|down" >&2; exit 2 ;;
esac
