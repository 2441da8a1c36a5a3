package runtime

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// SandboxUID and SandboxGID are the user and group a command runs as inside
// bubblewrap: never root, whoever runs polynfi.
const (
	SandboxUID = 1000
	SandboxGID = 1000
)

// Default limits of a local command, used where LocalOptions.Limits leaves
// a field zero. Chosen for the test suites of SWE-PolyBench-size
// repositories (a JVM with Maven and forked surefire uses ~300 threads and
// ~1.5 GiB; Jest workers a few hundred MB each).
const (
	DefaultPids        = 4096
	DefaultMemoryBytes = 8 << 30
	DefaultDiskBytes   = 8 << 30
	// DefaultTmpBytes is the size of the private /tmp and of the private
	// home directory (tmpfs, counted in the memory limit where a memory
	// cgroup applies).
	DefaultTmpBytes = 2 << 30
)

// envAllow lists the variables of polynfi's own environment that reach a
// command; everything else (tokens, credentials, POLYNFI_* settings, GIT_*,
// proxies) is left out. Command.Env and PinnedEnv are added after.
var envAllow = []string{"PATH", "LANG", "JAVA_HOME", "MAVEN_HOME", "M2_HOME", "GOROOT",
	"PYENV_ROOT", "PYENV_VERSION", "PYENV_SHELL", "NVM_DIR", "CARGO_HOME", "RUSTUP_HOME"}

// commandEnv is the environment of a command: the allowed variables of
// ours and fixed ones (HOME, USER, TMPDIR) unless clean, then extra, then
// PinnedEnv.
func commandEnv(home string, extra []string, clean bool) []string {
	var base []string
	if !clean {
		for _, k := range envAllow {
			if v, ok := os.LookupEnv(k); ok {
				base = append(base, k+"="+v)
			}
		}
		base = append(base, "HOME="+home, "USER=sandbox", "LOGNAME=sandbox", "TMPDIR=/tmp")
	}
	return MergeEnv(base, extra, PinnedEnv)
}

// secretEtc are files and directories of /etc hidden inside the sandbox.
var secretEtc = []string{"shadow", "shadow-", "gshadow", "gshadow-", "sudoers", "sudoers.d", "ssh", "ssl/private",
	"security/opasswd", "docker", "containerd", "kubernetes", "netrc", "machine-id"}

// toolchainDirs returns the host directories that hold the programs on
// PATH and live outside /usr, /bin, /sbin and /lib: for an entry under the
// home directory, the top-level directory of home holding it (~/.pyenv for
// ~/.pyenv/shims); elsewhere the entry's parent when it ends in bin, sbin
// or shims. Read-only. Maven's local repository is apart
// (MavenRepository): it is shown at a path of its own.
func toolchainDirs(home string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(d string) {
		if d == "" || d == "/" || seen[d] {
			return
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return
		}
		seen[d] = true
		out = append(out, d)
	}
	for _, p := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(p) {
			continue // "." or relative: never bound
		}
		p = filepath.Clean(p)
		if under(p, "/usr") || p == "/bin" || p == "/sbin" || under(p, "/lib") {
			continue
		}
		if home != "" && home != "/" && under(p, home) && p != home {
			rel, _ := filepath.Rel(home, p)
			add(filepath.Join(home, strings.Split(rel, string(filepath.Separator))[0]))
			continue
		}
		switch filepath.Base(p) {
		case "bin", "sbin", "shims":
			add(filepath.Dir(p))
		default:
			add(p)
		}
	}
	return out
}

// RustupHome returns the rustup home a sandbox shows read-only and names
// by RUSTUP_HOME: $RUSTUP_HOME when it is set and a directory, else the
// .rustup beside a .cargo toolchain directory (rustup installs both in the
// installing user's home; its cargo and rustc in .cargo/bin are proxies
// that find the toolchains under RUSTUP_HOME, by default $HOME/.rustup,
// which neither the sandbox's private home nor a HOME other than the
// installing user's holds). "" when there is none.
func RustupHome(toolchains []string) string {
	isDir := func(d string) bool {
		fi, err := os.Stat(d)
		return err == nil && fi.IsDir()
	}
	if v := os.Getenv("RUSTUP_HOME"); v != "" {
		if v = filepath.Clean(v); filepath.IsAbs(v) && v != "/" && isDir(v) {
			return v
		}
		return ""
	}
	for _, t := range toolchains {
		if filepath.Base(t) != ".cargo" {
			continue
		}
		if d := filepath.Join(filepath.Dir(t), ".rustup"); isDir(d) {
			return d
		}
	}
	return ""
}

