package harness

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runtime"
)

// A session is one long-lived bash in the sandbox that runs the harness's
// own commands (git, patch, path look-ups) one after another, read from its
// standard input, so that each costs a fork in the sandbox instead of a new
// exec through the runtime's API (about 0.1 s each on Docker Engine 20.10:
// exec create, attach, runc exec, inspect). It serves the commands before
// the test command only: the tree closes it, and waits for its shell to
// exit, before the test command starts (tree.endSession), so that nothing
// the model patch makes run can share a process, a pipe or a file
// descriptor with it; the commands after the test run are plain execs.
//
// Protocol. A request is one line: the command's argv, each argument
// ANSI-C quoted ($'...', every byte outside printable ASCII, the quote and
// the backslash escaped), which the shell turns back into its arguments
// with `eval "set -- $line"` (the line holds quoted words only, so eval
// expands nothing) and runs as `( exec "$@" ) </dev/null`. Its standard
// output and error go to the session's own, each followed by a line
// "\n<boundary> <exit status>\n" on both; the boundary is 32 random hex
// digits, a new one per session. A command killed by a signal (status above
// 128) ends the session with its status, so that the runtime's own checks
// of a killed command (a container that met its memory limit or went away)
// run as they do for a plain exec. The session's first frame (status 0, no
// output) says the shell is ready. A request whose first word is the
// boundary followed by "-write" writes files (session.write) with the
// shell's own printf: no exec, no copy through the runtime's API.
type session struct {
	boundary string
	in       *io.PipeWriter
	out, err *frames
	cancel   context.CancelFunc
	done     chan struct{}
	res      runtime.Result // the session exec's result, once done is closed
	execErr  error          // its error, once done is closed
	dead     bool           // no more requests: the shell ended or was killed
}

// sessionLoop is the shell's program; $1 is the boundary.
const sessionLoop = `B=$1
printf '\n%s 0\n' "$B"; printf '\n%s 0\n' "$B" >&2
while IFS= read -r line; do
  eval "set -- $line"
  if [ "$1" = "$B-write" ]; then
    ( umask 022; mkdir -p -- "$2" && cd -- "$2" || exit 1; shift 2
      while [ $# -ge 2 ]; do printf '%s' "$2" > "$1" || exit 1; shift 2; done ) </dev/null
  else
    ( exec "$@" ) </dev/null
  fi
  rc=$?
  printf '\n%s %d\n' "$B" "$rc"; printf '\n%s %d\n' "$B" "$rc" >&2
  if [ "$rc" -gt 128 ]; then exit "$rc"; fi
done
`

// errNoSession says that the session's shell could not be started (it
// ended or failed before saying it was ready): nothing ran in it, and the
// caller runs its command as a plain exec.
var errNoSession = errors.New("harness session did not start")

// startSession starts a session in sb. The error is errNoSession (wrapped)
// when the shell ended before it was ready, an InfraError or ctx's error.
func startSession(ctx context.Context, sb runtime.Sandbox) (*session, error) {
	var rnd [16]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return nil, err
	}
	boundary := hex.EncodeToString(rnd[:])
	pr, pw := io.Pipe()
	sctx, cancel := context.WithCancel(ctx)
	s := &session{boundary: boundary, in: pw, out: newFrames(boundary), err: newFrames(boundary), cancel: cancel, done: make(chan struct{})}
	cmd := runtime.Command{Args: []string{"bash", "-c", sessionLoop, "polynfi-session", boundary},
		Env: sandboxGitEnv(), HostView: true, Stdin: pr, Stdout: s.out, Stderr: s.err}
	go func() {
		s.res, s.execErr = sb.Exec(sctx, cmd)
		_ = pr.Close()
		close(s.done)
	}()
	ready, err := s.await(ctx, 5*time.Minute)
	if err != nil {
		s.close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if runtime.InfraReason(err) != "" {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v", errNoSession, err)
	}
	if ready.timedOut || ready.code != 0 {
		s.close()
		return nil, fmt.Errorf("%w: the shell did not answer", errNoSession)
	}
	return s, nil
}

