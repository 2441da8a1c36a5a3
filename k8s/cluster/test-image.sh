#!/usr/bin/env bash
# test-image.sh [NAME]: build the small image the kubernetes runtime's tests
# run pods from, without a registry or a base image: this machine's own
# bash, dash (as /bin/sh), tar, coreutils and the libraries they link, packed
# FROM scratch by Docker, then loaded into the local cluster's containerd
# (load-images.sh). Idempotent: a present image is rebuilt only when its
# recipe (this script) changed. Default NAME: localhost/polynfi/k8s-test:1.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NAME=${1:-localhost/polynfi/k8s-test:1}
recipe=$(sha256sum "${BASH_SOURCE[0]}" | cut -c1-16)
if [ "$(docker image inspect -f '{{index .Config.Labels "polynfi.recipe"}}' "$NAME" 2>/dev/null)" != "$recipe" ]; then
  root=$(mktemp -d); trap 'rm -rf "$root"' EXIT
  mkdir -p "$root/rootfs/bin" "$root/rootfs/tmp" "$root/rootfs/work" "$root/rootfs/etc"
  chmod 1777 "$root/rootfs/tmp"; chmod 777 "$root/rootfs/work"
  tools="bash dash tar timeout env sleep cat mkdir dirname basename ls rm cp mv head tail wc sha256sum id true false echo printf seq yes dd sort grep sed gzip tr"
  for t in $tools; do
    p=$(type -P "$t") || { echo "test-image: $t not found" >&2; exit 1; }
    cp -L "$p" "$root/rootfs/bin/$t"
    ldd "$p" 2>/dev/null | awk '/=>/ {print $3} /^\t\/lib/ {print $1}' | while read -r lib; do
      [ -f "$lib" ] && { mkdir -p "$root/rootfs$(dirname "$lib")"; cp -Ln "$lib" "$root/rootfs$lib"; }
    done
  done
  ln -s dash "$root/rootfs/bin/sh"
  # the C.UTF-8 locale of LC_ALL=C.UTF-8, which every command gets pinned
  [ -d /usr/lib/locale/C.utf8 ] && { mkdir -p "$root/rootfs/usr/lib/locale"; cp -r /usr/lib/locale/C.utf8 "$root/rootfs/usr/lib/locale/"; }
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' > "$root/rootfs/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/rootfs/etc/group"
  printf 'FROM scratch\nCOPY rootfs/ /\nENV PATH=/bin\nWORKDIR /work\nLABEL polynfi.recipe=%s polynfi.k8s=test\n' "$recipe" > "$root/Dockerfile"
  docker build -q -t "$NAME" "$root" >/dev/null
  echo "[k8s] built test image $NAME" >&2
fi
"$HERE/load-images.sh" "$NAME"
