package harness

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

// sessionSandboxes returns the sandboxes the session is checked in: a
// container from the runtime tests' fixture image, and a local work tree
// (under bubblewrap when the machine has it).
func sessionSandboxes(t *testing.T) map[string]runtime.Sandbox {
	t.Helper()
	out := map[string]runtime.Sandbox{}
	ctx := context.Background()
	local := runtime.NewLocal(ctx, runtime.LocalOptions{})
	t.Cleanup(func() { local.Close() })
	if !local.Refuses() {
		sb, err := local.Start(ctx, runtime.Spec{Name: "session", Workdir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sb.Remove(context.Background()) })
		out["local"] = sb
	}
	d, err := docker.NewDocker(ctx, docker.DockerOptions{})
	if err != nil {
		citest.Missing(t, "no docker engine (run .ci/docker.sh): %v", err)
		return out
	}
	t.Cleanup(func() { d.Close() })
	const image = "polynfi-fixture/bookworm:1"
	if _, err := d.Client().ImageInspect(ctx, image); err != nil {
		citest.Missing(t, "image %s missing (run .ci/docker.sh): %v", image, err)
		return out
	}
	sb, err := d.Start(ctx, runtime.Spec{Name: "session", Image: image, Workdir: "/tmp",
		Labels: map[string]string{runtime.LabelRun: fmt.Sprintf("harness-session-test-%d", time.Now().UnixNano())}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Remove(context.Background()) })
	out["docker"] = sb
	return out
}