// reply is one request's answer: stdout and stderr frames and the status.
type reply struct {
	stdout, stderr []byte
	code           int
	timedOut       bool
	dropped        int
}

// await waits for the next frame on both streams, at most timeout. When
// the session ends first, the error is the exec's (an InfraError when the
// sandbox failed) or says that it ended.
func (s *session) await(ctx context.Context, timeout time.Duration) (reply, error) {
	var r reply
	var o, e *frame
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for o == nil || e == nil {
		select {
		case f := <-s.out.c:
			o = &f
		case f := <-s.err.c:
			e = &f
		case <-s.done:
			// Frames written before the exec returned are queued already.
			if o == nil {
				o = s.out.poll()
			}
			if e == nil {
				e = s.err.poll()
			}
			if o != nil && e != nil {
				continue
			}
			s.dead = true
			if s.execErr != nil {
				return r, s.execErr
			}
			return r, fmt.Errorf("harness session ended (exit %d): %s", s.res.ExitCode, strings.TrimSpace(string(s.err.rest())))
		case <-timer.C:
			r.timedOut, r.code = true, -1
			s.kill()
			return r, nil
		case <-ctx.Done():
			s.kill()
			return r, ctx.Err()
		}
	}
	if o.code != e.code {
		s.kill()
		return r, fmt.Errorf("harness session: status %d on stdout, %d on stderr", o.code, e.code)
	}
	r.stdout, r.stderr, r.code, r.dropped = o.data, e.data, o.code, o.dropped+e.dropped
	return r, nil
}

// run runs argv in the session with timeout and returns its result as
// Sandbox.Exec would: a command that exits non-zero or times out is a
// Result; a command killed by a signal ends the session, and the runtime's
// verdict on it (an InfraError for a container killed for memory or gone)
// is the error. After an error, a timeout or a kill the session is dead.
func (s *session) run(ctx context.Context, argv []string, timeout time.Duration) (runtime.Result, error) {
	res := runtime.Result{ExitCode: -1}
	line, err := encodeRequest(argv)
	if err != nil {
		return res, err
	}
	start := time.Now()
	if _, err := s.in.Write(line); err != nil {
		// The shell is gone: its exec says why.
		<-s.done
		s.dead = true
		if s.execErr != nil {
			return res, s.execErr
		}
		return res, fmt.Errorf("harness session ended (exit %d)", s.res.ExitCode)
	}
	r, err := s.await(ctx, timeout)
	res.Duration = time.Since(start)
	if err != nil {
		return res, err
	}
	if r.timedOut {
		res.TimedOut = true
		res.Notes = append(res.Notes, fmt.Sprintf("killed at timeout %s", timeout))
		return res, nil
	}
	res.ExitCode, res.Stdout, res.Stderr = r.code, r.stdout, r.stderr
	if r.dropped > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("output truncated: %d bytes dropped", r.dropped))
	}
	if r.code > 128 {
		// The shell exits with the status: the exec's checks run.
		_ = s.in.Close()
		<-s.done
		s.dead = true
		if s.execErr != nil {
			return res, s.execErr
		}
	}
	return res, nil
}

// maxSessionWrite bounds what write sends through a session (bash reads
// a request a byte at a time); larger files go through Sandbox.CopyIn.
const maxSessionWrite = 256 << 10