// MavenRepository returns the host directory of the Maven local repository
// a test command reads inside the sandbox, where it appears read-only at
// home/.m2/repository (Maven's default for the sandbox user, whose home
// is home): Maven's own default on the host, passwdHome/.m2/repository
// (Java's user.home comes from the passwd entry, not from $HOME), when it
// is a directory, else home/.m2/repository when that is one, else "".
// So the sandbox reads what `mvn` on the host filled, whatever $HOME is
// (examples/polybench/env/setup.sh fills the same directory).
func MavenRepository(home, passwdHome string) string {
	for _, h := range []string{passwdHome, home} {
		if h == "" || h == "/" {
			continue
		}
		d := filepath.Join(h, ".m2", "repository")
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
	}
	return ""
}

// passwdHome returns the home directory of the passwd entry of the
// current user, "" when there is none.
func passwdHome() string {
	u, err := user.Current()
	if err != nil {
		return ""
	}
	return u.HomeDir
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// etcDirPrefix starts the name of a Local's passwd and group directory
// in the temporary directory: "polynfi-sandbox-etc-<pid>-<random>", so
// that RemoveStaleLocal can tell a dead process's leftover from a live
// one's.
const etcDirPrefix = "polynfi-sandbox-etc-"

// sandboxFiles writes the passwd and group files the sandbox sees (root and
// the sandbox user, whose home is home) into a new directory, which
// Local.Close removes.
func sandboxFiles(home string) (dir string, err error) {
	dir, err = os.MkdirTemp("", fmt.Sprintf("%s%d-", etcDirPrefix, os.Getpid()))
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	passwd := fmt.Sprintf("root:x:0:0:root:/nonexistent:/usr/sbin/nologin\nsandbox:x:%d:%d:sandbox:%s:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n", SandboxUID, SandboxGID, home)
	group := fmt.Sprintf("root:x:0:\nsandbox:x:%d:\nnogroup:x:65534:\n", SandboxGID)
	if err := os.WriteFile(filepath.Join(dir, "passwd"), []byte(passwd), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "group"), []byte(group), 0o644); err != nil {
		return "", err
	}
	return dir, nil
}

