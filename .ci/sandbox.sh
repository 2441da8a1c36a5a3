#!/usr/bin/env bash
# Installs what the isolation and adversarial tests need (runtime, harness/
# adversarial_test.go): bubblewrap, and GNU patch for the apply cascade.
# Idempotent: does nothing when both work. The tests fail (not skip) under
# CI=true when bubblewrap is missing or cannot create its sandbox.
set -euo pipefail
need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v patch >/dev/null 2>&1 || need+=(patch)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
# A sandbox must be creatable here: a user namespace with uid 1000 inside.
bwrap --unshare-user --uid 1000 --gid 1000 --unshare-pid --unshare-net --cap-drop ALL \
  --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib --symlink usr/lib64 /lib64 \
  --proc /proc --dev /dev -- /usr/bin/id -u | grep -qx 1000
echo "sandbox.sh: bubblewrap $(bwrap --version | awk '{print $2}') works" >&2