// write writes files (clean relative paths under dir, safepath.Check;
// their parent directories other than dir must exist) into dir in the
// sandbox, creating dir, in one request; an existing file is overwritten
// in place. ok is false when the files cannot go through a session (a NUL
// byte, more than maxSessionWrite bytes, a path that fails the check:
// nothing was sent) or the shell could not write them: the caller copies
// them through the runtime then. The error is an InfraError or ctx's.
func (s *session) write(ctx context.Context, dir string, files []runtime.File) (ok bool, err error) {
	argv := []string{s.boundary + "-write", dir}
	size := 0
	for _, f := range files {
		size += len(f.Data)
		if size > maxSessionWrite || bytes.IndexByte(f.Data, 0) >= 0 || safepath.Check(f.Path) != nil {
			return false, nil
		}
		argv = append(argv, f.Path, string(f.Data))
	}
	r, err := s.run(ctx, argv, 5*time.Minute)
	if err != nil {
		return false, err
	}
	return r.ExitCode == 0 && !r.TimedOut, nil
}

// close ends the session: its input is closed (the shell exits at the end
// of it) and, if the shell does not exit within 30 s, it is killed. close
// returns when the session's exec has returned.
func (s *session) close() {
	s.dead = true
	_ = s.in.Close()
	t := time.NewTimer(30 * time.Second)
	defer t.Stop()
	select {
	case <-s.done:
	case <-t.C:
	}
	s.kill()
}

// kill ends the session at once: its exec is cancelled (the runtime kills
// what runs in it) and kill returns when the exec has returned.
func (s *session) kill() {
	s.dead = true
	s.cancel()
	_ = s.in.Close()
	<-s.done
}

// encodeRequest renders argv as a request line (see session).
func encodeRequest(argv []string) ([]byte, error) {
	if len(argv) == 0 {
		return nil, errors.New("harness session: empty command")
	}
	var b bytes.Buffer
	for i, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return nil, fmt.Errorf("harness session: argument %d holds a NUL byte", i)
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("$'")
		for j := 0; j < len(a); j++ {
			switch c := a[j]; {
			case c == '\'' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c >= 0x20 && c < 0x7f:
				b.WriteByte(c)
			default:
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		}
		b.WriteByte('\'')
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// maxFrame bounds what one command's stream keeps (the rest is counted).
const maxFrame = runtime.DefaultMaxOutput

// frames splits one stream of a session into frames at the boundary lines
// and queues them. It is the stream's io.Writer.
type frames struct {
	marker  []byte // "\n" + boundary + " "
	c       chan frame
	mu      sync.Mutex
	buf     []byte
	dropped int
}

type frame struct {
	data    []byte
	code    int
	dropped int
}

func newFrames(boundary string) *frames {
	return &frames{marker: []byte("\n" + boundary + " "), c: make(chan frame, 8)}
}

// Write implements io.Writer; it never fails.
func (f *frames) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buf = append(f.buf, p...)
	for {
		i := bytes.Index(f.buf, f.marker)
		if i < 0 {
			break
		}
		rest := f.buf[i+len(f.marker):]
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			break
		}
		code, err := strconv.Atoi(string(rest[:nl]))
		if err != nil {
			code = -1
		}
		fr := frame{data: append([]byte(nil), f.buf[:i]...), code: code, dropped: f.dropped}
		f.buf = append(f.buf[:0], rest[nl+1:]...)
		f.dropped = 0
		select {
		case f.c <- fr:
		default: // more frames than requests: the stream is not ours
		}
	}
	// Keep the first maxFrame bytes and a tail long enough to hold a
	// marker split between writes.
	if keep := maxFrame + len(f.marker) + 32; len(f.buf) > keep {
		tail := len(f.marker) + 32
		n := len(f.buf) - maxFrame - tail
		copy(f.buf[maxFrame:], f.buf[maxFrame+n:])
		f.buf = f.buf[:maxFrame+tail]
		f.dropped += n
	}
	return len(p), nil
}

// poll returns a queued frame, or nil.
func (f *frames) poll() *frame {
	select {
	case fr := <-f.c:
		return &fr
	default:
		return nil
	}
}

// rest returns what the stream holds after its last frame (at most 4 KiB).
func (f *frames) rest() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.buf
	if len(b) > 4096 {
		b = b[:4096]
	}
	return append([]byte(nil), b...)
}
