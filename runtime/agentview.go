package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The agent view (Command.AgentView) is what a coding agent sees under
// bubblewrap: an allow-list, never the host's file system minus a few
// trees. It holds
//   - /usr and the /bin, /sbin, /lib* links or directories, read-only;
//   - /etc read-only without its secrets (secretEtc), with a passwd and a
//     group file of its own (root and the agent's user) and the target of
//     /etc/resolv.conf when that is a link out of /etc (systemd-resolved);
//   - the toolchain directories (toolchainDirs: those of the programs on
//     PATH, ~/.m2/repository, LocalOptions.Toolchains) and those named by
//     the toolchain variables (agentToolchainEnv) that exist, read-only;
//   - Command.Visible read-only and Command.Writable read-write, as given;
//   - a private home directory at the home directory's path (Command.Home,
//     read-write; an empty tmpfs without it), a private /tmp (tmpfs, mode
//     1777), new /proc and /dev;
//   - the work tree Command.Dir, read-write (its .git too).
//
// Nothing else of the host: not /root or /home (besides the toolchains
// under the home directory), /var, /srv, /mnt, /media, /opt, /run, /work,
// the host's /tmp, the container engines' state. Command.Hide is hidden
// inside that view as in the others.
//
// The agent never runs as the host's root. When polynfi runs as root, the
// sandbox has no user namespace: bubblewrap (root) sets it up with every
// capability dropped but CAP_SETUID, CAP_SETGID and CAP_SETPCAP, and the
// first process in it becomes AgentUID:AgentGID with setpriv (no
// capability left, bounding set empty, no_new_privs) before the command
// starts; Command.Dir, Command.Home and Command.Own are made that user's
// first. Otherwise it runs as SandboxUID in a user namespace that maps it
// to polynfi's own (unprivileged) user, as test commands do.

// AgentUID and AgentGID are the host user and group an agent runs as when
// polynfi runs as root (nobody and nogroup on Debian, Ubuntu and Fedora).
// Files the agent writes on the host (its work tree) belong to them.
const (
	AgentUID = 65534
	AgentGID = 65534
)

// agentToolchainEnv are the variables whose directory, when set and
// present, the agent view binds read-only besides the PATH toolchains
// (RUSTUP_HOME: rustup's ~/.cargo/bin proxies need it).
var agentToolchainEnv = []string{"JAVA_HOME", "GOROOT", "PYENV_ROOT", "NVM_DIR", "CARGO_HOME", "RUSTUP_HOME", "MAVEN_HOME", "M2_HOME"}

// agentAsRoot reports whether this process is root, so that agents run as
// AgentUID without a user namespace.
func agentAsRoot() bool { return os.Geteuid() == 0 }

// AgentUser returns the host user and group an agent's files belong to:
// AgentUID and AgentGID when polynfi runs as root, else polynfi's own.
func AgentUser() (uid, gid int) {
	if agentAsRoot() {
		return AgentUID, AgentGID
	}
	return os.Geteuid(), os.Getegid()
}

// AgentReady reports why agent-view commands cannot run here (nil when
// they can, or when the Local does not isolate); see agentReady.
func (l *Local) AgentReady(ctx context.Context) error {
	if l.bwrap == "" {
		return nil
	}
	return l.agentReady(ctx)
}

// agentReady prepares the agent view (its passwd and group files,
// setpriv) and probes it with a trivial command, once it succeeds; the
// error says why agents cannot run here.
// A failure is not kept: the next command probes again (a probe that timed
// out on a loaded machine says nothing about the next).
func (l *Local) agentReady(ctx context.Context) error {
	l.agentMu.Lock()
	defer l.agentMu.Unlock()
	if l.agentOK {
		// written again for each command: a cleaner of the temporary
		// directory may have removed them meanwhile
		return l.writeAgentEtc()
	}
	if err := l.agentProbe(ctx); err != nil {
		return err
	}
	l.agentOK = true
	return nil
}

