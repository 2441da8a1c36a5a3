#!/usr/bin/env bash
# Builds the images the bundled sample's Dockerfiles start FROM, without any
# registry (test fixture; polynfi itself needs none of this):
#   polynfi-fixture/bookworm:1   Debian 12 minbase (debootstrap, docker import)
#   polybench_python_base        + python3, pytest, git, patch (Debian packages)
#   polybench_java_base          + OpenJDK 17, Maven, git, patch
#   polybench_javascript_base    + Node 18, npm, and the sample's Node packages
#   polybench_typescript_base      (jest, ts-jest, typescript, mocha from
#                                  ../env/node) under /opt/polynfi-sample/env/node
#   polybench_multilang_base     + Go, Rust, C/C++ (CMake, googletest, doctest),
#                                  PHP + PHPUnit, Ruby + RSpec + minitest, all
#                                  Debian packages (../../multilang/docker), the
#                                  one image behind polybench_go_base,
#                                  polybench_rust_base, polybench_c_base,
#                                  polybench_cpp_base, polybench_php_base and
#                                  polybench_ruby_base (one layer, six tags)
# Package registries are reached over HTTPS through a CA this machine trusts,
# so the host's bundle is split into /usr/local/share/ca-certificates inside
# the images (see ca.sh). Each image carries the hash of its inputs as the
# label polynfi.fixture.hash and is rebuilt only when that changes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
log() { printf 'bases.sh: %s\n' "$*" >&2; }
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
root_image="polynfi-fixture/bookworm:1"

if ! docker image inspect "$root_image" >/dev/null 2>&1; then
	command -v debootstrap >/dev/null 2>&1 || {
		$sudo apt-get update -qq
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq debootstrap >/dev/null
	}
	dir="$(mktemp -d /var/tmp/polynfi-bookworm-XXXXXX)"
	log "debootstrap bookworm into $dir (about a minute)"
	$sudo debootstrap --variant=minbase bookworm "$dir" http://deb.debian.org/debian >/dev/null
	$sudo tar -C "$dir" -c . | docker import -c 'CMD ["/bin/bash"]' - "$root_image" >/dev/null
	$sudo rm -rf "$dir"
fi

ca="/etc/ssl/certs/ca-certificates.crt"
build() { # build NAME DOCKERFILE [FILE...]: the files are copied into the context
	local name="$1" dockerfile="$2"
	shift 2
	local hash
	hash="$(cat "$here/$dockerfile" "$here/ca.sh" "$@" "$ca" | sha256sum | cut -c1-16)"
	if [[ "$(docker image inspect -f '{{index .Config.Labels "polynfi.fixture.hash"}}' "$name" 2>/dev/null)" == "$hash" ]]; then
		log "$name: up to date"
		return
	fi
	local ctx
	ctx="$(mktemp -d)"
	cp "$here/ca.sh" "$ca" "$ctx/"
	for f in "$@"; do cp "$f" "$ctx/"; done
	log "$name: building"
	docker build -q --label "polynfi.fixture.hash=$hash" -t "$name" -f "$here/$dockerfile" "$ctx" >/dev/null
	rm -rf "$ctx"
}
build polybench_python_base python.Dockerfile
build polybench_java_base java.Dockerfile
node="$here/../env/node"
build polybench_javascript_base node.Dockerfile "$node/package.json" "$node/package-lock.json"
docker tag polybench_javascript_base polybench_typescript_base
build polybench_multilang_base ../../multilang/docker/multilang.Dockerfile
for lang in go rust c cpp php ruby; do
	docker tag polybench_multilang_base "polybench_${lang}_base"
done
log "done"
