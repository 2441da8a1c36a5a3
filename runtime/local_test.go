package runtime

import (
	"context"
	"errors"
	"fmt"
	"github.com/polynfi/polynfi/internal/citest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the fake child: with POLYNFI_RUNTIME_HELPER set
// it runs a helper mode instead of the tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv("POLYNFI_RUNTIME_HELPER"); mode != "" {
		os.Exit(helper(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

func helper(mode string, args []string) int {
	switch mode {
	case "exit":
		fmt.Println("to stdout")
		fmt.Fprintln(os.Stderr, "to stderr")
		n, _ := strconv.Atoi(args[0])
		return n
	case "env":
		for _, k := range args {
			fmt.Printf("%s=%s\n", k, os.Getenv(k))
		}
		wd, _ := os.Getwd()
		fmt.Printf("PWD=%s\n", wd)
		return 0
	case "spawn":
		// Start a grandchild that records its pid, then sleep; the
		// grandchild writes "survived" if it outlives the kill.
		gc := exec.Command(os.Args[0], args[0])
		gc.Env = append(os.Environ(), "POLYNFI_RUNTIME_HELPER=grandchild")
		if err := gc.Start(); err != nil {
			return 3
		}
		time.Sleep(time.Hour)
		return 0
	case "grandchild":
		dir := args[0]
		// Held open until the process ends (awaitFIFOClosed).
		if f, err := os.OpenFile(filepath.Join(dir, "alive"), os.O_RDWR, 0); err == nil {
			defer f.Close()
		}
		_ = os.WriteFile(filepath.Join(dir, "gc.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644)
		time.Sleep(2 * time.Second)
		_ = os.WriteFile(filepath.Join(dir, "survived"), []byte("yes"), 0o644)
		return 0
	case "write":
		err := os.WriteFile(args[0], []byte("x"), 0o644)
		if err != nil {
			fmt.Println("write error:", err)
			return 1
		}
		return 0
	case "network":
		// A socket to a public address must fail without network.
		out, err := exec.Command("bash", "-c", "exec 3<>/dev/tcp/1.1.1.1/53").CombinedOutput()
		fmt.Printf("%s %v\n", out, err)
		if err != nil {
			return 1
		}
		return 0
	}
	return 2
}

// helperCmd builds a Command that runs the test binary in mode.
func helperCmd(dir, mode string, args ...string) Command {
	return Command{
		Args: append([]string{os.Args[0]}, args...),
		Dir:  dir,
		Env:  []string{"POLYNFI_RUNTIME_HELPER=" + mode},
	}
}

// runners returns the runners to test: unisolated always, bwrap when it
// works on this machine.
func runners(t *testing.T) map[string]*Local {
	t.Helper()
	m := map[string]*Local{"none": newTestLocal(t, LocalOptions{NoIsolation: true})}
	if bw := newTestLocal(t, LocalOptions{}); bw.Isolation() == IsolationBwrap {
		m["bwrap"] = bw
	} else {
		t.Logf("bwrap not tested: %s", bw.Note())
	}
	return m
}

func TestLocalExitCodes(t *testing.T) {
	t.Parallel()
	for name, r := range runners(t) {
		for _, code := range []int{0, 1, 7} {
			t.Run(fmt.Sprintf("%s/%d", name, code), func(t *testing.T) {
				t.Parallel()
				res, err := r.Run(context.Background(), helperCmd(t.TempDir(), "exit", strconv.Itoa(code)))
				if err != nil {
					t.Fatal(err)
				}
				if res.ExitCode != code || res.TimedOut {
					t.Errorf("exit %d timed out %v, want %d false", res.ExitCode, res.TimedOut, code)
				}
				if string(res.Stdout) != "to stdout\n" || string(res.Stderr) != "to stderr\n" {
					t.Errorf("stdout %q stderr %q", res.Stdout, res.Stderr)
				}
				if res.Isolation != name {
					t.Errorf("isolation %q, want %q", res.Isolation, name)
				}
			})
		}
	}
}

func TestLocalEnvPinned(t *testing.T) {
	t.Parallel()
	for name, r := range runners(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			c := helperCmd(dir, "env", "TZ", "PYTHONHASHSEED", "LC_ALL", "EXTRA", "HOME")
			c.Env = append(c.Env, "TZ=Europe/Paris", "EXTRA=1")
			res, err := r.Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("TZ=UTC\nPYTHONHASHSEED=0\nLC_ALL=C.UTF-8\nEXTRA=1\nHOME=%s\nPWD=%s\n", os.Getenv("HOME"), dir)
			if string(res.Stdout) != want {
				t.Errorf("env:\n%s\nwant:\n%s", res.Stdout, want)
			}
		})
	}
}

func TestLocalScript(t *testing.T) {
	t.Parallel()
	r := newTestLocal(t, LocalOptions{NoIsolation: true})
	res, err := r.Run(context.Background(), Command{Script: "echo a; echo b >&2; exit 3", Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || string(res.Stdout) != "a\n" || string(res.Stderr) != "b\n" {
		t.Errorf("got exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if len(res.Notes) != 1 || !strings.HasPrefix(res.Notes[0], "no isolation") {
		t.Errorf("notes %q, want a no-isolation note", res.Notes)
	}
	if _, err := r.Run(context.Background(), Command{}); err == nil {
		t.Error("empty command: want an error")
	}
}

// processGone reports whether pid no longer runs (absent, or a zombie
// waiting for a reaper).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && (f[0] == "Z" || f[0] == "X")
}

func TestLocalTimeoutKillsGrandchildren(t *testing.T) {
	t.Parallel()
	for name, r := range runners(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := syscall.Mkfifo(filepath.Join(dir, "alive"), 0o666); err != nil {
				t.Fatal(err)
			}
			c := helperCmd(dir, "spawn", dir)
			c.Timeout = 700 * time.Millisecond
			start := time.Now()
			res, err := r.Run(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			if !res.TimedOut || res.ExitCode != -1 {
				t.Errorf("timed out %v exit %d, want true -1", res.TimedOut, res.ExitCode)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("Run took %s after a 700ms timeout", d)
			}
			if name == "none" {
				b, err := os.ReadFile(filepath.Join(dir, "gc.pid"))
				if err != nil {
					t.Fatalf("grandchild never started: %v", err)
				}
				pid, _ := strconv.Atoi(string(b))
				deadline := time.Now().Add(5 * time.Second)
				for !processGone(pid) && time.Now().Before(deadline) {
					time.Sleep(50 * time.Millisecond)
				}
				if !processGone(pid) {
					t.Errorf("grandchild %d still runs after the timeout", pid)
				}
			}
			// In both modes: the grandchild must not live to write its mark.
			// Unisolated, it was seen gone above: it can write nothing more.
			// Under bwrap its pid is the sandbox's, not to be watched from
			// here: await the end of file of the FIFO it holds (it is gone)
			// instead of sleeping past the time it would write at.
			if name != "none" {
				awaitFIFOClosed(t, filepath.Join(dir, "alive"), 10*time.Second)
				if _, err := os.Stat(filepath.Join(dir, "gc.pid")); err != nil {
					t.Logf("the grandchild had not started by the timeout: %v", err)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "survived")); err == nil {
				t.Error("grandchild survived the timeout")
			}
		})
	}
}

// awaitFIFOClosed waits until no process holds the FIFO at path open for
// writing (a read without blocking sees end of file), and fails the test
// when one still does after timeout.
func awaitFIFOClosed(t *testing.T, path string, timeout time.Duration) {
	t.Helper()
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	deadline := time.Now().Add(timeout)
	buf := make([]byte, 64)
	for {
		n, err := syscall.Read(fd, buf)
		if n == 0 && err == nil {
			return // end of file: no holder left
		}
		if time.Now().After(deadline) {
			t.Fatalf("a process still holds %s %s after the timeout (read %d, %v)", path, timeout, n, err)
		}
		time.Sleep(20 * time.Millisecond) // polling for the event
	}
}

func TestLocalContextCancel(t *testing.T) {
	t.Parallel()
	r := newTestLocal(t, LocalOptions{NoIsolation: true})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	dir := t.TempDir()
	_, err := r.Run(ctx, helperCmd(dir, "spawn", dir))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err %v, want the context's error", err)
	}
}

func TestBwrapIsolation(t *testing.T) {
	t.Parallel()
	r := newTestLocal(t, LocalOptions{})
	if r.Isolation() != IsolationBwrap {
		citest.Missing(t, "bwrap unavailable: %s", r.Note())
	}
	dir := t.TempDir()
	// The workspace is writable.
	res, err := r.Run(context.Background(), helperCmd(dir, "write", filepath.Join(dir, "ok")))
	if err != nil || res.ExitCode != 0 {
		t.Errorf("write in workspace: exit %d %s %v", res.ExitCode, res.Stdout, err)
	}
	// The home directory is private: a write there never reaches the host.
	home, _ := os.UserHomeDir()
	outside := filepath.Join(home, fmt.Sprintf(".polynfi-bwrap-test-%d", os.Getpid()))
	res, err = r.Run(context.Background(), helperCmd(dir, "write", outside))
	if _, serr := os.Stat(outside); serr == nil {
		t.Errorf("write to home reached the host: exit %d %s %v", res.ExitCode, res.Stdout, err)
	}
	os.Remove(outside)
	// The rest of the host is read-only (/usr) or private (the parent of
	// the work tree is in the sandbox's own /tmp).
	for i, p := range []string{"/usr/polynfi-bwrap-test", filepath.Join(filepath.Dir(dir), "sibling")} {
		res, err = r.Run(context.Background(), helperCmd(dir, "write", p))
		if i == 0 && (err != nil || res.ExitCode != 1) {
			t.Errorf("write %s: exit %d %s %v, want an error", p, res.ExitCode, res.Stdout, err)
		}
		if _, serr := os.Stat(p); serr == nil {
			t.Errorf("write %s reached the host", p)
			os.Remove(p)
		}
	}
	// No network.
	res, err = r.Run(context.Background(), helperCmd(dir, "network"))
	if err != nil || res.ExitCode != 1 {
		t.Errorf("network: exit %d %s %v, want the connection to fail", res.ExitCode, res.Stdout, err)
	}
}

func TestTimeoutFor(t *testing.T) {
	t.Parallel()
	if TimeoutFor("Java") != 1800*time.Second || TimeoutFor("java") != JavaTimeout || TimeoutFor("Python") != 1200*time.Second {
		t.Error("want 1800 s for Java and 1200 s otherwise")
	}
}

func TestNoBwrapNote(t *testing.T) {
	t.Parallel()
	r := newTestLocal(t, LocalOptions{Bwrap: "polynfi-no-such-bwrap"})
	if r.Isolation() != IsolationNone || r.Note() != "no isolation: bwrap not found" {
		t.Errorf("isolation %q note %q", r.Isolation(), r.Note())
	}
}

// TestAgentSandboxOptions checks the options a coding agent's sandbox uses:
// stdin, a live copy of stdout, a clean environment, hidden paths (a
// directory, a file, and /tmp made private) with a visible path inside a
// hidden directory, and network kept or not (a network namespace of its
// own has only the loopback device in /proc/net/dev).
func TestAgentSandboxOptions(t *testing.T) {
	t.Setenv("POLYNFI_SANDBOX_TEST_SECRET", "leak")
	r := newTestLocal(t, LocalOptions{})
	if r.Isolation() != IsolationBwrap {
		if os.Getenv("CI") == "true" {
			t.Fatalf("bwrap unavailable in CI: %s", r.Note())
		}
		t.Skipf("bwrap unavailable: %s", r.Note())
	}
	base := t.TempDir()
	ws, hidden, visible := filepath.Join(base, "ws"), filepath.Join(base, "hidden"), filepath.Join(base, "hidden", "tool")
	for _, d := range []string{ws, visible} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(hidden, "secret.txt"), []byte("s"), 0o644)
	os.WriteFile(filepath.Join(visible, "tool.txt"), []byte("t"), 0o644)
	hiddenFile := filepath.Join(t.TempDir(), "answer.txt")
	os.WriteFile(hiddenFile, []byte("the answer"), 0o644)
	tmpMarker := filepath.Join(os.TempDir(), fmt.Sprintf("polynfi-sandbox-marker-%d", os.Getpid()))
	os.WriteFile(tmpMarker, []byte("m"), 0o644)
	t.Cleanup(func() { os.Remove(tmpMarker) })
	// The host's interfaces other than the loopback device (pods and
	// containers add and remove veth devices meanwhile, so not a count).
	var hostIfaces []string
	if b, err := os.ReadFile("/proc/net/dev"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if name, _, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) != "lo" {
				hostIfaces = append(hostIfaces, strings.TrimSpace(name))
			}
		}
	}
	script := `cat; echo; env | grep -c POLYNFI_SANDBOX_TEST_SECRET; echo "PATH=${PATH:+set}";
test -e ` + filepath.Join(hidden, "secret.txt") + ` && echo secret-seen;
cat ` + filepath.Join(visible, "tool.txt") + `; echo;
test -s ` + hiddenFile + ` && echo answer-seen;
test -e ` + tmpMarker + ` && echo tmp-shared;
echo ifaces=$(sed -n "s/^ *\\([^:]*\\):.*/\\1/p" /proc/net/dev)`
	for _, network := range []bool{false, true} {
		var live strings.Builder
		res, err := r.Run(context.Background(), Command{Script: script, Dir: ws, Stdin: strings.NewReader("from-stdin"), Stdout: &live,
			Env: []string{"PATH=" + os.Getenv("PATH")}, CleanEnv: true, Network: network,
			Hide: []string{hidden, hiddenFile, os.TempDir()}, Visible: []string{visible}})
		if err != nil {
			t.Fatal(err)
		}
		out := string(res.Stdout)
		for _, want := range []string{"from-stdin\n0\nPATH=set\nt\n"} {
			if !strings.HasPrefix(out, want) {
				t.Errorf("network=%v: output %q, want it to start %q (stderr %s)", network, out, want, res.Stderr)
			}
		}
		for _, bad := range []string{"secret-seen", "answer-seen", "tmp-shared"} {
			if strings.Contains(out, bad) {
				t.Errorf("network=%v: %s", network, bad)
			}
		}
		if live.String() != out {
			t.Errorf("network=%v: live copy %q differs from the captured %q", network, live.String(), out)
		}
		ifaces, seen := "", false
		if i := strings.Index(out, "ifaces="); i >= 0 {
			ifaces = strings.TrimSpace(out[i+len("ifaces="):])
		}
		for _, name := range strings.Fields(ifaces) {
			seen = seen || slices.Contains(hostIfaces, name)
		}
		if !network && ifaces != "lo" {
			t.Errorf("network=false: interfaces %q, want only lo", ifaces)
		}
		if network && !seen {
			t.Errorf("network=true: interfaces %q, want the host's (%v)", ifaces, hostIfaces)
		}
	}
}