func (l *Local) agentProbe(ctx context.Context) error {
	if l.bwrap == "" {
		return errors.New("bwrap is not usable")
	}
	uid := SandboxUID
	if agentAsRoot() {
		uid = AgentUID
		p, err := exec.LookPath("setpriv")
		if err != nil {
			return fmt.Errorf("setpriv (util-linux) not found: it makes an agent an unprivileged user when polynfi runs as root: %w", err)
		}
		l.setpriv = p
	}
	l.agentUID = uid
	if err := l.writeAgentEtc(); err != nil {
		return err
	}
	probe, err := os.MkdirTemp("", "polynfi-agent-probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(probe)
	if err := l.own([]string{probe}); err != nil {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	args := append(l.agentArgs(probe, Command{AgentView: true}, ""), "--", "/bin/sh", "-c", "echo ok > probe; id -u")
	args = append(args[:len(args)-3], append(l.dropPrivileges(), args[len(args)-3:]...)...)
	out, err := exec.CommandContext(pctx, args[0], args[1:]...).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != strconv.Itoa(uid) {
		return fmt.Errorf("bwrap cannot create the agent's sandbox here (%v: %s)", err, bytes.TrimSpace(out))
	}
	if b, err := os.ReadFile(filepath.Join(probe, "probe")); err != nil || string(b) != "ok\n" {
		return fmt.Errorf("the agent's sandbox cannot write its work tree (%v)", err)
	}
	return nil
}

// writeAgentEtc writes the agent view's passwd and group files (root and
// the agent's user, whose home is the home directory) beside the test
// sandbox's, making the directory again if it is gone.
func (l *Local) writeAgentEtc() error {
	if l.etcDir == "" {
		return errors.New("no sandbox files")
	}
	if err := os.MkdirAll(l.etcDir, 0o755); err != nil {
		return err
	}
	uid := l.agentUID
	passwd := fmt.Sprintf("root:x:0:0:root:/nonexistent:/usr/sbin/nologin\nagent:x:%d:%d:agent:%s:/bin/bash\n", uid, uid, l.home)
	group := fmt.Sprintf("root:x:0:\nagent:x:%d:\n", uid)
	if uid != 65534 {
		passwd += "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
		group += "nogroup:x:65534:\n"
	}
	for name, s := range map[string]string{"agent-passwd": passwd, "agent-group": group} {
		if err := os.WriteFile(filepath.Join(l.etcDir, name), []byte(s), 0o644); err != nil {
			return err
		}
	}
	l.agentEtc = l.etcDir
	return nil
}

// dropPrivileges is the argv prefix that makes the first process of a root
// agent sandbox AgentUID:AgentGID with no capability, no supplementary
// group and no_new_privs; nil when polynfi is not root (the user namespace
// already maps the sandbox's user to an unprivileged one).
func (l *Local) dropPrivileges() []string {
	if !agentAsRoot() {
		return nil
	}
	return []string{l.setpriv, "--reuid=" + strconv.Itoa(AgentUID), "--regid=" + strconv.Itoa(AgentGID), "--clear-groups",
		"--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--"}
}

// own makes the trees at paths AgentUID's (links not followed) when
// polynfi runs as root; otherwise it does nothing.
func (l *Local) own(paths []string) error {
	if !agentAsRoot() {
		return nil
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		err := filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(q, AgentUID, AgentGID)
		})
		if err != nil {
			return fmt.Errorf("make %s the agent user's: %w", p, err)
		}
	}
	return nil
}

// CheckAgentAccess returns an error naming the first of visible that the
// agent's user cannot read, or of writable that it cannot write (the path
// itself: its mode bits for AgentUID; ACLs are not read). Only when
// polynfi runs as root: otherwise the agent is polynfi's own user.
func CheckAgentAccess(visible, writable []string) error {
	if !agentAsRoot() {
		return nil
	}
	check := func(p string, write bool) error {
		fi, err := os.Stat(p)
		if err != nil {
			return nil // not bound
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return nil
		}
		shift := 0 // others
		switch {
		case st.Uid == AgentUID:
			shift = 6
		case st.Gid == AgentGID:
			shift = 3
		}
		bits := (uint32(fi.Mode().Perm()) >> shift) & 7
		need := uint32(4)
		if fi.IsDir() {
			need |= 1
		}
		what := "readable"
		if write {
			need |= 2
			what = "writable"
		}
		if bits&need != need {
			return fmt.Errorf("%s is not %s by the agent's user (uid %d: polynfi runs as root, agents never do; mode %s, owner %d): make it so (e.g. chmod o+%s) or choose another path",
				p, what, AgentUID, fi.Mode().Perm(), st.Uid, map[bool]string{false: "rX", true: "rwX"}[write])
		}
		return nil
	}
	for _, v := range visible {
		if err := check(v, false); err != nil {
			return err
		}
	}
	for _, w := range writable {
		if err := check(w, true); err != nil {
			return err
		}
	}
	return nil
}

// agentToolchains are the read-only toolchain directories of the agent
// view: the Local's and those named by agentToolchainEnv, sorted (parents
// before children).
func (l *Local) agentToolchains() []string {
	out := append([]string{}, l.toolchains...)
	for _, k := range agentToolchainEnv {
		v := os.Getenv(k)
		if v == "" || !filepath.IsAbs(v) {
			continue
		}
		v = filepath.Clean(v)
		if fi, err := os.Stat(v); err == nil && fi.IsDir() && v != "/" && v != l.home {
			out = append(out, v)
		}
	}
	if l.rustupHome != "" && !slices.Contains(out, l.rustupHome) {
		out = append(out, l.rustupHome)
	}
	sort.Strings(out)
	return out
}

