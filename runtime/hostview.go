package runtime

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The host view (Command.HostView) is the host's file system read-only, but
// without the trees where container engines mount and unmount all the time
// (container root file systems, pod volumes, network namespaces).
//
// Binding / as one recursive bind (bubblewrap's --ro-bind / /) copies every
// mount of the host, then reads the sandbox's mount table and remounts each
// copy read-only one by one. The sandbox's mounts are slaves of the host's,
// so a mount that the kubelet, containerd or Docker removes between the read
// and the remount fails bubblewrap's set-up:
//
//	bwrap: Can't bind mount /oldroot/ on /newroot/: Unable to apply mount flags:
//	remount "/newroot/var/lib/kubelet/pods/<uid>/volumes/kubernetes.io~projected/p": Invalid argument
//
// (bubblewrap 0.8.0; measured at 5 in 2,000 commands with four commands at a
// time while a local cluster started and deleted pods: see
// TestKubernetesBwrapUnderPodChurn). Mounts that appear under such a tree
// after the remounts would also arrive writable. So the host view binds the
// top-level entries of / one by one, and any directory above a volatile
// tree entry by entry, leaving the volatile trees out (volatileRoots).

// engineDirs are the state directories of container engines at their
// default places: Docker, containerd, the kubelet, CRI-O/Podman, k3s, runc,
// the network namespaces of CNI and Docker, and the engines' sockets.
var engineDirs = []string{
	"/var/lib/docker", "/run/docker", "/run/docker.sock",
	"/var/lib/containerd", "/run/containerd",
	"/var/lib/kubelet", "/run/netns",
	"/var/lib/containers", "/run/containers", "/run/crio", "/run/podman",
	"/var/lib/rancher", "/run/k3s", "/run/runc", "/run/crun",
}

// mountPoint is one line of /proc/self/mountinfo: where and what.
type mountPoint struct {
	path, fstype string
}

// readMounts parses /proc/self/mountinfo (proc(5): field 5 is the mount
// point, octal-escaped; the file system type follows the " - " separator).
func readMounts() []mountPoint {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []mountPoint
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 7 {
			continue
		}
		m := mountPoint{path: unescapeMount(fields[4])}
		for i := 6; i < len(fields)-1; i++ {
			if fields[i] == "-" {
				m.fstype = fields[i+1]
				break
			}
		}
		out = append(out, m)
	}
	return out
}

// unescapeMount undoes the \ooo escapes of mountinfo (space, tab, newline,
// backslash).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// volatileRoot returns the root of the engine tree a mount belongs to, ""
// when the mount is not an engine's:
//   - containerd (any root or state directory): the directory holding an
//     io.containerd.* component (…/state for …/state/io.containerd.runtime.v2.task/k8s.io/<id>/rootfs);
//   - the kubelet (any --root-dir): the directory holding pods/<uid>/volumes
//     or pods/<uid>/volume-subpaths;
//   - Docker and Podman storage: the directory holding overlay2/<id>/merged,
//     overlay/<id>/merged, containers/<id>/mounts;
//   - network namespaces: the netns directory itself;
//   - any other overlay or nsfs mount: the mount point itself.
func volatileRoot(m mountPoint) string {
	parts := strings.Split(strings.TrimPrefix(m.path, "/"), "/")
	join := func(n int) string { return "/" + strings.Join(parts[:n], "/") }
	for i, p := range parts {
		switch {
		case i > 0 && strings.HasPrefix(p, "io.containerd."):
			return join(i)
		case i > 0 && p == "pods" && i+2 < len(parts) && (parts[i+2] == "volumes" || parts[i+2] == "volume-subpaths" || parts[i+2] == "plugins"):
			return join(i)
		case i > 0 && (p == "overlay2" || p == "overlay") && i+2 < len(parts) && parts[i+2] == "merged":
			return join(i)
		case i > 0 && p == "containers" && i+2 < len(parts) && parts[i+2] == "mounts":
			return join(i)
		case p == "netns" && i+1 < len(parts):
			return join(i + 1)
		}
	}
	if m.fstype == "overlay" || m.fstype == "nsfs" {
		return m.path
	}
	return ""
}

// engineState reports whether dir, a mount point, looks like the state
// directory of a kubelet (pods next to plugins, plugins_registry or
// pod-resources) or of Docker (containers next to overlay2 or image): both
// make their directory a shared mount point, so that the mounts they make
// there reach other mount namespaces, ours included, even when it holds
// none at the moment.
func engineState(dir string) bool {
	has := func(name string) bool {
		fi, err := os.Stat(filepath.Join(dir, name))
		return err == nil && fi.IsDir()
	}
	return has("pods") && (has("plugins") || has("plugins_registry") || has("pod-resources")) ||
		has("containers") && (has("overlay2") || has("image"))
}

// hostView remembers the volatile trees seen so far: a tree that once held
// an engine's mounts stays out of the view even when it is empty for a
// moment (a kubelet between two pods).
type hostView struct {
	mu    sync.Mutex
	roots map[string]bool
}

// volatileRoots returns engineDirs, the roots of the engine mounts in the
// current mount table and those seen before, sorted.
func (h *hostView) volatileRoots() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.roots == nil {
		h.roots = map[string]bool{}
		for _, d := range engineDirs {
			h.roots[d] = true
		}
	}
	for _, m := range readMounts() {
		if r := volatileRoot(m); r != "" && r != "/" {
			h.roots[filepath.Clean(r)] = true
		}
		if m.path != "/" && !h.roots[m.path] && engineState(m.path) {
			h.roots[m.path] = true
		}
	}
	out := make([]string, 0, len(h.roots))
	for r := range h.roots {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// args returns the bubblewrap options that bind the host's file system
// read-only at the same paths, minus the volatile roots, /proc, /dev and
// skip (the temporary directory, bound separately): each entry of / that
// holds no volatile root is bound whole (--ro-bind-try, recursively, with
// every mount under it); a directory above a volatile root is created
// (--dir) and its entries handled the same way, down to the roots, which
// are left out. Symbolic links are recreated; sockets, FIFOs and devices
// in such a directory are left out (an engine's socket among them). An entry that goes away before
// bubblewrap binds it is skipped (the -try).
func (h *hostView) args(skip string) []string {
	roots := h.volatileRoots()
	holds := func(p string) bool { // a volatile root strictly below p
		for _, r := range roots {
			if r != p && under(r, p) {
				return true
			}
		}
		return false
	}
	excluded := func(p string) bool {
		for _, r := range roots {
			if under(p, r) {
				return true
			}
		}
		return false
	}
	var a []string
	var split func(dir string)
	split = func(dir string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if p == "/proc" || p == "/dev" || p == skip || excluded(p) {
				continue
			}
			switch t := e.Type(); {
			case t&fs.ModeSymlink != 0:
				if target, err := os.Readlink(p); err == nil {
					a = append(a, "--symlink", target, p)
				}
			case t.IsDir():
				if holds(p) {
					mode := fs.FileMode(0o755)
					if fi, err := e.Info(); err == nil {
						mode = fi.Mode().Perm()
					}
					a = append(a, "--perms", strconv.FormatUint(uint64(mode), 8), "--dir", p)
					split(p)
				} else {
					a = append(a, "--ro-bind-try", p, p)
				}
			case t.IsRegular():
				a = append(a, "--ro-bind-try", p, p)
			}
		}
	}
	split("/")
	return a
}
