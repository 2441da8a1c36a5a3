package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
)

func TestVolatileRoot(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		m    mountPoint
		want string
	}{
		{mountPoint{"/var/lib/polynfi-k8s/containerd/state/io.containerd.runtime.v2.task/k8s.io/f2a9/rootfs", "overlay"}, "/var/lib/polynfi-k8s/containerd/state"},
		{mountPoint{"/var/lib/polynfi-k8s/containerd/state/io.containerd.grpc.v1.cri/sandboxes/ab/shm", "tmpfs"}, "/var/lib/polynfi-k8s/containerd/state"},
		{mountPoint{"/var/lib/polynfi-k8s/containerd/state/io.containerd.grpc.v1.cri/netns/cni-6df6", "nsfs"}, "/var/lib/polynfi-k8s/containerd/state"},
		{mountPoint{"/srv/k/kubelet/pods/cfac5a48/volumes/kubernetes.io~projected/p", "tmpfs"}, "/srv/k/kubelet"},
		{mountPoint{"/srv/k/kubelet/pods/cfac5a48/volume-subpaths/v/c/0", "ext4"}, "/srv/k/kubelet"},
		{mountPoint{"/data/docker/overlay2/0123abc/merged", "overlay"}, "/data/docker"},
		{mountPoint{"/data/docker/containers/0123abc/mounts/shm", "tmpfs"}, "/data/docker"},
		{mountPoint{"/run/netns/cni-13f6", "nsfs"}, "/run/netns"},
		{mountPoint{"/run/docker/netns/0a1b", "nsfs"}, "/run/docker/netns"},
		{mountPoint{"/opt/some/overlay", "overlay"}, "/opt/some/overlay"},
		{mountPoint{"/home", "ext4"}, ""},
		{mountPoint{"/sys/fs/cgroup/pids", "cgroup"}, ""},
		{mountPoint{"/mnt/pods", "tmpfs"}, ""},
		{mountPoint{"/", "ext4"}, ""},
	} {
		if got := volatileRoot(c.m); got != c.want {
			t.Errorf("volatileRoot(%s %s) = %q, want %q", c.m.fstype, c.m.path, got, c.want)
		}
	}
	if got := unescapeMount(`/mnt/a\040b\134c`); got != `/mnt/a b\c` {
		t.Errorf("unescapeMount = %q", got)
	}
}

// TestBwrapHostView checks the host view: the host's files read-only at
// their paths (the sandbox's own / too), the work tree and the temporary
// directory writable, and the engines' state directories and sockets not
// there at all.
func TestBwrapHostView(t *testing.T) {
	t.Parallel()
	r := newTestLocal(t, LocalOptions{})
	if r.Isolation() != IsolationBwrap {
		citest.Missing(t, "bwrap unavailable: %s", r.Note())
	}
	dir := t.TempDir()
	host, err := os.ReadFile("/etc/os-release")
	if err != nil {
		t.Fatal(err)
	}
	var hidden []string
	for _, d := range append(append([]string{}, engineDirs...), r.view.volatileRoots()...) {
		if _, err := os.Lstat(d); err == nil {
			hidden = append(hidden, d)
		}
	}
	// The host view binds the temporary directory writable (polynfi's own
	// commands write there): a home under it (a fresh machine's HOME in
	// /tmp) is writable by design, and is not probed.
	probeHome := `"$HOME"`
	if h, err := os.UserHomeDir(); err == nil && under(filepath.Clean(h), filepath.Clean(os.TempDir())) {
		probeHome = ""
	}
	script := `cat /etc/os-release; echo --
for p in / /usr /etc /var /run ` + probeHome + `; do
  if touch "$p/polynfi-hostview-probe" 2>/dev/null; then echo "wrote $p"; fi
done
mkdir /polynfi-hostview-probe-dir 2>/dev/null && echo "mkdir /"
echo w > work.txt && cat work.txt
for p in "$@"; do test -e "$p" && echo "seen $p"; done
true`
	res, err := r.Run(context.Background(), Command{Args: append([]string{"bash", "-c", script, "probe"}, hidden...), Dir: dir, HostView: true})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("exit %d %v: %s %s %v", res.ExitCode, err, res.Stdout, res.Stderr, res.Notes)
	}
	out := string(res.Stdout)
	if !strings.HasPrefix(out, string(host)+"--\n") {
		t.Errorf("the host's /etc/os-release not seen: %q", out)
	}
	for _, bad := range []string{"wrote ", "mkdir /", "seen "} {
		if strings.Contains(out, bad) {
			t.Errorf("%q in the output:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "\nw\n") {
		t.Errorf("the work tree is not writable: %q %s", out, res.Stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "work.txt")); err != nil || string(b) != "w\n" {
		t.Errorf("work.txt on the host: %q %v", b, err)
	}
	t.Logf("left out of the host view: %v", hidden)
}

// TestLocalSetupRetry: a sandbox that cannot be set up (a writable path
// that does not exist) is tried three times, the failures named in the
// notes; a command that fails saying "bwrap: " itself (no output, exit 1,
// as a set-up failure looks) ran, so it is not retried.
func TestLocalSetupRetry(t *testing.T) {
	t.Parallel()
	r := newTestLocal(t, LocalOptions{})
	if r.Isolation() != IsolationBwrap {
		citest.Missing(t, "bwrap unavailable: %s", r.Note())
	}
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-dir")
	var live strings.Builder
	res, err := r.Run(context.Background(), Command{Script: "echo ran >> ran.txt", Dir: dir, Writable: []string{missing},
		Stdin: strings.NewReader("input"), Stderr: &live})
	if err != nil {
		t.Fatal(err)
	}
	retries := 0
	for _, n := range res.Notes {
		if strings.HasPrefix(n, SetupFailureNote+": ") {
			retries++
		}
	}
	if res.ExitCode == 0 || retries != 2 || !strings.Contains(string(res.Stderr), "bwrap: ") {
		t.Errorf("exit %d, %d retries (want 2), stderr %q, notes %v", res.ExitCode, retries, res.Stderr, res.Notes)
	}
	if live.Len() != 0 {
		t.Errorf("a set-up failure reached the live copy: %q", live.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err == nil {
		t.Error("the command ran although its sandbox was never set up")
	}

	res, err = r.Run(context.Background(), Command{Script: "echo ran >> ran.txt; echo 'bwrap: Can'\\''t bind mount: fake' >&2; exit 1", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "ran.txt"))
	if res.ExitCode != 1 || string(b) != "ran\n" || fmt.Sprint(res.Notes) != "[]" {
		t.Errorf("a command's own failure: exit %d, ran %q times, notes %v", res.ExitCode, b, res.Notes)
	}
}