// bwrapArgs is the bubblewrap prefix for command c in dir running prog: a
// new user namespace (uid SandboxUID inside; no capability in it or
// anywhere), new PID, IPC, UTS and cgroup namespaces and (unless
// c.Network) network namespace, a new session, no nested user namespaces,
// death with polynfi. The file system is, for a test command, a root that
// holds only /usr (and the /bin, /lib links), /etc without its secrets and
// with the sandbox's passwd and group, the toolchain directories and
// c.Visible read-only, a private /tmp and home (tmpfs), new /proc and /dev,
// prog read-only, and dir and c.Writable read-write with dir/.git
// read-only; with c.HostView, the host's file system read-only instead
// (hostView.args: every top-level entry bound on its own, the trees where
// container engines mount and unmount left out), /tmp private when c.Hide
// names it. c.Hide is hidden in both (an empty tmpfs over a
// directory, /dev/null over a file) before c.Visible, dir and c.Writable
// are bound back.
func (l *Local) bwrapArgs(dir string, c Command, prog string) []string {
	a := []string{l.bwrap,
		"--unshare-user", "--uid", strconv.Itoa(SandboxUID), "--gid", strconv.Itoa(SandboxGID),
		"--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--cap-drop", "ALL", "--new-session", "--die-with-parent",
	}
	if !c.Network {
		a = append(a, "--unshare-net")
	}
	if l.disableUserns {
		a = append(a, "--disable-userns")
	}
	tmp := filepath.Clean(os.TempDir())
	if c.HostView {
		a = append(a, l.view.args(tmp)...)
		a = append(a, "--dev", "/dev", "--proc", "/proc")
		private := false
		for _, h := range c.Hide {
			private = private || filepath.Clean(h) == tmp
		}
		if private {
			a = append(a, "--size", strconv.FormatInt(l.tmpBytes, 10), "--tmpfs", tmp)
		} else {
			a = append(a, "--bind", tmp, tmp)
		}
	} else {
		a = systemBinds(a)
		if l.etcDir != "" {
			a = append(a, "--ro-bind", filepath.Join(l.etcDir, "passwd"), "/etc/passwd",
				"--ro-bind", filepath.Join(l.etcDir, "group"), "/etc/group")
		}
		a = append(a, "--proc", "/proc", "--dev", "/dev",
			"--size", strconv.FormatInt(l.tmpBytes, 10), "--tmpfs", "/tmp")
		if l.home != "" && l.home != "/" && !under(l.home, "/usr") && !under(l.home, "/etc") && l.home != "/tmp" {
			a = append(a, "--size", strconv.FormatInt(l.tmpBytes, 10), "--tmpfs", l.home)
		}
		ro := append([]string{}, l.toolchains...)
		sort.Strings(ro) // parents before children
		for _, r := range ro {
			a = append(a, "--ro-bind", r, r)
		}
		if l.mavenRepo != "" && l.home != "" && l.home != "/" {
			a = append(a, "--ro-bind", l.mavenRepo, filepath.Join(l.home, ".m2", "repository"))
			ro = append(ro, l.mavenRepo)
		}
		if prog != "" && !l.visible(prog, append(ro, c.Visible...)) {
			a = append(a, "--ro-bind", prog, prog)
		}
	}
	for _, h := range c.Hide {
		if c.HostView && filepath.Clean(h) == tmp {
			continue
		}
		fi, err := os.Stat(h)
		switch {
		case err != nil:
		case fi.IsDir():
			a = append(a, "--tmpfs", h)
		default:
			a = append(a, "--ro-bind", "/dev/null", h)
		}
	}
	for _, v := range c.Visible {
		if _, err := os.Stat(v); err == nil {
			a = append(a, "--ro-bind", v, v)
		}
	}
	a = append(a, "--bind", dir, dir)
	if fi, err := os.Lstat(filepath.Join(dir, ".git")); err == nil && !c.HostView && (fi.IsDir() || fi.Mode().IsRegular()) {
		a = append(a, "--ro-bind", filepath.Join(dir, ".git"), filepath.Join(dir, ".git"))
	}
	for _, w := range c.Writable {
		if w != "" {
			a = append(a, "--bind", w, w)
		}
	}
	if c.HostView {
		// the sandbox's own root (a tmpfs holding the binds, the
		// directories above volatile trees, the links) as read-only as
		// the host's / was when it was bound whole
		a = append(a, "--remount-ro", "/")
	}
	return append(a, "--chdir", dir)
}

// visible reports whether host path p is inside the sandbox's view
// through /usr, the link directories or one of ro.
func (l *Local) visible(p string, ro []string) bool {
	if under(p, "/usr") || under(p, "/bin") || under(p, "/sbin") || under(p, "/lib") || under(p, "/lib64") {
		return true
	}
	for _, r := range ro {
		if under(p, r) {
			return true
		}
	}
	return false
}

// cgroups places commands in cgroup v1 pids and memory groups when this
// process may create them; nil otherwise.
type cgroups struct {
	pidsParent, memParent string
}

// groupSeq numbers the groups of this process (shared by every Local);
// parentSeq the parent groups (one per Local).
var groupSeq, parentSeq atomic.Int64

// remove removes the parent groups (and any empty command group left in
// them). A group that still holds a process stays.
func (cg *cgroups) remove() {
	for _, p := range []string{cg.pidsParent, cg.memParent} {
		removeGroupTree(p)
	}
}

// removeGroupTree removes the cgroup directory p after its run-* children
// (a cgroup directory is removed with rmdir, its control files with it).
func removeGroupTree(p string) bool {
	if es, err := os.ReadDir(p); err == nil {
		for _, e := range es {
			if e.IsDir() {
				_ = os.Remove(filepath.Join(p, e.Name()))
			}
		}
	}
	err := os.Remove(p)
	return err == nil || errors.Is(err, os.ErrNotExist)
}

// pidAlive reports whether process pid exists (a process of another user
// counts).
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// deadOwner parses the pid out of name after prefix ("<pid>" or
// "<pid>-<more>") and reports whether that process is gone; false when
// name has no pid.
func deadOwner(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	if i := strings.IndexByte(rest, '-'); i >= 0 {
		rest = rest[:i]
	}
	pid, err := strconv.Atoi(rest)
	return err == nil && pid > 0 && pid != os.Getpid() && !pidAlive(pid)
}