// agentArgs is the bubblewrap prefix of an agent-view command (see the
// comment at the top of this file) in dir running prog.
func (l *Local) agentArgs(dir string, c Command, prog string) []string {
	a := []string{l.bwrap}
	if agentAsRoot() {
		// CAP_DAC_READ_SEARCH: bubblewrap's last step enters the work
		// tree, which only the agent's user may enter
		a = append(a, "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP",
			"--cap-add", "CAP_DAC_READ_SEARCH")
	} else {
		a = append(a, "--unshare-user", "--uid", strconv.Itoa(SandboxUID), "--gid", strconv.Itoa(SandboxGID), "--cap-drop", "ALL")
		if l.disableUserns {
			a = append(a, "--disable-userns")
		}
	}
	a = append(a, "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--new-session", "--die-with-parent")
	if !c.Network {
		a = append(a, "--unshare-net")
	}
	a = systemBinds(a)
	if l.agentEtc != "" {
		a = append(a, "--ro-bind", filepath.Join(l.agentEtc, "agent-passwd"), "/etc/passwd",
			"--ro-bind", filepath.Join(l.agentEtc, "agent-group"), "/etc/group")
	}
	// Every mount point below is made with its missing parents as
	// directories of mode 0755 (bubblewrap would make some 0700, which
	// the agent's user could not enter).
	made := map[string]bool{"/tmp": true}
	var bound []string // directories bound so far, whose insides exist
	inView := func(p string) bool {
		for _, b := range bound {
			if under(p, b) {
				return true
			}
		}
		return false
	}
	parents := func(p string) {
		var anc []string
		for d := filepath.Dir(p); d != "/" && d != "."; d = filepath.Dir(d) {
			anc = append(anc, d)
		}
		for i := len(anc) - 1; i >= 0; i-- {
			if d := anc[i]; !made[d] && !inView(d) {
				made[d] = true
				a = append(a, "--perms", "0755", "--dir", d)
			}
		}
	}
	bind := func(opt, src, dst string, isDir bool) {
		parents(dst)
		a = append(a, opt, src, dst)
		if isDir {
			bound = append(bound, dst)
		}
	}
	bound = append(bound, "/usr", "/etc")
	for _, d := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			bound = append(bound, d)
		}
	}
	// A resolver configuration kept out of /etc (systemd-resolved's
	// /run/systemd/resolve/stub-resolv.conf): the agent needs its network.
	if t, err := filepath.EvalSymlinks("/etc/resolv.conf"); err == nil && !under(t, "/etc") && !under(t, "/usr") {
		bind("--ro-bind", t, t, false)
	}
	a = append(a, "--proc", "/proc", "--dev", "/dev",
		"--perms", "1777", "--size", strconv.FormatInt(l.tmpBytes, 10), "--tmpfs", "/tmp")
	if l.home != "" && l.home != "/" && !under(l.home, "/usr") && !under(l.home, "/etc") && l.home != "/tmp" && l.home != filepath.Clean(os.TempDir()) {
		if c.Home != "" {
			bind("--bind", c.Home, l.home, true)
		} else {
			parents(l.home)
			made[l.home] = true
			a = append(a, "--perms", "0777", "--size", strconv.FormatInt(l.tmpBytes, 10), "--tmpfs", l.home)
		}
	}
	ro := l.agentToolchains()
	for _, r := range ro {
		bind("--ro-bind", r, r, true)
	}
	if prog != "" && !l.visible(prog, append(ro, c.Visible...)) {
		bind("--ro-bind", prog, prog, false)
	}
	// Hide, Visible, Writable and the work tree, shallowest first, so
	// that the deeper path wins: a hidden directory inside a visible one
	// stays hidden, a visible one inside a hidden one is shown. A hidden
	// path outside everything bound so far is not in the view anyway.
	type op struct {
		kind string // "hide", "ro", "rw"
		path string
	}
	var ops []op
	tmp := filepath.Clean(os.TempDir())
	for _, h := range c.Hide {
		if h = filepath.Clean(h); h != tmp && h != "/tmp" {
			ops = append(ops, op{"hide", h})
		}
	}
	for _, v := range c.Visible {
		ops = append(ops, op{"ro", filepath.Clean(v)})
	}
	ops = append(ops, op{"rw", filepath.Clean(dir)})
	for _, w := range c.Writable {
		if w != "" {
			ops = append(ops, op{"rw", filepath.Clean(w)})
		}
	}
	sort.SliceStable(ops, func(i, j int) bool {
		return strings.Count(ops[i].path, "/") < strings.Count(ops[j].path, "/")
	})
	for _, o := range ops {
		fi, err := os.Stat(o.path)
		if err != nil {
			continue
		}
		switch o.kind {
		case "hide":
			if !inView(o.path) {
				continue
			}
			if fi.IsDir() {
				a = append(a, "--tmpfs", o.path)
			} else {
				a = append(a, "--ro-bind", "/dev/null", o.path)
			}
		case "ro":
			bind("--ro-bind", o.path, o.path, fi.IsDir())
		case "rw":
			bind("--bind", o.path, o.path, fi.IsDir())
		}
	}
	// the sandbox's own root (a tmpfs holding the mount points) read-only
	a = append(a, "--remount-ro", "/")
	return append(a, "--chdir", dir)
}
