#!/usr/bin/env bash
# Docker Engine for the container tests (idempotent, called from .ci/run):
#   1. install Debian's docker.io when dockerd is absent;
#   2. start dockerd when `docker info` does not answer, and wait for it;
#   3. build the sample's images: the local Debian base (debootstrap, then
#      docker import; no registry is reachable) and the polybench_<language>_base
#      images of the bundled sample (examples/polybench/docker/bases.sh).
# Every step is skipped when its result is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf 'docker.sh: %s\n' "$*" >&2; }
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"

if ! command -v dockerd >/dev/null 2>&1; then
	log "installing docker.io"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq docker.io >/dev/null
fi
if ! docker info >/dev/null 2>&1; then
	log "starting dockerd"
	$sudo bash -c 'nohup dockerd >/var/log/dockerd.log 2>&1 &'
	for _ in $(seq 1 60); do
		docker info >/dev/null 2>&1 && break
		sleep 1
	done
	docker info >/dev/null 2>&1 || { log "dockerd did not start (see /var/log/dockerd.log)"; exit 1; }
fi
log "engine $(docker version --format '{{.Server.Version}} (API {{.Server.APIVersion}})')"
bash examples/polybench/docker/bases.sh