// RemoveStaleLocal removes what Locals of processes that are gone (killed
// before they closed them) left behind: "polynfi-sandbox-etc-<pid>-*"
// directories in the temporary directory and "polynfi-<pid>[-<n>]" cgroup
// v1 parent groups beside this process's own pids and memory groups. A
// live process's are kept, and so is a group that still holds a process.
// It returns how many it removed; errors are not reported (what cannot be
// removed stays for a later call). NewLocal calls it.
func RemoveStaleLocal() int {
	n := 0
	tmp := os.TempDir()
	if es, err := os.ReadDir(tmp); err == nil {
		for _, e := range es {
			if e.IsDir() && deadOwner(e.Name(), etcDirPrefix) && os.RemoveAll(filepath.Join(tmp, e.Name())) == nil {
				n++
			}
		}
	}
	own := ownCgroups()
	for _, c := range []string{"pids", "memory"} {
		rel, ok := own[c]
		if !ok {
			continue
		}
		seen := map[string]bool{}
		for _, parent := range []string{filepath.Join(cgroupV1Root, c, rel), filepath.Join(cgroupV1Root, c)} {
			if seen[parent] {
				continue
			}
			seen[parent] = true
			es, err := os.ReadDir(parent)
			if err != nil {
				continue
			}
			for _, e := range es {
				if e.IsDir() && deadOwner(e.Name(), "polynfi-") && removeGroupTree(filepath.Join(parent, e.Name())) {
					n++
				}
			}
		}
	}
	return n
}

// ownCgroups maps each cgroup v1 controller to this process's group path
// (from /proc/self/cgroup); nil when unreadable.
func ownCgroups() map[string]string {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil
	}
	own := map[string]string{}
	for _, line := range strings.Split(string(self), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) == 3 {
			for _, c := range strings.Split(f[1], ",") {
				own[c] = f[2]
			}
		}
	}
	return own
}

// cgroupV1Root is where the v1 hierarchies are mounted.
const cgroupV1Root = "/sys/fs/cgroup"

// newCgroups prepares parent groups "polynfi-<pid>-<n>" (one per Local,
// removed by Local.Close) under this process's own pids and memory
// groups, or returns why it cannot.
func newCgroups() (*cgroups, error) {
	own := ownCgroups()
	if own == nil {
		return nil, errors.New("cannot read /proc/self/cgroup")
	}
	name := fmt.Sprintf("polynfi-%d-%d", os.Getpid(), parentSeq.Add(1))
	cg := &cgroups{}
	for _, c := range []struct {
		name string
		dst  *string
	}{{"pids", &cg.pidsParent}, {"memory", &cg.memParent}} {
		rel, ok := own[c.name]
		if !ok {
			return nil, fmt.Errorf("no cgroup v1 %s controller", c.name)
		}
		p := filepath.Join(cgroupV1Root, c.name, rel, name)
		if err := os.MkdirAll(p, 0o755); err != nil {
			// Inside a cgroup namespace the own path is "/".
			p = filepath.Join(cgroupV1Root, c.name, name)
			if err2 := os.MkdirAll(p, 0o755); err2 != nil {
				cg.remove()
				return nil, fmt.Errorf("cgroup %s: %v", c.name, err)
			}
		}
		*c.dst = p
	}
	return cg, nil
}

// group is one command's pids and memory cgroups.
type group struct {
	pids, mem string
}