// TestSession runs the harness's commands through a session in a container
// and in a local sandbox: every byte value but NUL reaches a command as
// written, stdout and stderr stay apart and keep their last bytes (with or
// without a final newline), output larger than a pipe's buffer arrives
// whole, exit statuses come back, a timeout kills the command and the next
// command runs in a new session, a command killed by a signal ends the
// session with its status, a NUL byte in an argument is refused, and after
// endSession commands still run (as plain execs) and, in the container
// (where an exec sees every process of the container; under bubblewrap
// each command has its own process namespace), no process of the session
// is left.
func TestSession(t *testing.T) {
	sbs := sessionSandboxes(t)
	if len(sbs) == 0 {
		t.Skip("no sandbox")
	}
	for name, sb := range sbs {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			wt := &tree{sb: sb, tmp: "/tmp"}
			defer wt.endSession()

			var all []byte
			for c := 1; c < 256; c++ {
				all = append(all, byte(c))
			}
			args := []string{string(all), "it's \\ a \"quote\" $HOME `x` $(y) ;|&<>", "line\nbreak\n", "", "ünï"}
			out, err := wt.script(ctx, `printf '%s\0' "$@"`, args...)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00"); strings.Join(got, "|") != strings.Join(args, "|") {
				t.Errorf("arguments came back as %q, want %q", got, args)
			}
			if wt.sess == nil {
				t.Fatal("no session after the first command")
			}
			first := wt.sess

			r, err := wt.exec(ctx, []string{"bash", "-c", `printf out; printf err >&2; exit 3`})
			if err != nil || r.ExitCode != 3 || string(r.Stdout) != "out" || string(r.Stderr) != "err" {
				t.Errorf("no final newline: %d %q %q %v", r.ExitCode, r.Stdout, r.Stderr, err)
			}
			r, err = wt.exec(ctx, []string{"bash", "-c", `printf 'a\n\n'; printf '\n' >&2`})
			if err != nil || r.ExitCode != 0 || string(r.Stdout) != "a\n\n" || string(r.Stderr) != "\n" {
				t.Errorf("newlines: %d %q %q %v", r.ExitCode, r.Stdout, r.Stderr, err)
			}
			r, err = wt.exec(ctx, []string{"bash", "-c", `head -c 3000000 /dev/zero | tr '\0' x; head -c 200000 /dev/zero | tr '\0' y >&2`})
			if err != nil || len(r.Stdout) != 3000000 || len(r.Stderr) != 200000 || bytes.Count(r.Stdout, []byte("x")) != 3000000 {
				t.Errorf("large output: %d bytes out, %d err, %v", len(r.Stdout), len(r.Stderr), err)
			}
			if wt.sess != first {
				t.Error("the session was replaced while every command ended normally")
			}
			if _, err := wt.exec(ctx, []string{"printf", "a\x00b"}); err == nil {
				t.Error("an argument with a NUL byte was accepted")
			}

			// Files written through the session arrive byte for byte;
			// those it cannot carry are refused before anything is sent.
			dir := "/tmp/polynfi-session-write/sub"
			if name == "local" {
				dir = wt.sb.Workdir() + "/written"
			}
			files := []runtime.File{{Path: "all", Data: all}, {Path: "empty"}, {Path: "nl", Data: []byte("a\n\n")}}
			if ok, err := wt.sess.write(ctx, dir, files); !ok || err != nil {
				t.Fatalf("write: %v %v", ok, err)
			}
			for _, f := range files {
				got, err := wt.script(ctx, `od -An -v -tx1 -- "$1"`, dir+"/"+f.Path)
				if err != nil || strings.Join(strings.Fields(string(got)), "") != fmt.Sprintf("%x", f.Data) {
					t.Errorf("%s: written as %s, want %x (%v)", f.Path, got, f.Data, err)
				}
			}
			for _, bad := range [][]runtime.File{{{Path: "nul", Data: []byte("a\x00b")}}, {{Path: "a/b", Data: []byte("x")}},
				{{Path: "big", Data: bytes.Repeat([]byte("x"), maxSessionWrite+1)}}} {
				if ok, err := wt.sess.write(ctx, dir, bad); ok || err != nil {
					t.Errorf("write of %s: %v %v, want refused", bad[0].Path, ok, err)
				}
			}

			// A timeout: the command is killed, the next one runs in a new
			// session.
			s := wt.sess
			r, err = s.run(ctx, []string{"sleep", "600"}, 2*time.Second)
			if err != nil || !r.TimedOut || !s.dead {
				t.Errorf("timeout: %+v %v dead %v", r, err, s.dead)
			}
			wt.sess.close()
			wt.sess = nil
			out, err = wt.script(ctx, `echo again`)
			if err != nil || string(out) != "again\n" || wt.sess == nil || wt.sess == s {
				t.Errorf("after a timeout: %q %v", out, err)
			}

			// A command killed by a signal ends the session with its
			// status; the next command starts another.
			s = wt.sess
			r, err = wt.exec(ctx, []string{"bash", "-c", `kill -9 $$`})
			if err != nil || r.ExitCode != 137 || !s.dead || wt.sess != nil {
				t.Errorf("killed command: exit %d, %v, dead %v", r.ExitCode, err, s.dead)
			}
			if out, err := wt.script(ctx, `echo on`); err != nil || string(out) != "on\n" {
				t.Errorf("after a killed command: %q %v", out, err)
			}

			// After endSession: no session shell left, commands are execs.
			wt.endSession()
			out, err = wt.script(ctx, `for p in /proc/[0-9]*; do tr '\0' ' ' < $p/cmdline 2>/dev/null; echo; done`)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(out), "polynfi-session") {
				t.Errorf("a session process is left after endSession:\n%s", out)
			}
			if wt.sess != nil {
				t.Error("endSession left a session")
			}
		})
	}
}

// TestEncodeRequest: a request is one line of ANSI-C quoted words, nothing
// else (no expansion, no separator bash would act on).
func TestEncodeRequest(t *testing.T) {
	line, err := encodeRequest([]string{"a b", "$(x)", "'", "\\", "\n", "\xff"})
	if err != nil {
		t.Fatal(err)
	}
	want := `$'a b' $'$(x)' $'\'' $'\\' $'\x0a' $'\xff'` + "\n"
	if string(line) != want {
		t.Errorf("got %q, want %q", line, want)
	}
	if _, err := encodeRequest(nil); err == nil {
		t.Error("an empty command was accepted")
	}
}
