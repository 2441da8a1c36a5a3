#!/usr/bin/env bash
# up.sh: start a real single-node Kubernetes cluster on this machine for the
# kubernetes runtime's tests and for trying `polynfi eval --runtime kubernetes`
# locally (make cluster-up). Components: Debian's etcd, the kube-apiserver,
# kube-controller-manager, kube-scheduler and kubelet that build.sh compiles,
# a containerd instance of its own (Docker's is never touched) with CNI
# bridge networking, and a pause image built here (no registry is needed).
#
#   export KUBECONFIG=$(k8s/cluster/up.sh)     # last stdout line: the kubeconfig
#
# Idempotent: what runs (recorded pid, same binary) is left alone, what is
# missing is started; files are rewritten only when their content changes. A
# second run on a live cluster takes about a second. down.sh undoes it all.
#
# Environment:
#   POLYNFI_K8S_STATE   state directory, removed by down.sh  [/var/lib/polynfi-k8s]
#   POLYNFI_K8S_CACHE   build cache (see build.sh)           [/var/cache/polynfi-k8s]
#   POLYNFI_K8S_IMAGES  Docker images to import into the node's containerd  [""]
#   POLYNFI_K8S_WAIT    seconds to wait for each component   [180]
#   POLYNFI_K8S_NODE_GRACE  the controller manager's --node-monitor-grace-period:
#                       a node whose kubelet has not renewed its lease for this
#                       long is Ready=Unknown (node lost)  [20s]
#   POLYNFI_K8S_REGISTRY_PORT  port of registry.sh's loopback registry, which
#                       the node's containerd pulls from over plain HTTP [5000]
# Needs root, etcd-server, containerd, runc, containernetworking-plugins,
# iptables, openssl, curl, python3, Go (build.sh and the pause image), and
# docker only to import images.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
S=${POLYNFI_K8S_STATE:-/var/lib/polynfi-k8s}
IMAGES=${POLYNFI_K8S_IMAGES:-}
WAIT=${POLYNFI_K8S_WAIT:-180}
REGISTRY_PORT=${POLYNFI_K8S_REGISTRY_PORT:-5000}
# The node is named localhost: the API server reaches the kubelet (exec,
# logs) at the node's Hostname address, which resolves to 127.0.0.1, so the
# kubelet, like every server here, listens on loopback only (a node IP cannot
# be a loopback address, the kubelet refuses it).
NODE=localhost
API_PORT=6443 ETCD_PORT=23790 ETCD_PEER_PORT=23791
SERVICE_CIDR=10.96.0.0/12 SERVICE_IP=10.96.0.1 POD_SUBNET=10.244.0.0/24
BRIDGE=pnfik8s0
PAUSE=localhost/polynfi/pause:1
SOCK=$S/containerd/containerd.sock
T0=$(date +%s.%N)
say() { printf "[k8s up %5ss] %s\n" "$(awk -v a="$(date +%s.%N)" -v b="$T0" "BEGIN {printf \"%.1f\", a - b}")" "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root"
for t in etcd containerd ctr runc openssl curl iptables python3; do
  command -v $t >/dev/null || die "missing $t (see .ci/k8s.sh for the packages)"
done
[ -x /usr/lib/cni/bridge ] || die "missing /usr/lib/cni/bridge: apt-get install containernetworking-plugins"
BIN=$("$HERE/build.sh")
mkdir -p "$S"/{pki,pids,launched,logs,containerd,cni/net.d,cni/ipam,kubelet,images}

# put FILE: write stdin to FILE only when it differs (daemons restart on change)
put() { local t; t=$(mktemp "$1.XXXX"); cat > "$t"; if cmp -s "$t" "$1"; then rm -f "$t"; else mv "$t" "$1"; fi; }
pidof_() { cat "$S/pids/$1" 2>/dev/null || true; }
alive() { local p; p=$(pidof_ "$1"); [ -n "$p" ] && [ -r "/proc/$p/cmdline" ] && tr '\0' ' ' < "/proc/$p/cmdline" | grep -q -- "$2"; }
# launch name binary args... : detached (own session), logs in logs/name.log.
# A running one is left alone unless its arguments or its --config file
# changed since it started (recorded in $S/launched/name): it is then
# stopped (TERM, KILL after 10 s) and started again, so a cluster that is
# up picks up a changed flag. Pods survive a kubelet restart.
launch() {
  local n=$1 b=$2 key p i cfg; shift 2
  key=$( { printf '%s\n' "$b" "$@"; for a in "$@"; do case $a in --config=*) cfg=${a#--config=}; cat "$cfg" 2>/dev/null;; esac; done; } | sha256sum | cut -c1-16)
  if alive "$n" "$b"; then
    [ "$(cat "$S/launched/$n" 2>/dev/null)" = "$key" ] && return 0
    p=$(pidof_ "$n"); kill -TERM "$p" 2>/dev/null
    for i in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$p" 2>/dev/null || true
    say "stopped $n (pid $p): its flags or configuration changed"
  fi
  setsid "$b" "$@" >> "$S/logs/$n.log" 2>&1 < /dev/null &
  echo $! > "$S/pids/$n"; echo "$key" > "$S/launched/$n"; say "started $n (pid $!)"
}
await() { # what component command... : poll until command succeeds; fail fast if component died
  local what=$1 comp=$2 i=0; shift 2
  until "$@" >/dev/null 2>&1; do
    if [ -n "$comp" ] && ! kill -0 "$(pidof_ "$comp")" 2>/dev/null; then
      tail -n 25 "$S/logs/$comp.log" >&2; die "$comp exited (log $S/logs/$comp.log)"
    fi
    i=$((i + 1)); [ $i -lt $((WAIT * 4)) ] || { [ -n "$comp" ] && tail -n 25 "$S/logs/$comp.log" >&2; die "timed out: $what"; }
    sleep 0.25
  done
}

# The node's address: the source address of the default route, else any
# global address; pods and the API server's kubelet calls use it.
dev=$(ip -4 route show default | awk '{for (i = 1; i < NF; i++) if ($i == "dev") { print $(i+1); exit }}')
IP=$( { [ -n "$dev" ] && ip -4 -o addr show dev "$dev" scope global; ip -4 -o addr show scope global; } | awk '{ split($4, a, "/"); print a[1]; exit }')
[ -n "$IP" ] || die "no global IPv4 address on this machine"

# ---- certificates: one EC CA signs every serving and client certificate
cd "$S/pki"
if [ ! -s sa.key ] || ! openssl x509 -in apiserver.crt -noout -ext subjectAltName 2>/dev/null | grep -q "IP Address:$IP" ||
   ! openssl x509 -in kubelet-client.crt -noout -subject 2>/dev/null | grep -q "system:node:$NODE\b"; then
  rm -f ./*
  openssl ecparam -name prime256v1 -genkey -noout -out ca.key
  openssl req -x509 -new -key ca.key -subj /CN=polynfi-k8s-ca -days 3650 -out ca.crt \
    -addext keyUsage=critical,keyCertSign,cRLSign,digitalSignature 2>/dev/null
  sign() { # name CN O SANs
    openssl ecparam -name prime256v1 -genkey -noout -out "$1.key"
    printf '[x]\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\n%s\n' \
      "${4:+subjectAltName=$4}" > "$1.ext"
    openssl req -new -key "$1.key" -subj "/CN=$2${3:+/O=$3}" 2>/dev/null |
      openssl x509 -req -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -extfile "$1.ext" -extensions x -out "$1.crt" 2>/dev/null
  }
  sign apiserver kube-apiserver "" "DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost,DNS:$NODE,IP:127.0.0.1,IP:$IP,IP:$SERVICE_IP"
  sign apiserver-kubelet kube-apiserver-kubelet-client system:masters ""
  sign admin polynfi-admin system:masters ""
  sign controller-manager system:kube-controller-manager "" ""
  sign scheduler system:kube-scheduler "" ""
  sign kubelet-client "system:node:$NODE" system:nodes ""
  sign kubelet "$NODE" "" "DNS:$NODE,DNS:localhost,IP:127.0.0.1,IP:$IP"
  openssl genrsa -out sa.key 2048 2>/dev/null
  openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
  rm -f ./*.ext ./*.srl
  chmod 600 ./*.key
  rm -rf "$S/etcd"    # data signed by an old key is useless
  say "certificates made (openssl)"
fi
kubeconfig() { # file user certname
  put "$S/$1" <<K
apiVersion: v1
kind: Config
clusters:
- name: polynfi-k8s
  cluster: {server: "https://127.0.0.1:$API_PORT", certificate-authority-data: $(base64 -w0 < ca.crt)}
users:
- name: $2
  user: {client-certificate-data: $(base64 -w0 < "$3.crt"), client-key-data: $(base64 -w0 < "$3.key")}
contexts:
- name: polynfi-k8s
  context: {cluster: polynfi-k8s, user: $2}
current-context: polynfi-k8s
K
  chmod 600 "$S/$1"
}
kubeconfig admin.kubeconfig polynfi-admin admin
kubeconfig controller-manager.kubeconfig system:kube-controller-manager controller-manager
kubeconfig scheduler.kubeconfig system:kube-scheduler scheduler
kubeconfig kubelet.kubeconfig "system:node:$NODE" kubelet-client
cd "$S"
api() { curl -sf --cacert "$S/pki/ca.crt" --cert "$S/pki/admin.crt" --key "$S/pki/admin.key" "https://127.0.0.1:$API_PORT$1"; }

# ---- host: what kubelet changes is saved for down.sh
if [ ! -f "$S/host.orig" ]; then
  for k in kernel/panic kernel/panic_on_oops vm/overcommit_memory vm/panic_on_oom net/ipv4/ip_forward; do
    echo "$k $(cat /proc/sys/$k)"
  done > "$S/host.orig"
  for d in /var/lib/kubelet /var/log/containers /var/log/pods; do [ -e "$d" ] || echo "dir $d" >> "$S/host.orig"; done
fi
echo 1 > /proc/sys/net/ipv4/ip_forward
[ -e /proc/sys/net/bridge/bridge-nf-call-iptables ] || modprobe br_netfilter 2>/dev/null || true
ip link show $BRIDGE >/dev/null 2>&1 || ip link add $BRIDGE type bridge
ip link set $BRIDGE up
ip route replace $SERVICE_CIDR dev $BRIDGE    # service IPs never leave the machine

# ---- etcd (data on tmpfs when there is room)
ETCD_DIR=$S/etcd
[ "$(df -Pk /dev/shm 2>/dev/null | awk 'NR==2 {print $4}')" -gt 1048576 ] 2>/dev/null && ETCD_DIR=/dev/shm/polynfi-k8s-etcd
[ -d "$S/etcd" ] || { alive etcd /usr/bin/etcd || rm -rf /dev/shm/polynfi-k8s-etcd; mkdir -p "$S/etcd"; }
mkdir -p "$ETCD_DIR"; chmod 700 "$ETCD_DIR"; echo "$ETCD_DIR" > "$S/etcd-dir"
launch etcd /usr/bin/etcd --name polynfi-k8s --data-dir "$ETCD_DIR" --log-level warn --logger zap \
  --listen-client-urls http://127.0.0.1:$ETCD_PORT --advertise-client-urls http://127.0.0.1:$ETCD_PORT \
  --listen-peer-urls http://127.0.0.1:$ETCD_PEER_PORT --initial-advertise-peer-urls http://127.0.0.1:$ETCD_PEER_PORT \
  --initial-cluster polynfi-k8s=http://127.0.0.1:$ETCD_PEER_PORT --initial-cluster-state new \
  --auto-compaction-retention 1 --quota-backend-bytes 2147483648

# ---- containerd: an instance of its own, CRI on, CNI bridge without NAT
put "$S/containerd/config.toml" <<C
version = 2
root = "$S/containerd/root"
state = "$S/containerd/state"
disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.aufs"]
[grpc]
  address = "$SOCK"
[ttrpc]
  address = "$SOCK.ttrpc"
[plugins."io.containerd.internal.v1.opt"]
  path = "$S/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE"
  netns_mounts_under_state_dir = true
  # these machines lack CAP_SYS_RESOURCE: a negative oom_score_adj fails runc
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$S/containerd/runc"
  # images are pulled over plain HTTP from the loopback registry of registry.sh
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "$S/containerd/certs.d"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$S/cni/net.d"
C
put "$S/cni/net.d/10-polynfi.conflist" <<C
{"cniVersion": "1.0.0", "name": "polynfi-k8s", "plugins": [
  {"type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": false, "hairpinMode": true,
   "ipam": {"type": "host-local", "dataDir": "$S/cni/ipam", "ranges": [[{"subnet": "$POD_SUBNET"}]]}},
  {"type": "firewall"}]}
C
for h in 127.0.0.1 localhost; do
  mkdir -p "$S/containerd/certs.d/$h:$REGISTRY_PORT"
  put "$S/containerd/certs.d/$h:$REGISTRY_PORT/hosts.toml" <<C
server = "http://127.0.0.1:$REGISTRY_PORT"
[host."http://127.0.0.1:$REGISTRY_PORT"]
  capabilities = ["pull", "resolve"]
C
done
launch containerd /usr/bin/containerd --config "$S/containerd/config.toml"
CTR() { ctr --address "$SOCK" --namespace k8s.io "$@"; }
await etcd etcd curl -sf http://127.0.0.1:$ETCD_PORT/health

# ---- control plane
launch kube-apiserver "$BIN/kube-apiserver" \
  --advertise-address=127.0.0.1 --bind-address=127.0.0.1 --secure-port=$API_PORT \
  --endpoint-reconciler-type=none \
  --etcd-servers=http://127.0.0.1:$ETCD_PORT --service-cluster-ip-range=$SERVICE_CIDR \
  --client-ca-file="$S/pki/ca.crt" --tls-cert-file="$S/pki/apiserver.crt" --tls-private-key-file="$S/pki/apiserver.key" \
  --kubelet-client-certificate="$S/pki/apiserver-kubelet.crt" --kubelet-client-key="$S/pki/apiserver-kubelet.key" \
  --kubelet-certificate-authority="$S/pki/ca.crt" \
  --kubelet-preferred-address-types=Hostname \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$S/pki/sa.pub" --service-account-signing-key-file="$S/pki/sa.key" \
  --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
  --allow-privileged=false --profiling=false --event-ttl=1h \
  --max-requests-inflight=800 --max-mutating-requests-inflight=400
await containerd containerd CTR version
if ! CTR images ls -q | grep -qx "$PAUSE"; then
  # a one-file image: the static pause binary, packed by Docker from scratch
  # (no base image to pull), then moved into this containerd
  command -v docker >/dev/null || die "docker is needed to pack the pause image"
  mkdir -p "$S/images/pause"
  (cd "$HERE/pause" && CGO_ENABLED=0 GOFLAGS=-buildvcs=false go build -ldflags '-s -w' -o "$S/images/pause/pause" .)
  printf 'FROM scratch\nCOPY pause /pause\nENTRYPOINT ["/pause"]\n' > "$S/images/pause/Dockerfile"
  docker build -q --label polynfi.k8s=pause -t "$PAUSE" "$S/images/pause" >/dev/null
  docker save "$PAUSE" | CTR images import - >/dev/null
  say "pause image $PAUSE built and imported"
fi
"$HERE/load-images.sh" $IMAGES &
LOADER=$!
await kube-apiserver kube-apiserver api /readyz
launch kube-controller-manager "$BIN/kube-controller-manager" \
  --kubeconfig="$S/controller-manager.kubeconfig" --authentication-kubeconfig="$S/controller-manager.kubeconfig" \
  --authorization-kubeconfig="$S/controller-manager.kubeconfig" \
  --bind-address=127.0.0.1 --leader-elect=false --use-service-account-credentials=true \
  --service-account-private-key-file="$S/pki/sa.key" --root-ca-file="$S/pki/ca.crt" \
  --cluster-signing-cert-file="$S/pki/ca.crt" --cluster-signing-key-file="$S/pki/ca.key" \
  --service-cluster-ip-range=$SERVICE_CIDR --allocate-node-cidrs=false \
  --node-monitor-period=2s --node-monitor-grace-period=${POLYNFI_K8S_NODE_GRACE:-20s} \
  --kube-api-qps=100 --kube-api-burst=200 --concurrent-gc-syncs=20
launch kube-scheduler "$BIN/kube-scheduler" \
  --kubeconfig="$S/scheduler.kubeconfig" --authentication-kubeconfig="$S/scheduler.kubeconfig" \
  --authorization-kubeconfig="$S/scheduler.kubeconfig" --bind-address=127.0.0.1 --leader-elect=false

# ---- kubelet: cgroupfs on cgroup v1; image GC off (imported images cannot
# be pulled again); eviction thresholds low so a full CI disk does not taint
put "$S/kubelet.yaml" <<C
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: 127.0.0.1
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
authentication: {anonymous: {enabled: false}, webhook: {enabled: true}, x509: {clientCAFile: "$S/pki/ca.crt"}}
authorization: {mode: Webhook}
tlsCertFile: "$S/pki/kubelet.crt"
tlsPrivateKeyFile: "$S/pki/kubelet.key"
containerRuntimeEndpoint: "unix://$SOCK"
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
resolvConf: /etc/resolv.conf
podLogsDir: "$S/logs/pods"
maxPods: 250
# a fork bomb in a pod stops at this many tasks (processes and threads), not at
# the machine's limit (Maven, Gradle and Jest stay well below)
podPidsLimit: 1024
kubeAPIQPS: 100
kubeAPIBurst: 200
serializeImagePulls: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: "100Mi", nodefs.available: "1%", nodefs.inodesFree: "1%", imagefs.available: "1%"}
# the node's lease is renewed every quarter of this (5 s): four renewals fit
# in the controller manager's --node-monitor-grace-period (20 s), so a
# loaded but live kubelet is not taken for lost, and a frozen one is within
# about 20 s (the node-lost test)
nodeLeaseDurationSeconds: 20
C
launch kubelet "$BIN/kubelet" --config="$S/kubelet.yaml" --kubeconfig="$S/kubelet.kubeconfig" \
  --root-dir="$S/kubelet" --hostname-override=$NODE --node-ip="$IP" --v=1

ready() { api "/api/v1/nodes/$NODE" | python3 -c '
import json, sys
n = json.load(sys.stdin)
ok = any(c["type"] == "Ready" and c["status"] == "True" for c in n["status"].get("conditions", []))
sys.exit(0 if ok and not n["spec"].get("taints") else 1)'; }
await kube-controller-manager kube-controller-manager curl -skf https://127.0.0.1:10257/healthz
await kube-scheduler kube-scheduler curl -skf https://127.0.0.1:10259/healthz
await "node $NODE Ready and untainted" kubelet ready
await "service account default/default" kube-controller-manager api /api/v1/namespaces/default/serviceaccounts/default
wait $LOADER || die "image import failed"
ln -sfn "$S/admin.kubeconfig" "$S/kubeconfig"
say "cluster ready: node $NODE at $IP, Kubernetes $("$BIN/kube-apiserver" --version | cut -d' ' -f2)"
echo "$S/admin.kubeconfig"