func (cg *cgroups) create(l Limits) (*group, error) {
	n := groupSeq.Add(1)
	g := &group{pids: filepath.Join(cg.pidsParent, fmt.Sprintf("run-%d", n)), mem: filepath.Join(cg.memParent, fmt.Sprintf("run-%d", n))}
	for _, d := range []string{g.pids, g.mem} {
		if err := os.Mkdir(d, 0o755); err != nil {
			g.remove()
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(g.pids, "pids.max"), []byte(strconv.FormatInt(l.Pids, 10)), 0o644); err != nil {
		g.remove()
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(g.mem, "memory.limit_in_bytes"), []byte(strconv.FormatInt(l.MemoryBytes, 10)), 0o644); err != nil {
		g.remove()
		return nil, err
	}
	_ = os.WriteFile(filepath.Join(g.mem, "memory.swappiness"), []byte("0"), 0o644)
	return g, nil
}

// procs lists the processes in the group.
func (g *group) procs() []int {
	var out []int
	for _, d := range []string{g.pids, g.mem} {
		b, err := os.ReadFile(filepath.Join(d, "cgroup.procs"))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// killAll kills every process in the group until it is empty (daemons that
// left the process group and session included), for at most 5 s.
func (g *group) killAll() error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		ps := g.procs()
		if len(ps) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d processes survive in %s", len(ps), g.pids)
		}
		for _, p := range ps {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// oomKilled reports whether the memory limit killed a process.
func (g *group) oomKilled() bool {
	b, err := os.ReadFile(filepath.Join(g.mem, "memory.oom_control"))
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "oom_kill" && f[1] != "0" {
				return true
			}
		}
	}
	return false
}

// pidsHit reports whether the process limit refused a fork.
func (g *group) pidsHit() bool {
	b, err := os.ReadFile(filepath.Join(g.pids, "pids.events"))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) == 2 && f[0] == "max" && f[1] != "0"
}

func (g *group) remove() {
	for _, d := range []string{g.pids, g.mem} {
		for i := 0; i < 50; i++ {
			if err := os.Remove(d); err == nil || errors.Is(err, os.ErrNotExist) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// joinScript is the wrapper that moves itself into the command's cgroups,
// sets its resource limits and then becomes the command: $1 and $2 are the
// cgroup.procs files ("" for none), $3 the file size limit in KiB, $4 the
// open files limit, $5 "mark" to write the start mark (startedScript)
// itself (unisolated), else "" (bubblewrap's sandbox writes it); the
// command follows.
const joinScript = `set -e
[ -z "$1" ] || echo $$ > "$1"
[ -z "$2" ] || echo $$ > "$2"
ulimit -f "$3"
ulimit -n "$4"
ulimit -c 0
if [ "$5" = mark ]; then printf 1 >&3; exec 3>&-; fi
shift 5
exec "$@"`

// startedScript runs first inside bubblewrap's sandbox, once bubblewrap has
// set it up: it writes one byte to fd 3 (the start mark Run waits for,
// telling a command that ran from a sandbox that could not be set up),
// closes it and becomes the command. Run by /bin/sh -c with the command as
// its arguments.
const startedScript = `printf 1 >&3 && exec 3>&- && exec "$@"`

// diskWatch polls the size of dir every interval and calls kill once it
// exceeds max bytes. stop ends it.
func diskWatch(ctx context.Context, dir string, max int64, interval time.Duration, kill func()) (stop func() bool) {
	done := make(chan struct{})
	var hit atomic.Bool
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if treeSize(dir, max) > max {
					hit.Store(true)
					kill()
					return
				}
			}
		}
	}()
	return func() bool { close(done); return hit.Load() }
}

// treeSize sums the sizes of the regular files under dir (links not
// followed), stopping once the sum exceeds max.
func treeSize(dir string, max int64) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		if n > max {
			return filepath.SkipAll
		}
		return nil
	})
	return n
}

// systemBinds appends to a bubblewrap's arguments the system a sandboxed
// command needs, read-only: /usr, the /bin, /sbin and /lib* directories
// (or their links into /usr, as links), and /etc with its secrets
// (secretEtc) emptied: a directory as an empty tmpfs, a file as
// /dev/null. The caller binds its own passwd and group over /etc's.
func systemBinds(a []string) []string {
	a = append(a, "--ro-bind", "/usr", "/usr")
	for _, d := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
		case fi.Mode()&fs.ModeSymlink != 0:
			if t, err := os.Readlink(d); err == nil {
				a = append(a, "--symlink", t, d)
			}
		case fi.IsDir():
			a = append(a, "--ro-bind", d, d)
		}
	}
	a = append(a, "--ro-bind", "/etc", "/etc")
	for _, s := range secretEtc {
		p := filepath.Join("/etc", s)
		if fi, err := os.Lstat(p); err == nil {
			if fi.IsDir() {
				a = append(a, "--tmpfs", p)
			} else if fi.Mode().IsRegular() {
				a = append(a, "--ro-bind", "/dev/null", p)
			}
		}
	}
	return a
}
