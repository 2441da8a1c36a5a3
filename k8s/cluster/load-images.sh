#!/usr/bin/env bash
# load-images.sh IMAGE...: copy Docker images into the local cluster node's
# containerd (namespace k8s.io), as a single-node cluster without a registry
# needs: docker save IMAGE | ctr images import -. An image already there (same
# image id) is skipped. Pods then use it with imagePullPolicy IfNotPresent.
# Environment: POLYNFI_K8S_STATE [/var/lib/polynfi-k8s]
set -euo pipefail
S=${POLYNFI_K8S_STATE:-/var/lib/polynfi-k8s}
SOCK=$S/containerd/containerd.sock
[ $# -gt 0 ] || exit 0
[ -S "$SOCK" ] || { echo "load-images: no cluster containerd at $SOCK (run up.sh)" >&2; exit 1; }
CTR() { ctr --address "$SOCK" --namespace k8s.io "$@"; }
for img in "$@"; do
  id=$(docker image inspect -f '{{.Id}}' "$img") || { echo "load-images: no docker image $img" >&2; exit 1; }
  # ctr names a docker.io image in full: docker.io/library/NAME:TAG
  ref=$img
  case "$ref" in */*) case "${ref%%/*}" in *.*|*:*|localhost) ;; *) ref=docker.io/$ref;; esac;; *) ref=docker.io/library/$ref;; esac
  case "${ref##*/}" in *:*) ;; *) ref=$ref:latest;; esac
  # a config digest equal to docker's image id means the same image
  if CTR images ls 2>/dev/null | awk -v r="$ref" '$1 == r' | grep -q .; then
    cfg=$(CTR images ls 2>/dev/null | awk -v r="$ref" '$1 == r {print $3}')
    if [ "$(CTR content get "$cfg" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["config"]["digest"])' 2>/dev/null)" = "$id" ]; then continue; fi
  fi
  docker save "$img" | CTR images import - >/dev/null
  echo "[k8s] imported $img as $ref" >&2
done
