#!/usr/bin/env bash
# .ci/k8s.sh up|test|down: the local Kubernetes cluster the kubernetes runtime's
# tests run against (k8s/cluster/). `up` installs the Debian packages it
# needs, makes sure Docker runs (for the pause and test images), builds the
# Kubernetes binaries (cached in /var/cache/polynfi-k8s: seconds when warm,
# about 15 min cold on 2 cores), starts the cluster and loads the test image.
# `test` runs the kubernetes runtime's tests against it; `down` removes the
# cluster (not the cache). Idempotent.
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
  echo "k8s: cluster up in $(( $(date +%s) - t0 ))s (kubeconfig /var/lib/polynfi-k8s/admin.kubeconfig)"
  ;;
test) go test -count=1 -run 'Kubernetes|LabelValue' ./runtime/ ;;
down) bash k8s/cluster/down.sh ;;
*) echo "usage: $0 up|test|down" >&2; exit 2 ;;
esac
