#!/usr/bin/env bash
# down.sh: tear down what up.sh started, and only that: the recorded
# processes (SIGTERM, SIGKILL after 10 s), the pods' containers and shims of
# the cluster's own containerd, mounts under the state directory, the CNI
# bridge and service route, the KUBE-* and CNI-* iptables chains, the sysctls
# and directories kubelet changed; then the state directory and etcd data.
# Docker, its containerd and its iptables chains are never touched. Safe to
# run again, and on a machine with no cluster. The build cache stays.
# Environment: POLYNFI_K8S_STATE [/var/lib/polynfi-k8s]
set -uo pipefail
S=${POLYNFI_K8S_STATE:-/var/lib/polynfi-k8s}
SOCK=$S/containerd/containerd.sock
BRIDGE=pnfik8s0
say() { echo "[k8s down] $*" >&2; }
[ -d "$S" ] || { say "no cluster state at $S: nothing to do"; exit 0; }

ours() { local p; p=$(cat "$S/pids/$1" 2>/dev/null) && [ -r "/proc/$p/cmdline" ] && tr '\0' ' ' < "/proc/$p/cmdline" | grep -q -- "$2" && echo "$p"; }
stop() { # "name binary"...
  local spec p pids="" i
  for spec in "$@"; do
    if p=$(ours "${spec%% *}" "${spec#* }"); then kill -TERM "$p" 2>/dev/null; pids="$pids $p"; fi
    rm -f "$S/pids/${spec%% *}"
  done
  for i in $(seq 50); do
    local left=""; for p in $pids; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
    pids=$left; [ -z "$pids" ] && return 0; sleep 0.2
  done
  for p in $pids; do kill -KILL "$p" 2>/dev/null; say "SIGKILL $p"; done
}

stop "kubelet kubelet"
if [ -S "$SOCK" ] && ctr --address "$SOCK" version >/dev/null 2>&1; then
  CTR() { ctr --address "$SOCK" --namespace k8s.io "$@"; }
  for t in $(CTR tasks ls -q 2>/dev/null); do CTR tasks kill -s SIGKILL "$t" >/dev/null 2>&1; done
  sleep 0.5
  for t in $(CTR tasks ls -q 2>/dev/null); do CTR tasks delete -f "$t" >/dev/null 2>&1; done
  for c in $(CTR containers ls -q 2>/dev/null); do CTR containers delete "$c" >/dev/null 2>&1; done
fi
stop "containerd /usr/bin/containerd"
for p in $(pgrep -f containerd-shim 2>/dev/null); do   # shims of our containerd only
  tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -q -- "-address $SOCK " && kill -KILL "$p" 2>/dev/null
done
stop "kube-scheduler kube-scheduler" "kube-controller-manager kube-controller-manager" "kube-apiserver kube-apiserver"
stop "etcd /usr/bin/etcd" "registry /registry"

findmnt -rn -o TARGET | awk -v s="$S/" 'index($0, s) == 1' | sort -r | while read -r m; do
  umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
done
ip route del 10.96.0.0/12 dev $BRIDGE 2>/dev/null
ip link del $BRIDGE 2>/dev/null
for table in filter nat mangle; do
  chains=$(iptables-save -t $table 2>/dev/null | awk '/^:(KUBE-|CNI-)/ {print substr($1, 2)}')
  [ -n "$chains" ] || continue
  iptables-save -t $table | grep -E '^-A ' | grep -E -- '-j (KUBE-|CNI-)' | grep -vE '^-A (KUBE-|CNI-)' |
    while read -r rule; do eval "iptables -t $table ${rule/-A /-D }" 2>/dev/null; done
  for c in $chains; do iptables -t $table -F "$c" 2>/dev/null; done
  for c in $chains; do iptables -t $table -X "$c" 2>/dev/null; done
done
if [ -f "$S/host.orig" ]; then
  while read -r k v; do
    case $k in dir) rm -rf "$v";; *) echo "$v" > "/proc/sys/$k" 2>/dev/null;; esac
  done < "$S/host.orig"
fi
find /var/log/containers -maxdepth 1 -type l -lname "$S/*" -delete 2>/dev/null
for h in /sys/fs/cgroup/*/kubepods; do [ -d "$h" ] && find "$h" -depth -type d -exec rmdir {} \; 2>/dev/null; done
etcd=$(cat "$S/etcd-dir" 2>/dev/null)
rm -rf "$S" ${etcd:+"$etcd"}
say "removed the cluster and $S"
